#if os(iOS)
import SwiftUI

/// A horizontal, scrollable row of text tabs with a capsule underline that slides to the
/// selected tab. The strip scrolls the selected tab to its middle, on first appearance too.
///
/// ```swift
/// @State private var category = "Top"
///
/// ScrollingStrip(
///     tabs: ["Top", "World", "Business", "Science", "Sport", "Culture"],
///     selection: $category
/// )
/// ```
///
/// Place it above your content, typically in a `safeAreaInset(edge: .top)` or as the first
/// row of a `VStack`, and switch the content on `category`.
///
/// - The selected title is drawn in the primary color and the others in the secondary
///   one; all titles use a Dynamic Type text style.
/// - Each tab's touch area grows toward 44 points without moving anything on screen.
/// - The strip is a tab bar to VoiceOver, which reads each tab with its title, its
///   position and, on the selected one, "selected". With Reduce Motion on, the row and
///   the underline jump instead of sliding.
/// - A tap that selects another tab plays the system's selection haptic. Changes you make
///   to the binding in code, and the repairs below, are silent.
/// - A title that appears twice is shown once. If the selection is not one of the tabs,
///   the strip selects the first; if the selected tab is removed, the one that takes its
///   place is selected.
/// - Right-to-left languages get the row in reading order, first tab on the right.
@available(iOS 18.0, *)
public struct ScrollingStrip: View {
    private let tabs: [String]
    @Binding private var selection: String
    private let tint: Color

    /// The tab the scroll view keeps in its middle. It starts on the selection, so the
    /// first layout is already centered, with no scroll after the strip appears.
    @State private var centeredTab: String?
    /// Counts the taps that changed the selection; the haptic follows it and nothing else.
    @State private var selectingTaps = 0
    @Namespace private var underline
    @Environment(\.accessibilityReduceMotion) private var reduceMotion

    private static let spacing: CGFloat = 20

    /// Creates a scrolling strip of tabs.
    ///
    /// - Parameters:
    ///   - tabs: The tab titles, in order.
    ///   - selection: The selected title.
    ///   - tint: The underline color. Defaults to pink.
    public init(tabs: [String], selection: Binding<String>, tint: Color = .pink) {
        self.tabs = tabs
        self._selection = selection
        self.tint = tint
        self._centeredTab = State(initialValue: selection.wrappedValue)
    }

    public var body: some View {
        let shownTabs = ScrollingStripLogic.uniqueTabs(tabs)
        ScrollView(.horizontal) {
            HStack(spacing: Self.spacing) {
                ForEach(shownTabs, id: \.self) { tab in
                    StripTab(
                        title: tab,
                        isSelected: tab == selection,
                        tint: tint,
                        spacing: Self.spacing,
                        underline: underline
                    ) {
                        select(tab)
                    }
                }
            }
            .scrollTargetLayout()
            .padding(.horizontal)
            .animation(reduceMotion ? nil : .snappy(duration: 0.3), value: selection)
        }
        .scrollIndicators(.hidden)
        .scrollPosition(id: $centeredTab, anchor: .center)
        .onChange(of: selection) { _, newSelection in
            withAnimation(reduceMotion ? nil : .snappy(duration: 0.3)) {
                centeredTab = newSelection
            }
        }
        .onChange(of: shownTabs, initial: true) { previousTabs, newTabs in
            let resolved = ScrollingStripLogic.resolvedSelection(selection, previousTabs: previousTabs, tabs: newTabs)
            if let resolved, resolved != selection {
                selection = resolved
            }
        }
        .sensoryFeedback(.selection, trigger: selectingTaps)
        .accessibilityElement(children: .contain)
        .accessibilityAddTraits(.isTabBar)
    }

    /// A tap on a tab: selects it and, when that changed the selection, plays the haptic.
    private func select(_ tab: String) {
        guard tab != selection else { return }
        selection = tab
        // A binding that keeps its value (a constant, say) changed nothing: stay silent.
        if selection == tab { selectingTaps += 1 }
    }
}

/// One tab: its title over the room for the underline.
@available(iOS 18.0, *)
private struct StripTab: View {
    let title: String
    let isSelected: Bool
    let tint: Color
    let spacing: CGFloat
    let underline: Namespace.ID
    let action: @MainActor () -> Void

    @State private var size = CGSize.zero

    var body: some View {
        Button(action: action) {
            VStack(spacing: 6) {
                Text(title)
                    .font(.subheadline.weight(.semibold))
                    .foregroundStyle(isSelected ? HierarchicalShapeStyle.primary : HierarchicalShapeStyle.secondary)
                    .lineLimit(1)
                    .fixedSize()

                ZStack {
                    if isSelected {
                        Capsule()
                            .fill(tint)
                            .matchedGeometryEffect(id: "underline", in: underline)
                    }
                }
                .frame(height: 3)
            }
            .padding(.vertical, 8)
            .onGeometryChange(for: CGSize.self) { proxy in
                proxy.size
            } action: { newSize in
                size = newSize
            }
            .contentShape(
                OutsetRectangle(
                    outsets: ScrollingStripLogic.touchTargetOutsets(
                        width: size.width, height: size.height, spacing: spacing)
                )
            )
        }
        .buttonStyle(.plain)
        .accessibilityAddTraits(isSelected ? .isSelected : [])
    }
}

/// A rectangle grown past its frame, used as a hit-testing shape only. Shapes draw off
/// the main actor, so it is `nonisolated` also where the main actor is the default.
@available(iOS 18.0, *)
nonisolated private struct OutsetRectangle: Shape {
    var outsets: ScrollingStripLogic.Outsets

    func path(in rect: CGRect) -> Path {
        Path(rect.insetBy(dx: -outsets.horizontal, dy: -outsets.vertical))
    }
}
#endif

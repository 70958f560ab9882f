#if os(iOS)
import SwiftUI

/// An Android-style row of titles with a colored underline that slides under the
/// selected one. Tabs share the width equally, and the selection is an index.
///
/// ```swift
/// @State private var tab = 0
///
/// TopTabs(["Chats", "Status", "Calls"], selection: $tab)
/// ```
///
/// To style the tabs yourself, pass a label closure. It gets each title and whether it
/// is selected:
///
/// ```swift
/// TopTabs(["Chats", "Status", "Calls"], selection: $tab, tint: .green) { title, isSelected in
///     Text(title.uppercased())
///         .font(.footnote.weight(.bold))
///         .foregroundStyle(isSelected ? .green : .secondary)
/// }
/// ```
///
/// The row is a tab bar to VoiceOver, which reads each tab with its title and position,
/// and the selected one as selected. At the largest text sizes, touching and holding a
/// tab shows it in the large content viewer. With Reduce Motion on, the underline jumps
/// instead of sliding. A tap that selects another tab plays the selection haptic; changes
/// made in code are silent. When the titles change, the tab the user was on stays
/// selected if its title is still there; otherwise the index is clamped into range. In
/// right-to-left languages the first tab is on the right, and the underline follows.
@available(iOS 17.0, *)
public struct TopTabs<Label: View>: View {
    private let titles: [String]
    @Binding private var selection: Int
    private let tint: Color
    private let indicatorInset: CGFloat
    private let label: (String, Bool) -> Label

    /// Counts the taps that changed the selection; the haptic follows it and nothing else.
    @State private var selectingTaps = 0
    @Environment(\.accessibilityReduceMotion) private var reduceMotion
    @Environment(\.layoutDirection) private var layoutDirection

    /// Creates underline tabs with your own labels.
    ///
    /// - Parameters:
    ///   - titles: The tab titles, in order.
    ///   - selection: The index of the selected tab.
    ///   - tint: The underline color. Defaults to the accent color.
    ///   - indicatorInset: How far the underline is pulled in from each side of its tab.
    ///   - label: The label for a title; the second argument is true when it is selected.
    public init(
        _ titles: [String],
        selection: Binding<Int>,
        tint: Color = .accentColor,
        indicatorInset: CGFloat = 0,
        @ViewBuilder label: @escaping (_ title: String, _ isSelected: Bool) -> Label
    ) {
        self.titles = titles
        self._selection = selection
        self.tint = tint
        self.indicatorInset = indicatorInset
        self.label = label
    }

    public var body: some View {
        HStack(spacing: 0) {
            ForEach(Array(titles.enumerated()), id: \.offset) { index, title in
                let isSelected = index == selection
                Button {
                    select(index)
                } label: {
                    label(title, isSelected)
                        .lineLimit(1)
                        .minimumScaleFactor(0.75)
                        .frame(maxWidth: .infinity, minHeight: 44)
                        .padding(.horizontal, 4)
                        .contentShape(Rectangle())
                }
                .buttonStyle(.plain)
                .accessibilityShowsLargeContentViewer()
                .accessibilityAddTraits(isSelected ? .isSelected : [])
            }
        }
        .overlay {
            GeometryReader { proxy in
                if let frame = TopTabsLogic.indicatorFrame(
                    selectedIndex: selection,
                    count: titles.count,
                    totalWidth: proxy.size.width,
                    inset: indicatorInset,
                    direction: TopTabsLogic.Direction(layoutDirection)
                ) {
                    Capsule()
                        .fill(tint)
                        .frame(width: frame.width, height: 3)
                        .offset(x: frame.x)
                        .frame(maxWidth: .infinity, maxHeight: .infinity, alignment: .bottomLeading)
                }
            }
            // The frame's x is measured from the left edge in both directions, so this
            // layer is laid out left to right: its leading edge is the left one.
            .environment(\.layoutDirection, .leftToRight)
            .accessibilityHidden(true)
        }
        .background(alignment: .bottom) {
            Divider()
        }
        .animation(reduceMotion ? nil : .snappy(duration: 0.25), value: selection)
        .sensoryFeedback(.selection, trigger: selectingTaps)
        .accessibilityElement(children: .contain)
        .accessibilityAddTraits(.isTabBar)
        .onChange(of: titles, initial: true) { previousTitles, newTitles in
            let repaired = TopTabsLogic.repairedIndex(selection, previousTitles: previousTitles, titles: newTitles)
            if repaired != selection {
                selection = repaired
            }
        }
    }

    /// A tap on a tab: selects it and, when that changed the selection, plays the haptic.
    private func select(_ index: Int) {
        guard index != selection else { return }
        selection = index
        // A binding that keeps its value (a constant, say) changed nothing: stay silent.
        if selection == index { selectingTaps += 1 }
    }
}

@available(iOS 17.0, *)
extension TopTabs where Label == Text {
    /// Creates underline tabs with the standard labels: a semibold title in a Dynamic
    /// Type text style, tinted when selected and secondary otherwise.
    ///
    /// - Parameters:
    ///   - titles: The tab titles, in order.
    ///   - selection: The index of the selected tab.
    ///   - tint: The underline and selected title color. Defaults to the accent color.
    ///   - indicatorInset: How far the underline is pulled in from each side of its tab.
    public init(_ titles: [String], selection: Binding<Int>, tint: Color = .accentColor, indicatorInset: CGFloat = 0) {
        self.init(titles, selection: selection, tint: tint, indicatorInset: indicatorInset) { title, isSelected in
            Text(title)
                .font(.subheadline.weight(.semibold))
                .foregroundStyle(isSelected ? AnyShapeStyle(tint) : AnyShapeStyle(.secondary))
        }
    }
}

@available(iOS 17.0, *)
extension TopTabsLogic.Direction {
    /// The logic's direction for SwiftUI's layout direction.
    fileprivate init(_ direction: LayoutDirection) {
        self = direction == .rightToLeft ? .rightToLeft : .leftToRight
    }
}
#endif

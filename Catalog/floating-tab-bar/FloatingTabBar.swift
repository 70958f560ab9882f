#if os(iOS)
import SwiftUI

/// A custom bottom tab bar that floats over your content in a capsule, with an optional
/// raised centre action (compose, scan, add) that is a button, not a tab.
///
/// ```swift
/// enum Screen: Hashable { case home, search, inbox, profile }
///
/// @State private var screen = Screen.home
/// @State private var isComposing = false
///
/// FloatingTabBar(
///     selection: $screen,
///     tabs: [
///         FloatingTab(value: .home, title: "Home", systemImage: "house"),
///         FloatingTab(value: .search, title: "Search", systemImage: "magnifyingglass"),
///         FloatingTab(value: .inbox, title: "Inbox", systemImage: "tray", badge: .count(unread)),
///         FloatingTab(value: .profile, title: "Profile", systemImage: "person"),
///     ],
///     centerAction: FloatingTabAction(title: "Compose", systemImage: "plus") { isComposing = true }
/// ) { screen in
///     ScreenView(screen)
/// }
/// ```
///
/// - **Selection.** By value: set the binding to switch tabs in code. A value that is not
///   one of the tabs selects the first; when the selected tab is removed, the one that
///   takes its place is selected. Every tab needs its own value (debug builds stop on a
///   repeat).
/// - **Content.** A tab's content is built the first time it is shown and then kept, so
///   its scroll position and navigation survive switching tabs. The bar is a
///   `safeAreaInset`, so scroll views and lists inset their content and the last row
///   scrolls clear of the bar; no fixed padding is needed.
/// - **Keyboard.** The bar hides while the software keyboard is up, and the content gets
///   the room back; pass `hidesWithKeyboard: false` to keep it above the keyboard.
/// - **Badges.** `.count(n)` shows a number formatted for the user's locale, "99+" past
///   99, and nothing at zero; `.text("New")` shows a short text.
/// - **Accessibility.** The tabs are a tab bar to VoiceOver: each is a button read with
///   its title, its badge, "selected" on the selected one and its position, as in
///   "2 of 4". The centre action sits outside the tab bar, so it never counts as a tab,
///   and is read by its own title. The bar's text stops growing at the largest standard
///   text size, like the system tab bar; at accessibility sizes, touching and holding a
///   tab shows it in the large content viewer. With Reduce Motion on, the selection pill
///   jumps instead of sliding and the bar fades instead of sliding away.
/// - **Right to left.** The first tab is on the right, and the pill follows.
@available(iOS 17.0, *)
public struct FloatingTabBar<Value: Hashable, Content: View>: View {
    @Binding private var selection: Value
    private let tabs: [FloatingTab<Value>]
    private let centerAction: FloatingTabAction?
    private let hidesWithKeyboard: Bool
    private let tint: Color
    private let content: (Value) -> Content

    /// The tabs shown so far; their content stays built.
    @State private var visited: [Value] = []
    /// How far the software keyboard reaches into the bottom safe area.
    @State private var keyboardInset: CGFloat = 0
    /// Counts the taps that changed the selection; the haptic follows it and nothing else.
    @State private var selectingTaps = 0
    @Namespace private var pill
    @Environment(\.accessibilityReduceMotion) private var reduceMotion

    /// Creates a floating tab bar over the content of the selected tab.
    ///
    /// - Parameters:
    ///   - selection: The value of the selected tab.
    ///   - tabs: The tabs, in order; each value must be unique.
    ///   - centerAction: A raised button in the middle of the bar, or `nil` for none.
    ///   - hidesWithKeyboard: Whether the bar hides while the software keyboard is up.
    ///   - tint: The color of the selected tab and the centre action. Defaults to the
    ///     accent color.
    ///   - content: The content for a tab's value.
    public init(
        selection: Binding<Value>,
        tabs: [FloatingTab<Value>],
        centerAction: FloatingTabAction? = nil,
        hidesWithKeyboard: Bool = true,
        tint: Color = .accentColor,
        @ViewBuilder content: @escaping (Value) -> Content
    ) {
        self._selection = selection
        self.tabs = tabs
        self.centerAction = centerAction
        self.hidesWithKeyboard = hidesWithKeyboard
        self.tint = tint
        self.content = content
        assert(
            FloatingTabBarLogic.duplicates(tabs.map(\.value)).isEmpty,
            "FloatingTabBar: each tab needs its own value; repeated: \(FloatingTabBarLogic.duplicates(tabs.map(\.value)))")
    }

    public var body: some View {
        let values = tabs.map(\.value)
        let built = FloatingTabBarLogic.builtTabs(visited: visited, selection: selection, values: values)
        let showsBar = FloatingTabBarLogic.showsBar(
            keyboardShown: FloatingTabBarLogic.isKeyboardShown(keyboardInset: keyboardInset),
            hidesWithKeyboard: hidesWithKeyboard)
        ZStack {
            ForEach(built, id: \.self) { value in
                let isSelected = value == selection
                content(value)
                    .opacity(isSelected ? 1 : 0)
                    .allowsHitTesting(isSelected)
                    .accessibilityHidden(!isSelected)
            }
        }
        .frame(maxWidth: .infinity, maxHeight: .infinity)
        .safeAreaInset(edge: .bottom, spacing: 0) {
            if showsBar {
                bar
                    .transition(reduceMotion ? .opacity : .move(edge: .bottom).combined(with: .opacity))
            }
        }
        .background {
            // Reaches under the keyboard, so its bottom safe area inset is the keyboard.
            Color.clear
                .ignoresSafeArea(.keyboard, edges: .bottom)
                .onGeometryChange(for: CGFloat.self) { proxy in
                    proxy.safeAreaInsets.bottom
                } action: { inset in
                    keyboardInset = inset
                }
                .accessibilityHidden(true)
        }
        .animation(reduceMotion ? nil : .snappy(duration: 0.25), value: showsBar)
        .onChange(of: values, initial: true) { previousValues, newValues in
            let resolved = FloatingTabBarLogic.resolvedSelection(selection, previousValues: previousValues, values: newValues)
            if let resolved, resolved != selection {
                selection = resolved
            }
        }
        .onChange(of: built, initial: true) { _, newBuilt in
            visited = newBuilt
        }
    }

    private var bar: some View {
        let sides = FloatingTabBarLogic.sides(count: tabs.count, hasCenterAction: centerAction != nil)
        return HStack(spacing: 0) {
            ForEach(tabs[sides.leading]) { tab in
                tabButton(tab)
            }
            if centerAction != nil {
                Color.clear
                    .frame(width: Self.actionDiameter)
                    .accessibilityHidden(true)
            }
            ForEach(tabs[sides.trailing]) { tab in
                tabButton(tab)
            }
        }
        .accessibilityElement(children: .contain)
        .accessibilityAddTraits(.isTabBar)
        .padding(6)
        .background {
            Capsule()
                .fill(.regularMaterial)
                .shadow(color: .black.opacity(0.15), radius: 12, x: 0, y: 4)
        }
        .overlay {
            if let centerAction {
                actionButton(centerAction)
            }
        }
        .dynamicTypeSize(...DynamicTypeSize.xxxLarge)
        .padding(.horizontal, 16)
        .padding(.bottom, 8)
        .animation(reduceMotion ? nil : .snappy(duration: 0.3), value: selection)
        .sensoryFeedback(.selection, trigger: selectingTaps)
    }

    private func tabButton(_ tab: FloatingTab<Value>) -> some View {
        let isSelected = tab.value == selection
        return Button {
            select(tab.value)
        } label: {
            VStack(spacing: 2) {
                Image(systemName: tab.systemImage)
                    .font(.body.weight(.semibold))
                Text(tab.title)
                    .font(.caption2.weight(.medium))
                    .lineLimit(1)
            }
            .frame(maxWidth: .infinity, minHeight: 48)
            .background {
                if isSelected {
                    Capsule()
                        .fill(tint.opacity(0.18))
                        .matchedGeometryEffect(id: "pill", in: pill)
                }
            }
            .overlay(alignment: .top) {
                if let badge = badgeText(tab.badge) {
                    badge
                        .font(.caption2.weight(.bold))
                        .foregroundStyle(.white)
                        .padding(.horizontal, 5)
                        .background { Capsule().fill(.red) }
                        .offset(x: 12, y: 2)
                        .accessibilityHidden(true)
                }
            }
            .contentShape(Rectangle())
        }
        .buttonStyle(.plain)
        .foregroundStyle(isSelected ? AnyShapeStyle(tint) : AnyShapeStyle(.secondary))
        .accessibilityLabel(Text(tab.title))
        .accessibilityValue(badgeText(tab.badge) ?? Text(verbatim: ""))
        .accessibilityAddTraits(isSelected ? .isSelected : [])
        .accessibilityShowsLargeContentViewer {
            Label(tab.title, systemImage: tab.systemImage)
        }
    }

    private func actionButton(_ action: FloatingTabAction) -> some View {
        Button(action: action.action) {
            Image(systemName: action.systemImage)
                .font(.title2.weight(.bold))
                .foregroundStyle(.white)
                .frame(width: Self.actionDiameter, height: Self.actionDiameter)
                .background {
                    Circle()
                        .fill(tint)
                        .shadow(color: .black.opacity(0.2), radius: 8, x: 0, y: 4)
                }
        }
        .buttonStyle(.plain)
        .offset(y: -14)
        .accessibilityLabel(Text(action.title))
        .accessibilityShowsLargeContentViewer {
            Label(action.title, systemImage: action.systemImage)
        }
    }

    private func badgeText(_ badge: FloatingTabBadge?) -> Text? {
        switch badge {
        case nil:
            return nil
        case .text(let text)?:
            return Text(text)
        case .count(let count)?:
            switch FloatingTabBarLogic.countBadge(count) {
            case nil:
                return nil
            case .number(let number)?:
                return Text(number, format: .number)
            case .overLimit(let limit)?:
                return Text("\(limit, format: .number)+", comment: "A tab badge for more items than it counts, as in 99+")
            }
        }
    }

    /// A tap on a tab: selects it and, when that changed the selection, plays the haptic.
    private func select(_ value: Value) {
        guard value != selection else { return }
        selection = value
        // A binding that keeps its value (a constant, say) changed nothing: stay silent.
        if selection == value { selectingTaps += 1 }
    }

    private static var actionDiameter: CGFloat { 56 }
}

/// A badge on a floating tab: a count, or a short text such as "New".
///
/// Not `Sendable`: SwiftUI's `LocalizedStringKey` is not, so a badge is built and read on
/// the main actor, with the view that shows it.
@available(iOS 17.0, *)
public enum FloatingTabBadge: Equatable {
    /// A number, formatted for the user's locale; zero or less shows no badge, over 99 "99+".
    case count(Int)
    /// A short text, looked up in your strings catalog.
    case text(LocalizedStringKey)
}

/// One tab of a ``FloatingTabBar``.
@available(iOS 17.0, *)
public struct FloatingTab<Value: Hashable>: Identifiable {
    /// The selection value that shows this tab; also its identity.
    public var value: Value
    /// The title, looked up in your strings catalog.
    public var title: LocalizedStringKey
    /// An SF Symbol name.
    public var systemImage: String
    /// The badge, if any.
    public var badge: FloatingTabBadge?

    public var id: Value { value }

    public init(value: Value, title: LocalizedStringKey, systemImage: String, badge: FloatingTabBadge? = nil) {
        self.value = value
        self.title = title
        self.systemImage = systemImage
        self.badge = badge
    }
}

/// The raised button in the middle of a ``FloatingTabBar``: an action such as compose,
/// scan or add, never a tab, so it does not change the selection.
@available(iOS 17.0, *)
public struct FloatingTabAction {
    /// What VoiceOver and the large content viewer read, looked up in your strings catalog.
    public var title: LocalizedStringKey
    /// An SF Symbol name.
    public var systemImage: String
    /// What a tap does.
    public var action: @MainActor () -> Void

    public init(title: LocalizedStringKey, systemImage: String, action: @escaping @MainActor () -> Void) {
        self.title = title
        self.systemImage = systemImage
        self.action = action
    }
}
#endif

#if os(iOS)
import SwiftUI

/// A collapsing header over a scroll view whose tab row pins to the top when the header
/// has scrolled away, the layout of profile and store pages. Each tab keeps its own scroll
/// position.
///
/// ```swift
/// enum Section: Hashable, CaseIterable { case posts, replies, media }
///
/// @State private var section = Section.posts
///
/// StickyHeaderTabs(Section.allCases, selection: $section) { section in
///     Text(section.title)
/// } header: { progress in
///     ProfileHeader()
///         .blur(radius: 8 * progress)      // your own effect, if any
/// } content: { section in
///     LazyVStack { ForEach(posts(in: section)) { PostRow($0) } }
/// }
/// .onRefresh { await model.reload() }
/// ```
///
/// - **Collapse progress.** The header closure gets how far the header has scrolled away,
///   from 0 (all showing) to 1 (gone, the row pinned). The block already fades the header
///   as it goes, shrinks it slightly, and stretches it while the user pulls down.
/// - **Switching tabs.** Each tab's scroll offset is remembered. While any of the header
///   shows, switching keeps the header where it is and shows the new tab from its top;
///   while the row is pinned, the new tab returns to where it was left and the row stays
///   pinned. Short tabs get enough height to pin, so the header never jumps.
/// - **Refresh.** ``onRefresh(_:)`` adds pull to refresh to the outer scroll view.
/// - **Selection.** A selection that is not among the tabs becomes the first tab; when the
///   selected tab is removed, the one that takes its place is selected.
/// - **Accessibility.** The tab row is a tab bar to VoiceOver: each tab is a button read
///   with its title, "selected" on the selected one, and its position, as in "2 of 3".
///   Titles use a Dynamic Type text style and the row grows with them. With Reduce Motion
///   on, the header only fades (no scaling or stretching) and the underline jumps.
/// - **Right to left.** The first tab is on the right, and the underline follows.
///
/// The content of the selected tab is the scroll view's content: give it a lazy stack,
/// not a `List` or another vertical `ScrollView`.
@available(iOS 18.0, *)
public struct StickyHeaderTabs<Tab: Hashable, Header: View, Content: View>: View {
    private let tabs: [Tab]
    @Binding private var selection: Tab
    private let title: (Tab) -> Text
    private let tint: Color
    private let header: (Double) -> Header
    private let content: (Tab) -> Content
    private var refresh: (@Sendable () async -> Void)?

    @State private var position = ScrollPosition(edge: .top)
    /// The scroll offset from the top of the content, as last measured.
    @State private var offset: CGFloat = 0
    @State private var viewportHeight: CGFloat = 0
    @State private var headerHeight: CGFloat = 0
    @State private var tabRowHeight: CGFloat = 0
    /// Where each tab was left, by tab.
    @State private var savedOffsets: [Tab: Double] = [:]
    /// Counts the taps that changed the selection; the haptic follows it and nothing else.
    @State private var selectingTaps = 0
    @Namespace private var underline
    @Environment(\.accessibilityReduceMotion) private var reduceMotion

    /// Creates a sticky header over tabbed content.
    ///
    /// - Parameters:
    ///   - tabs: The tabs, in order; each must be unique.
    ///   - selection: The selected tab.
    ///   - tint: The underline color. Defaults to the accent color.
    ///   - title: The title of a tab in the row.
    ///   - header: The header, given its collapse progress from 0 to 1.
    ///   - content: The content of a tab, scrolled by the outer scroll view.
    public init(
        _ tabs: [Tab],
        selection: Binding<Tab>,
        tint: Color = .accentColor,
        title: @escaping (Tab) -> Text,
        @ViewBuilder header: @escaping (_ progress: Double) -> Header,
        @ViewBuilder content: @escaping (Tab) -> Content
    ) {
        self.tabs = tabs
        self._selection = selection
        self.tint = tint
        self.title = title
        self.header = header
        self.content = content
    }

    /// Adds pull to refresh to the outer scroll view.
    public func onRefresh(_ action: @escaping @Sendable () async -> Void) -> Self {
        var copy = self
        copy.refresh = action
        return copy
    }

    public var body: some View {
        let progress = StickyHeaderTabsLogic.collapseProgress(offset: offset, headerHeight: headerHeight)
        let effect = StickyHeaderTabsLogic.headerEffect(
            progress: progress, offset: offset, headerHeight: headerHeight, reduceMotion: reduceMotion)
        refreshable(
            ScrollView {
                LazyVStack(spacing: 0, pinnedViews: [.sectionHeaders]) {
                    header(progress)
                        .opacity(effect.opacity)
                        .scaleEffect(effect.scale, anchor: .bottom)
                        .onGeometryChange(for: CGFloat.self) { proxy in
                            proxy.size.height
                        } action: { height in
                            headerHeight = height
                        }
                    Section {
                        content(selection)
                            .id(selection)
                            .frame(
                                maxWidth: .infinity,
                                minHeight: StickyHeaderTabsLogic.minimumContentHeight(
                                    viewportHeight: viewportHeight, tabRowHeight: tabRowHeight),
                                alignment: .top)
                    } header: {
                        tabRow
                            .onGeometryChange(for: CGFloat.self) { proxy in
                                proxy.size.height
                            } action: { height in
                                tabRowHeight = height
                            }
                    }
                }
            }
            .scrollPosition($position)
            .onScrollGeometryChange(for: CGFloat.self) { geometry in
                geometry.contentOffset.y + geometry.contentInsets.top
            } action: { _, newOffset in
                offset = newOffset
            }
            .onScrollGeometryChange(for: CGFloat.self) { geometry in
                geometry.containerSize.height - geometry.contentInsets.top - geometry.contentInsets.bottom
            } action: { _, newHeight in
                viewportHeight = newHeight
            }
        )
        .onChange(of: selection) { previousTab, newTab in
            switchTab(from: previousTab, to: newTab)
        }
        .onChange(of: tabs, initial: true) { previousTabs, newTabs in
            savedOffsets = savedOffsets.filter { newTabs.contains($0.key) }
            let resolved = StickyHeaderTabsLogic.resolvedSelection(selection, previousTabs: previousTabs, tabs: newTabs)
            if let resolved, resolved != selection {
                selection = resolved
            }
        }
        .sensoryFeedback(.selection, trigger: selectingTaps)
    }

    /// The row of tabs that pins to the top.
    private var tabRow: some View {
        HStack(spacing: 0) {
            ForEach(tabs, id: \.self) { tab in
                let isSelected = tab == selection
                Button {
                    select(tab)
                } label: {
                    VStack(spacing: 6) {
                        title(tab)
                            .font(.subheadline.weight(.semibold))
                            .foregroundStyle(isSelected ? HierarchicalShapeStyle.primary : HierarchicalShapeStyle.secondary)
                            .lineLimit(1)
                            .minimumScaleFactor(0.8)
                        ZStack {
                            if isSelected {
                                Capsule()
                                    .fill(tint)
                                    .matchedGeometryEffect(id: "underline", in: underline)
                            }
                        }
                        .frame(height: 3)
                    }
                    .padding(.top, 10)
                    .frame(maxWidth: .infinity, minHeight: 44)
                    .contentShape(Rectangle())
                }
                .buttonStyle(.plain)
                .accessibilityAddTraits(isSelected ? .isSelected : [])
            }
        }
        .padding(.horizontal)
        .background(.bar)
        .overlay(alignment: .bottom) {
            Divider()
        }
        .animation(reduceMotion ? nil : .snappy(duration: 0.25), value: selection)
        .accessibilityElement(children: .contain)
        .accessibilityAddTraits(.isTabBar)
    }

    /// Pull to refresh on the outer scroll view, when the caller asked for it.
    @ViewBuilder
    private func refreshable(_ scrollView: some View) -> some View {
        if let refresh {
            scrollView.refreshable { await refresh() }
        } else {
            scrollView
        }
    }

    /// A tap on a tab: selects it and, when that changed the selection, plays the haptic.
    private func select(_ tab: Tab) {
        guard tab != selection else { return }
        selection = tab
        // A binding that keeps its value (a constant, say) changed nothing: stay silent.
        if selection == tab { selectingTaps += 1 }
    }

    /// Remembers where the old tab was left and puts the new one where it belongs, with
    /// no animation, so the header stays still.
    private func switchTab(from previousTab: Tab, to newTab: Tab) {
        let target = StickyHeaderTabsLogic.offsetAfterSwitch(
            currentOffset: offset, savedOffset: savedOffsets[newTab], pinThreshold: headerHeight)
        savedOffsets = StickyHeaderTabsLogic.savedOffsets(savedOffsets, leaving: previousTab, at: offset, tabs: tabs)
        position.scrollTo(y: target)
    }
}
#endif

#if os(iOS)
import SwiftUI

/// A tab bar over swipeable pages: the pager apps expect, with selection by item id.
///
/// ```swift
/// struct Topic: Identifiable, Equatable {
///     let id: UUID
///     var name: String
/// }
///
/// @State private var topics: [Topic] = []          // may arrive later
/// @State private var selection: Topic.ID?          // nil until the topics arrive
///
/// Pager(topics, selection: $selection) { topic in
///     TopicFeed(topic: topic)
/// } label: { topic, state in
///     Text(topic.name)
///         .font(.subheadline.weight(.semibold))
///         .foregroundStyle(Color.primary.opacity(0.5 + 0.5 * state.selectionProgress))
/// }
/// .tabBarLayout(.scrollable)
/// .tabIndicator(color: .orange)
/// .onTabChange { topic, reason in print("Showing \(topic.name) after a \(reason)") }
/// ```
///
/// or, for plain text tabs, `Pager(topics, selection: $selection, title: \.name) { TopicFeed(topic: $0) }`.
///
/// **Selection.** The selection is the selected item's id. It stays `nil` while there are
/// no items; when they arrive the first one is selected, unless you preset an id that is
/// among them. The selection follows its item through reorders. When the selected item
/// is removed, the item that takes its place is selected.
///
/// **Pages.** Each page is kept by its item's id, so its `@State` (a scroll position, a
/// text field) survives swipes and reorders. Pages are built up front; start expensive
/// work in `.task` or `.onAppear` on the page. The pages respect the safe area unless you
/// call ``pagesIgnoreSafeArea(_:)``.
///
/// **Labels.** The `label` closure gets a ``PagerTabState``: `isSelected`, the tab's
/// `index` and the `count`, and `selectionProgress`, from 0 to 1, which follows the finger
/// while the user swipes so your label can blend its style in step with the pages.
///
/// **Accessibility.** The tab row is a tab bar to VoiceOver, which reads each tab with its
/// label, "selected" on the selected one, and its position, as in "2 of 5". Only the
/// selected page is exposed to VoiceOver. With Reduce Motion on, tapping a tab switches
/// pages and moves the indicator without animation; swipes still follow the finger.
///
/// **Right to left.** In Arabic or Hebrew the first tab and page are on the right, swipes
/// run the other way, and the indicator follows.
@available(iOS 17.0, *)
public struct Pager<Item: Identifiable & Equatable, Label: View, Content: View>: View {
    private let items: [Item]
    @Binding private var selection: Item.ID?
    private let content: (Item) -> Content
    private let label: (Item, PagerTabState) -> Label
    private var configuration = Configuration()

    /// The page the scroll view shows, bound with `scrollPosition(id:)`: the pager sets it
    /// to move the pages, and the scroll view sets it as the user swipes. Being state, a
    /// page asked for before the pages are laid out is shown once they are.
    @State private var scrolledID: Item.ID?
    /// The page the pager asked for that the pages have not come to rest on yet.
    @State private var requestedID: Item.ID?
    /// The tab the scrollable tab bar keeps in its middle.
    @State private var centeredTabID: Item.ID?
    /// Where the pages sit, in fractional pages in reading order, as last measured.
    @State private var measuredPosition: Double?
    /// The position the tab bar draws: the measured one while swiping, animated toward
    /// the target when a tab is tapped.
    @State private var shownPosition: Double = 0
    @State private var pageWidth: CGFloat = 0
    @State private var tabFrames: [Item.ID: PagerLogic.Frame] = [:]
    /// The selection change the pager made and why; `nil` means the caller changed it.
    @State private var pendingChange: PagerLogic.PendingChange<Item.ID>?

    @Environment(\.accessibilityReduceMotion) private var reduceMotion
    @Environment(\.isScrollEnabled) private var isScrollEnabled
    @Environment(\.layoutDirection) private var layoutDirection
    @Environment(\.displayScale) private var displayScale

    /// Creates a pager.
    ///
    /// - Parameters:
    ///   - items: The items, one tab and one page each. Their ids must be unique.
    ///   - selection: The selected item's id; `nil` until there are items.
    ///   - content: The page for an item.
    ///   - label: The tab label for an item and its ``PagerTabState``.
    public init(
        _ items: [Item],
        selection: Binding<Item.ID?>,
        @ViewBuilder content: @escaping (Item) -> Content,
        @ViewBuilder label: @escaping (_ item: Item, _ state: PagerTabState) -> Label
    ) {
        self.items = items
        self._selection = selection
        self.content = content
        self.label = label
        // Pages that are there from the start open on the selection, with no scroll after.
        let shown = items.contains { $0.id == selection.wrappedValue } ? selection.wrappedValue : nil
        self._scrolledID = State(initialValue: shown)
        self._centeredTabID = State(initialValue: shown)
    }

    public var body: some View {
        let ids = items.map(\.id)
        let selectedIndex = PagerLogic.index(of: selection, in: ids)
        VStack(spacing: 0) {
            tabBar(ids: ids, selectedIndex: selectedIndex)
            separator
            pages
        }
        .onChange(of: ids, initial: true) { previousIDs, newIDs in
            tabFrames = tabFrames.filter { newIDs.contains($0.key) }
            let resolved = PagerLogic.resolvedSelection(selection, previousIDs: previousIDs, ids: newIDs)
            if resolved != selection {
                change(to: resolved, reason: .itemsChanged)
            }
            // The items arrived, moved or went: show the selected page and tab where they
            // are now. Both are state, so they apply once the new pages are laid out; with
            // no items they are cleared, so that the items' arrival is a change to apply.
            guard !newIDs.isEmpty else {
                scrolledID = nil
                requestedID = nil
                centeredTabID = nil
                return
            }
            show(selection, animated: false)
            centeredTabID = selection
        }
        .onChange(of: selection) { _, newSelection in
            let reason = PagerLogic.changeReason(for: newSelection, pending: pendingChange)
            pendingChange = nil
            if reason != .swipe {
                show(newSelection, animated: reason != .itemsChanged)
            }
            withAnimation(reason != .itemsChanged && !reduceMotion ? .smooth(duration: 0.3) : nil) {
                centeredTabID = newSelection
            }
            if let newSelection, let item = items.first(where: { $0.id == newSelection }) {
                configuration.onTabChange?(item, reason)
            }
        }
        .onChange(of: scrolledID) {
            reviewScroll()
        }
        .onChange(of: measuredPosition) {
            reviewScroll()
        }
    }

    // MARK: Tab bar

    @ViewBuilder
    private func tabBar(ids: [Item.ID], selectedIndex: Int?) -> some View {
        switch configuration.layout {
        case .fixed:
            tabRow(ids: ids, selectedIndex: selectedIndex)
        case .scrollable:
            ScrollView(.horizontal) {
                tabRow(ids: ids, selectedIndex: selectedIndex)
            }
            .scrollIndicators(.hidden)
            .scrollBounceBehavior(.basedOnSize)
            .scrollPosition(id: $centeredTabID, anchor: .center)
        }
    }

    private func tabRow(ids: [Item.ID], selectedIndex: Int?) -> some View {
        HStack(spacing: configuration.spacing) {
            ForEach(Array(items.enumerated()), id: \.element.id) { index, item in
                tabButton(
                    item: item,
                    state: PagerLogic.tabState(
                        index: index, count: items.count, selectedIndex: selectedIndex, position: shownPosition)
                )
            }
        }
        .scrollTargetLayout()
        .padding(.horizontal, configuration.sidePadding)
        .coordinateSpace(.named(pagerTabRowSpace))
        .overlay {
            indicator(ids: ids)
                // Tab frames are measured from the left edge in both directions, so this
                // layer is laid out left to right: its leading edge is the left one.
                .frame(maxWidth: .infinity, maxHeight: .infinity, alignment: .bottomLeading)
                .environment(\.layoutDirection, .leftToRight)
        }
        .accessibilityElement(children: .contain)
        .accessibilityAddTraits(.isTabBar)
    }

    private func tabButton(item: Item, state: PagerTabState) -> some View {
        Button {
            guard item.id != selection else { return }
            change(to: item.id, reason: .tap)
        } label: {
            label(item, state)
                .padding(.vertical, 10)
                .padding(.horizontal, configuration.layout == .scrollable ? 4 : 0)
                .frame(maxWidth: configuration.layout == .fixed ? .infinity : nil, minHeight: 44)
                .contentShape(Rectangle())
        }
        .buttonStyle(.plain)
        .onGeometryChange(for: CGRect.self) { proxy in
            proxy.frame(in: .named(pagerTabRowSpace))
        } action: { frame in
            tabFrames[item.id] = PagerLogic.Frame(x: frame.minX, width: frame.width)
        }
        .accessibilityAddTraits(state.isSelected ? .isSelected : [])
    }

    @ViewBuilder
    private func indicator(ids: [Item.ID]) -> some View {
        let frames = ids.compactMap { tabFrames[$0] }
        let style = configuration.indicator
        if frames.count == ids.count,
           let frame = PagerLogic.indicatorFrame(
               position: shownPosition, tabFrames: frames, inset: style.horizontalInset) {
            RoundedRectangle(cornerRadius: style.cornerRadius, style: .continuous)
                .fill(style.color)
                .frame(width: frame.width, height: style.height)
                .offset(x: frame.x)
                .accessibilityHidden(true)
        }
    }

    @ViewBuilder
    private var separator: some View {
        if let separator = configuration.separator {
            Rectangle()
                .fill(separator.color.map { AnyShapeStyle($0) } ?? AnyShapeStyle(.separator))
                .frame(height: PagerLogic.separatorThickness(separator.thickness.map { Double($0) }, displayScale: displayScale))
        }
    }

    // MARK: Pages

    private var pages: some View {
        ScrollView(.horizontal) {
            HStack(spacing: 0) {
                ForEach(items) { item in
                    content(item)
                        .environment(\.isScrollEnabled, isScrollEnabled)
                        .frame(maxWidth: .infinity, maxHeight: .infinity)
                        .containerRelativeFrame(.horizontal)
                        .accessibilityHidden(item.id != selection)
                }
            }
            .scrollTargetLayout()
            .onGeometryChange(for: CGFloat.self) { proxy in
                -proxy.frame(in: .scrollView).minX
            } action: { offset in
                pagesMoved(to: offset)
            }
        }
        .scrollPosition(id: $scrolledID)
        .scrollTargetBehavior(.paging)
        .scrollIndicators(.hidden)
        .scrollDisabled(!configuration.isSwipeEnabled)
        .onGeometryChange(for: CGFloat.self) { proxy in
            proxy.size.width
        } action: { width in
            pageWidth = width
            // A new width (first layout, rotation, split view) moves page boundaries: the
            // selected page is asked for again, so no page it passes counts as a swipe.
            show(selection, animated: false)
        }
        .ignoresSafeArea(.container, edges: configuration.ignoredSafeAreaEdges)
    }

    private func pagesMoved(to offset: CGFloat) {
        let direction: PagerLogic.Direction = layoutDirection == .rightToLeft ? .rightToLeft : .leftToRight
        guard let position = PagerLogic.position(offset: offset, pageWidth: pageWidth, count: items.count, direction: direction)
        else { return }
        measuredPosition = position
        shownPosition = position
    }

    /// Acts on what the scroll view and the measured position say, see
    /// ``PagerLogic/scrollDecision(scrolledIndex:restingIndex:requestedIndex:selectedIndex:)``.
    private func reviewScroll() {
        let ids = items.map(\.id)
        let decision = PagerLogic.scrollDecision(
            scrolledIndex: PagerLogic.index(of: scrolledID, in: ids),
            restingIndex: measuredPosition.flatMap { PagerLogic.settledIndex(position: $0, count: ids.count) },
            requestedIndex: PagerLogic.index(of: requestedID, in: ids),
            selectedIndex: PagerLogic.index(of: selection, in: ids)
        )
        switch decision {
        case .wait:
            break
        case .arrived:
            requestedID = nil
        case .requestAgain(let index):
            withAnimation(reduceMotion ? nil : .smooth(duration: 0.3)) {
                scrolledID = PagerLogic.id(at: index, in: ids)
            }
        case .swipe(let index):
            guard let id = PagerLogic.id(at: index, in: ids) else { return }
            if !change(to: id, reason: .swipe) {
                // The binding kept its value: bring back the page it still selects.
                show(selection, animated: true)
            }
        }
    }

    /// Sets the selection and remembers why, for the change handler. Returns false when
    /// the caller's binding kept its old value (a constant, or one that refuses the id);
    /// then nothing stays pending to be taken for the next change.
    @discardableResult
    private func change(to id: Item.ID?, reason: PagerTabChangeReason) -> Bool {
        pendingChange = PagerLogic.PendingChange(id: id, reason: reason)
        selection = id
        guard selection == id else {
            pendingChange = nil
            return false
        }
        return true
    }

    /// Asks the scroll view for the page of `id` and moves the indicator to its tab. The
    /// page stays requested until the pages rest on it.
    private func show(_ id: Item.ID?, animated: Bool) {
        guard let index = PagerLogic.index(of: id, in: items.map(\.id)), let id else { return }
        let motion = animated && !reduceMotion
        let indicatorDuration = configuration.indicator.animationDuration
        withAnimation(motion && indicatorDuration > 0 ? .easeInOut(duration: indicatorDuration) : nil) {
            shownPosition = Double(index)
        }
        requestedID = id
        if scrolledID != id {
            var transaction = Transaction(animation: motion && configuration.isSwipeEnabled ? .smooth(duration: 0.3) : nil)
            transaction.disablesAnimations = !(motion && configuration.isSwipeEnabled)
            withTransaction(transaction) {
                scrolledID = id
            }
        }
        // Pages already at rest there report no move, so look now.
        reviewScroll()
    }
}

// MARK: - Options

@available(iOS 17.0, *)
extension Pager {
    /// Lays the tabs out with equal widths (`.fixed`, the default) or at their natural
    /// widths in a row that scrolls (`.scrollable`).
    ///
    /// - Parameters:
    ///   - layout: Fixed or scrollable.
    ///   - spacing: The space between tabs. Defaults to 0 for fixed and 20 for scrollable.
    ///   - sidePadding: The space before the first tab and after the last. Defaults to 16.
    public func tabBarLayout(_ layout: PagerBarLayout, spacing: CGFloat? = nil, sidePadding: CGFloat = 16) -> Self {
        var copy = self
        copy.configuration.layout = layout
        copy.configuration.spacing = spacing ?? (layout == .fixed ? 0 : 20)
        copy.configuration.sidePadding = sidePadding
        return copy
    }

    /// Styles the indicator under the selected tab. It tracks the swipe in real time; the
    /// duration applies when a tab is tapped.
    ///
    /// - Parameters:
    ///   - height: Its thickness. Defaults to 3.
    ///   - color: Its color. Defaults to the accent color.
    ///   - cornerRadius: Its corner radius. Defaults to 1.5.
    ///   - horizontalInset: How far it is pulled in from each side of its tab. Defaults to 0.
    ///   - animationDuration: How long it takes to move after a tap. Defaults to 0.25 s.
    public func tabIndicator(
        height: CGFloat = 3,
        color: Color = .accentColor,
        cornerRadius: CGFloat = 1.5,
        horizontalInset: CGFloat = 0,
        animationDuration: Double = 0.25
    ) -> Self {
        var copy = self
        copy.configuration.indicator = IndicatorStyle(
            height: height, color: color, cornerRadius: cornerRadius,
            horizontalInset: horizontalInset, animationDuration: animationDuration)
        return copy
    }

    /// Shows a line between the tab bar and the pages: in the system separator color
    /// unless you give one, and one pixel thick, like the system divider, unless you give
    /// a thickness.
    public func tabBarSeparator(_ isVisible: Bool = true, color: Color? = nil, thickness: CGFloat? = nil) -> Self {
        var copy = self
        copy.configuration.separator = isVisible ? SeparatorStyle(color: color, thickness: thickness) : nil
        return copy
    }

    /// Turns swiping between pages off or on; it can change at run time. With swiping off,
    /// tapping a tab switches pages instantly.
    public func swipeDisabled(_ isDisabled: Bool = true) -> Self {
        var copy = self
        copy.configuration.isSwipeEnabled = !isDisabled
        return copy
    }

    /// Lets the pages extend into the safe area on the given edges, for full-bleed content.
    /// By default the pages respect the safe area.
    public func pagesIgnoreSafeArea(_ edges: Edge.Set = .bottom) -> Self {
        var copy = self
        copy.configuration.ignoredSafeAreaEdges = edges
        return copy
    }

    /// Calls `action` with the newly selected item and the reason, whenever the selected
    /// tab changes: a tap, a swipe, a change of the binding, or a change of the items.
    public func onTabChange(_ action: @escaping (_ item: Item, _ reason: PagerTabChangeReason) -> Void) -> Self {
        var copy = self
        copy.configuration.onTabChange = action
        return copy
    }
}

@available(iOS 17.0, *)
extension Pager where Label == Text {
    /// Creates a pager with plain text tabs, titled by a property of each item. The title
    /// uses a Dynamic Type text style and brightens with the tab's selection progress.
    ///
    /// - Parameters:
    ///   - items: The items, one tab and one page each.
    ///   - selection: The selected item's id; `nil` until there are items.
    ///   - title: The property that holds each item's tab title.
    ///   - content: The page for an item.
    public init(
        _ items: [Item],
        selection: Binding<Item.ID?>,
        title: KeyPath<Item, String>,
        @ViewBuilder content: @escaping (Item) -> Content
    ) {
        self.init(items, selection: selection, content: content) { item, state in
            Text(item[keyPath: title])
                .font(.subheadline.weight(.semibold))
                .foregroundStyle(Color.primary.opacity(0.55 + 0.45 * state.selectionProgress))
        }
    }
}

// MARK: - Configuration

@available(iOS 17.0, *)
extension Pager {
    fileprivate struct IndicatorStyle {
        var height: CGFloat = 3
        var color: Color = .accentColor
        var cornerRadius: CGFloat = 1.5
        var horizontalInset: CGFloat = 0
        var animationDuration: Double = 0.25
    }

    fileprivate struct SeparatorStyle {
        var color: Color?
        var thickness: CGFloat?
    }

    fileprivate struct Configuration {
        var layout = PagerBarLayout.fixed
        var spacing: CGFloat = 0
        var sidePadding: CGFloat = 16
        var indicator = IndicatorStyle()
        var separator: SeparatorStyle?
        var isSwipeEnabled = true
        var ignoredSafeAreaEdges: Edge.Set = []
        var onTabChange: ((Item, PagerTabChangeReason) -> Void)?
    }
}

/// The coordinate space the tab frames and the indicator share. It is read in the
/// geometry closures, which run off the main actor, so it is `nonisolated` also where
/// the main actor is the default.
nonisolated private let pagerTabRowSpace = "Pager.tabRow"
#endif

/// How the pager lays out its tab bar.
@available(iOS 17.0, *)
public enum PagerBarLayout: Sendable, Equatable {
    /// Every tab gets an equal share of the width. Best for two to four short titles.
    case fixed
    /// Tabs keep their natural width and the bar scrolls, keeping the selected tab in view.
    case scrollable
}

/// Why the selected tab changed, passed to `Pager.onTabChange(_:)`.
@available(iOS 17.0, *)
public enum PagerTabChangeReason: Sendable, Equatable {
    /// The user tapped a tab.
    case tap
    /// The user swiped to another page.
    case swipe
    /// The selection binding was changed from outside.
    case programmatic
    /// The items changed: they arrived, or the selected one was removed.
    case itemsChanged
}

/// What a tab label needs to draw itself, handed to the pager's `label` closure.
@available(iOS 17.0, *)
public struct PagerTabState: Equatable, Sendable {
    /// True for the tab whose page is selected.
    public var isSelected: Bool
    /// How much this tab is selected, from 0 to 1. It follows the finger while the user
    /// swipes, so a label can cross-fade its color or weight in step with the page.
    public var selectionProgress: Double
    /// The zero-based position of the tab.
    public var index: Int
    /// The number of tabs.
    public var count: Int

    public init(isSelected: Bool, selectionProgress: Double, index: Int, count: Int) {
        self.isSelected = isSelected
        self.selectionProgress = selectionProgress
        self.index = index
        self.count = count
    }
}

/// The pure decisions behind ``Pager``, kept apart from SwiftUI so they can be
/// unit-tested anywhere Swift runs.
///
/// Positions are fractional page indexes: 1.5 means halfway between the second and the
/// third page.
@available(iOS 17.0, *)
public enum PagerLogic {
    /// A tab's horizontal extent in the tab bar, in points from its left edge.
    public struct Frame: Equatable, Sendable {
        public var x: Double
        public var width: Double

        public init(x: Double, width: Double) {
            self.x = x
            self.width = width
        }
    }

    /// The direction the pages and tabs run in. The logic stays free of SwiftUI, so the
    /// view maps its `LayoutDirection` to this.
    public enum Direction: Sendable, Equatable {
        /// The first page on the left, as in English.
        case leftToRight
        /// The first page on the right, as in Arabic and Hebrew.
        case rightToLeft
    }

    // MARK: Selection by id

    /// The position of `id` in `ids`, or `nil` when it is absent or `nil`.
    public static func index<ID: Equatable>(of id: ID?, in ids: [ID]) -> Int? {
        guard let id else { return nil }
        return ids.firstIndex(of: id)
    }

    /// The id at `index`, or `nil` when the index is out of range.
    public static func id<ID>(at index: Int, in ids: [ID]) -> ID? {
        ids.indices.contains(index) ? ids[index] : nil
    }

    /// The selection after the items change from `previousIDs` to `ids`.
    ///
    /// - No items yet: the selection is kept as it is, so a preset id waits for the items
    ///   to arrive. When every item is removed, the selection becomes `nil`.
    /// - A selection that is listed stays selected wherever it moved to.
    /// - A removed selection passes to the nearest surviving item, first looking at the
    ///   ones after it (the item that slides into its place), then at the ones before.
    /// - `nil`, or an id that was never listed, selects the first item.
    public static func resolvedSelection<ID: Equatable>(_ selection: ID?, previousIDs: [ID], ids: [ID]) -> ID? {
        guard let first = ids.first else {
            return previousIDs.isEmpty ? selection : nil
        }
        guard let selection else { return first }
        if ids.contains(selection) { return selection }
        guard let oldIndex = previousIDs.firstIndex(of: selection) else { return first }
        let after = previousIDs[previousIDs.index(after: oldIndex)...]
        if let next = after.first(where: ids.contains) { return next }
        if let previous = previousIDs[..<oldIndex].reversed().first(where: ids.contains) { return previous }
        return first
    }

    // MARK: Position and progress

    /// `value` brought inside `range`.
    public static func clamp(_ value: Double, to range: ClosedRange<Double>) -> Double {
        min(max(value, range.lowerBound), range.upperBound)
    }

    /// The fractional page position, in reading order, for a scroll `offset` and a
    /// `pageWidth`, clamped to the pages that exist so that rubber-banding past either
    /// end never reports a page that is not there. `nil` when there are no pages or no
    /// width yet.
    ///
    /// `offset` is how far the content has moved left, measured from the left edge as
    /// SwiftUI reports frames in both directions. Right to left, the first page is the
    /// rightmost, so the content starts moved left by all the pages but one.
    public static func position(offset: Double, pageWidth: Double, count: Int, direction: Direction = .leftToRight) -> Double? {
        guard count > 0, pageWidth > 0, offset.isFinite else { return nil }
        let pagesFromLeft = offset / pageWidth
        let last = Double(count - 1)
        switch direction {
        case .leftToRight:
            return clamp(pagesFromLeft, to: 0...last)
        case .rightToLeft:
            return clamp(last - pagesFromLeft, to: 0...last)
        }
    }

    /// How selected the tab at `index` is when the pages sit at `position`: 1 when its
    /// page fills the pager, falling linearly to 0 one page away.
    public static func selectionProgress(forTabAt index: Int, position: Double) -> Double {
        clamp(1 - abs(position - Double(index)), to: 0...1)
    }

    /// The page the pager has come to rest on, or `nil` while it sits between pages.
    /// `tolerance` is a fraction of a page: a hundredth, under a point on any screen.
    public static func settledIndex(position: Double, count: Int, tolerance: Double = 0.01) -> Int? {
        guard count > 0, position.isFinite else { return nil }
        let nearest = position.rounded()
        guard abs(position - nearest) <= tolerance else { return nil }
        return Int(clamp(nearest, to: 0...Double(count - 1)))
    }

    /// What the pager does after the scroll view reports a page or the pages move.
    public enum ScrollDecision: Equatable, Sendable {
        /// Nothing: the pages are moving, or they rest where the selection already is.
        case wait
        /// The pages came to rest on the page the pager asked for; stop waiting for it.
        case arrived
        /// The scroll view settled on another page while the pager waited for this one,
        /// as when it was asked before the pages were laid out: ask for this page again.
        case requestAgain(Int)
        /// The user swiped to this page and the pages came to rest on it: select it.
        case swipe(to: Int)
    }

    /// Decides, without a timer, whether a swipe has ended on a new page.
    ///
    /// - Parameters:
    ///   - scrolledIndex: The page the scroll view reports through `scrollPosition(id:)`.
    ///   - restingIndex: The page the measured position rests on (``settledIndex(position:count:tolerance:)``),
    ///     `nil` while the pages move.
    ///   - requestedIndex: The page the pager asked the scroll view for and has not seen
    ///     the pages rest on yet: a preset selection when the items arrive, a tapped tab,
    ///     a page that moved in a reorder. Until the pages rest there nothing counts as a
    ///     swipe, so pages passing by, or the first page waiting for the layout, never
    ///     replace the selection.
    ///   - selectedIndex: The selected page.
    public static func scrollDecision(scrolledIndex: Int?, restingIndex: Int?, requestedIndex: Int?, selectedIndex: Int?) -> ScrollDecision {
        guard let restingIndex else { return .wait }
        if let requestedIndex {
            if restingIndex == requestedIndex { return .arrived }
            return scrolledIndex == restingIndex ? .requestAgain(requestedIndex) : .wait
        }
        guard scrolledIndex == restingIndex, restingIndex != selectedIndex else { return .wait }
        return .swipe(to: restingIndex)
    }

    /// A selection change the pager made, remembered with the id it set so that the
    /// change handler can report why.
    public struct PendingChange<ID: Equatable>: Equatable {
        public var id: ID?
        public var reason: PagerTabChangeReason

        public init(id: ID?, reason: PagerTabChangeReason) {
            self.id = id
            self.reason = reason
        }
    }

    /// Why the selection became `newSelection`: the pending change's reason when it was
    /// made for that id, otherwise a change from outside. A pending change whose write
    /// the caller's binding ignored is never taken for the next, unrelated change.
    public static func changeReason<ID: Equatable>(for newSelection: ID?, pending: PendingChange<ID>?) -> PagerTabChangeReason {
        guard let pending, pending.id == newSelection else { return .programmatic }
        return pending.reason
    }

    /// The state a tab label is drawn with.
    public static func tabState(index: Int, count: Int, selectedIndex: Int?, position: Double) -> PagerTabState {
        PagerTabState(
            isSelected: index == selectedIndex,
            selectionProgress: selectionProgress(forTabAt: index, position: position),
            index: index,
            count: count
        )
    }

    // MARK: Indicator

    /// The indicator's frame when the pages sit at `position`, interpolated between the
    /// frames of the two tabs on either side so that it tracks the swipe, then pulled in
    /// by `inset` on each side. Positions past either end use the end tab. `nil` when no
    /// tab has been measured yet.
    ///
    /// `tabFrames` are in reading order and measured from the left edge, as SwiftUI
    /// reports them, so the answer is right in both directions: right to left, the first
    /// tab's frame is simply the rightmost.
    public static func indicatorFrame(position: Double, tabFrames: [Frame], inset: Double = 0) -> Frame? {
        guard let last = tabFrames.indices.last, position.isFinite else { return nil }
        let clamped = clamp(position, to: 0...Double(last))
        let lower = Int(clamped.rounded(.down))
        let upper = min(lower + 1, last)
        let fraction = clamped - Double(lower)
        let from = tabFrames[lower]
        let to = tabFrames[upper]
        let x = from.x + (to.x - from.x) * fraction
        let width = from.width + (to.width - from.width) * fraction
        let usableInset = min(max(0, inset), width / 2)
        return Frame(x: x + usableInset, width: width - 2 * usableInset)
    }

    // MARK: Separator

    /// The separator's thickness: the one asked for, never negative, or one pixel (the
    /// system divider's hairline) when none was asked for.
    public static func separatorThickness(_ requested: Double?, displayScale: Double) -> Double {
        guard let requested else { return 1 / max(displayScale, 1) }
        return max(0, requested)
    }
}

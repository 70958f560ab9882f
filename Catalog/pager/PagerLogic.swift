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
    /// A tab's horizontal extent in the tab bar, in points.
    public struct Frame: Equatable, Sendable {
        public var x: Double
        public var width: Double

        public init(x: Double, width: Double) {
            self.x = x
            self.width = width
        }
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

    /// The fractional page position for a scroll `offset` (how far the pages have moved
    /// toward later pages) and a `pageWidth`, clamped to the pages that exist so that
    /// rubber-banding past either end never reports a page that is not there.
    /// `nil` when there are no pages or no width yet.
    public static func position(offset: Double, pageWidth: Double, count: Int) -> Double? {
        guard count > 0, pageWidth > 0, offset.isFinite else { return nil }
        return clamp(offset / pageWidth, to: 0...Double(count - 1))
    }

    /// How selected the tab at `index` is when the pages sit at `position`: 1 when its
    /// page fills the pager, falling linearly to 0 one page away.
    public static func selectionProgress(forTabAt index: Int, position: Double) -> Double {
        clamp(1 - abs(position - Double(index)), to: 0...1)
    }

    /// The page the pager has come to rest on, or `nil` while it sits between pages.
    /// `tolerance` is a fraction of a page.
    public static func settledIndex(position: Double, count: Int, tolerance: Double = 0.01) -> Int? {
        guard count > 0, position.isFinite else { return nil }
        let nearest = position.rounded()
        guard abs(position - nearest) <= tolerance else { return nil }
        return Int(clamp(nearest, to: 0...Double(count - 1)))
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

    // MARK: Accessibility

    /// The one-based position VoiceOver reads after a tab's name, as in "2 of 5".
    /// `nil` when `index` is out of range.
    public static func accessibilityPosition(index: Int, count: Int) -> (ordinal: Int, count: Int)? {
        guard count > 0, (0..<count).contains(index) else { return nil }
        return (index + 1, count)
    }

    /// The English form of ``accessibilityPosition(index:count:)``, "2 of 5". The view
    /// builds a localized `Text` from the same numbers.
    public static func positionDescription(index: Int, count: Int) -> String? {
        accessibilityPosition(index: index, count: count).map { "\($0.ordinal) of \($0.count)" }
    }
}

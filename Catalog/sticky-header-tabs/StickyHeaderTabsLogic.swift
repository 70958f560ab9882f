/// The pure decisions behind ``StickyHeaderTabs``, kept apart from SwiftUI so they can be
/// unit-tested anywhere Swift runs. Offsets are in points from the top of the scroll
/// view's content: 0 at rest with the whole header showing, negative while pulling down.
@available(iOS 18.0, *)
public enum StickyHeaderTabsLogic {
    /// How far the header has scrolled away, from 0 (all of it showing) to 1 (gone, the tab
    /// row pinned): the offset over the header's height, clamped. Pulling down past the top
    /// is still 0. A header with no height is collapsed (1) unless the view is at rest or
    /// pulled down; an offset that is not a number counts as 0.
    public static func collapseProgress(offset: Double, headerHeight: Double) -> Double {
        guard offset.isFinite, offset > 0 else { return 0 }
        guard headerHeight > 0, headerHeight.isFinite else { return 1 }
        return min(1, offset / headerHeight)
    }

    /// Whether the tab row is pinned to the top: the header has scrolled all the way away.
    /// Half a point of slack absorbs rounding in the measured offset.
    public static func isPinned(offset: Double, pinThreshold: Double) -> Bool {
        offset.isFinite && offset >= max(0, pinThreshold) - 0.5
    }

    /// How the header is drawn at `progress`, and while pulled down by `overscroll` points.
    public struct HeaderEffect: Equatable, Sendable {
        public var opacity: Double
        public var scale: Double

        public init(opacity: Double, scale: Double) {
            self.opacity = opacity
            self.scale = scale
        }
    }

    /// The block's own header effect: the header fades as it collapses (fully transparent
    /// when the row pins), shrinks by up to 10%, and stretches while pulled down, up to 50%
    /// larger. With Reduce Motion there is no scaling at all, only the fade.
    public static func headerEffect(progress: Double, offset: Double, headerHeight: Double, reduceMotion: Bool) -> HeaderEffect {
        let progress = progress.isFinite ? min(max(progress, 0), 1) : 0
        let opacity = 1 - progress
        guard !reduceMotion else { return HeaderEffect(opacity: opacity, scale: 1) }
        let overscroll = offset.isFinite ? max(0, -offset) : 0
        if overscroll > 0, headerHeight > 0 {
            return HeaderEffect(opacity: opacity, scale: min(1.5, 1 + overscroll / headerHeight))
        }
        return HeaderEffect(opacity: opacity, scale: 1 - 0.1 * progress)
    }

    /// Where the scroll view goes when the user switches tabs, so that the header never
    /// jumps:
    ///
    /// - While any of the header shows (the row is not pinned), it stays exactly where it
    ///   is, and the new tab is shown from its top. A pull-down counts as the top.
    /// - While the row is pinned, the new tab returns to where it was left, but never to
    ///   less than the pin threshold, so the row stays pinned; a tab never scrolled before
    ///   starts just pinned.
    public static func offsetAfterSwitch(currentOffset: Double, savedOffset: Double?, pinThreshold: Double) -> Double {
        let threshold = max(0, pinThreshold)
        let current = currentOffset.isFinite ? max(0, currentOffset) : 0
        guard isPinned(offset: current, pinThreshold: threshold) else { return current }
        guard let savedOffset, savedOffset.isFinite else { return threshold }
        return max(savedOffset, threshold)
    }

    /// The remembered offset of each tab after leaving `tab` at `offset`: tabs that no
    /// longer exist are forgotten, so a tab added again later starts fresh.
    public static func savedOffsets<Tab: Hashable>(_ offsets: [Tab: Double], leaving tab: Tab, at offset: Double, tabs: [Tab]) -> [Tab: Double] {
        var kept = offsets.filter { tabs.contains($0.key) }
        if tabs.contains(tab), offset.isFinite { kept[tab] = max(0, offset) }
        return kept
    }

    /// The least height a tab's content needs so that the view can always scroll far enough
    /// to pin the row: the viewport minus the pinned row. Without it a short tab would pull
    /// the header back down when selected.
    public static func minimumContentHeight(viewportHeight: Double, tabRowHeight: Double) -> Double {
        guard viewportHeight.isFinite, tabRowHeight.isFinite else { return 0 }
        return max(0, viewportHeight - max(0, tabRowHeight))
    }

    /// The tab that should be selected after the tabs change from `previousTabs` to `tabs`:
    /// a listed selection stays wherever it moved; a removed one passes to the nearest
    /// survivor after it, else before it; an unknown one becomes the first tab; with no
    /// tabs the answer is `nil`.
    public static func resolvedSelection<Tab: Hashable>(_ selection: Tab, previousTabs: [Tab], tabs: [Tab]) -> Tab? {
        guard let first = tabs.first else { return nil }
        if tabs.contains(selection) { return selection }
        guard let oldIndex = previousTabs.firstIndex(of: selection) else { return first }
        if let next = previousTabs[(oldIndex + 1)...].first(where: tabs.contains) { return next }
        if let previous = previousTabs[..<oldIndex].reversed().first(where: tabs.contains) { return previous }
        return first
    }
}

/// The pure decisions behind ``TopTabs``, kept apart from SwiftUI so they can be
/// unit-tested anywhere Swift runs.
@available(iOS 17.0, *)
public enum TopTabsLogic {
    /// `index` brought inside `0..<count`. With no tabs the answer is 0.
    public static func clampedIndex(_ index: Int, count: Int) -> Int {
        guard count > 0 else { return 0 }
        return min(max(index, 0), count - 1)
    }

    /// The selected index after the titles change from `previousTitles` to `titles`.
    ///
    /// The tab the user was on stays selected when its title is still there, even if it
    /// moved; otherwise the index is clamped into the new range, so removing the last tab
    /// selects the one before it.
    public static func repairedIndex(_ index: Int, previousTitles: [String], titles: [String]) -> Int {
        if previousTitles.indices.contains(index), let moved = titles.firstIndex(of: previousTitles[index]) {
            return moved
        }
        return clampedIndex(index, count: titles.count)
    }

    /// The direction the tabs run in. The logic stays free of SwiftUI, so the view maps
    /// its `LayoutDirection` to this.
    public enum Direction: Sendable, Equatable {
        /// The first tab on the left, as in English.
        case leftToRight
        /// The first tab on the right, as in Arabic and Hebrew.
        case rightToLeft
    }

    /// Where the underline sits, in points from the left edge of the row, whichever way
    /// the tabs run.
    public struct IndicatorFrame: Equatable, Sendable {
        public var x: Double
        public var width: Double

        public init(x: Double, width: Double) {
            self.x = x
            self.width = width
        }
    }

    /// The underline under tab `selectedIndex` of `count` equal-width tabs that fill
    /// `totalWidth`, pulled in by `inset` on each side. Right to left, tab 0 is the
    /// rightmost, so its underline is measured back from the right edge.
    ///
    /// The index is clamped, the width never goes below zero, and there is no underline
    /// (`nil`) with no tabs or no room.
    public static func indicatorFrame(
        selectedIndex: Int, count: Int, totalWidth: Double, inset: Double = 0, direction: Direction = .leftToRight
    ) -> IndicatorFrame? {
        guard count > 0, totalWidth > 0 else { return nil }
        let tabWidth = totalWidth / Double(count)
        let index = clampedIndex(selectedIndex, count: count)
        let usableInset = min(max(0, inset), tabWidth / 2)
        let width = tabWidth - 2 * usableInset
        let fromLeadingEdge = Double(index) * tabWidth + usableInset
        switch direction {
        case .leftToRight:
            return IndicatorFrame(x: fromLeadingEdge, width: width)
        case .rightToLeft:
            return IndicatorFrame(x: totalWidth - fromLeadingEdge - width, width: width)
        }
    }
}

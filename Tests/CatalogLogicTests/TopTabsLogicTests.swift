import Testing

@testable import CatalogLogic

@Suite("top-tabs logic")
struct TopTabsLogicTests {
    @Test func clampsIntoRange() {
        #expect(TopTabsLogic.clampedIndex(-3, count: 4) == 0)
        #expect(TopTabsLogic.clampedIndex(2, count: 4) == 2)
        #expect(TopTabsLogic.clampedIndex(9, count: 4) == 3)
    }

    @Test func noTabsClampsToZero() {
        #expect(TopTabsLogic.clampedIndex(5, count: 0) == 0)
        #expect(TopTabsLogic.repairedIndex(2, previousTitles: ["A", "B", "C"], titles: []) == 0)
        #expect(TopTabsLogic.indicatorFrame(selectedIndex: 0, count: 0, totalWidth: 300) == nil)
    }

    @Test func singleTabTakesTheWholeRow() {
        #expect(TopTabsLogic.indicatorFrame(selectedIndex: 0, count: 1, totalWidth: 320) == .init(x: 0, width: 320))
        #expect(TopTabsLogic.repairedIndex(0, previousTitles: ["Only"], titles: ["Only"]) == 0)
    }

    @Test func reorderFollowsTheSelectedTitle() {
        #expect(TopTabsLogic.repairedIndex(0, previousTitles: ["A", "B", "C"], titles: ["C", "B", "A"]) == 2)
    }

    @Test func removedSelectionKeepsItsIndexClamped() {
        #expect(TopTabsLogic.repairedIndex(1, previousTitles: ["A", "B", "C"], titles: ["A", "C"]) == 1)
        #expect(TopTabsLogic.repairedIndex(2, previousTitles: ["A", "B", "C"], titles: ["A", "B"]) == 1)
    }

    @Test func outOfRangeSelectionIsClamped() {
        #expect(TopTabsLogic.repairedIndex(7, previousTitles: ["A", "B"], titles: ["A", "B"]) == 1)
        #expect(TopTabsLogic.repairedIndex(-1, previousTitles: ["A", "B"], titles: ["A", "B"]) == 0)
    }

    @Test func indicatorSitsUnderTheSelectedEqualWidthTab() {
        #expect(TopTabsLogic.indicatorFrame(selectedIndex: 2, count: 4, totalWidth: 400) == .init(x: 200, width: 100))
        #expect(TopTabsLogic.indicatorFrame(selectedIndex: 1, count: 4, totalWidth: 400, inset: 10) == .init(x: 110, width: 80))
    }

    @Test func indicatorClampsIndexAndInset() {
        #expect(TopTabsLogic.indicatorFrame(selectedIndex: 9, count: 2, totalWidth: 200) == .init(x: 100, width: 100))
        #expect(TopTabsLogic.indicatorFrame(selectedIndex: 0, count: 2, totalWidth: 200, inset: 80) == .init(x: 50, width: 0))
        #expect(TopTabsLogic.indicatorFrame(selectedIndex: 0, count: 2, totalWidth: 200, inset: -5) == .init(x: 0, width: 100))
        #expect(TopTabsLogic.indicatorFrame(selectedIndex: 0, count: 2, totalWidth: 0) == nil)
    }

    // MARK: Right to left

    @Test func rightToLeftMeasuresTheFirstTabFromTheRightEdge() {
        // Four tabs of 100 points: tab 0 is the rightmost, so its underline starts at 300 from the left.
        #expect(TopTabsLogic.indicatorFrame(selectedIndex: 0, count: 4, totalWidth: 400, direction: .rightToLeft) == .init(x: 300, width: 100))
        #expect(TopTabsLogic.indicatorFrame(selectedIndex: 3, count: 4, totalWidth: 400, direction: .rightToLeft) == .init(x: 0, width: 100))
        #expect(TopTabsLogic.indicatorFrame(selectedIndex: 1, count: 4, totalWidth: 400, inset: 10, direction: .rightToLeft) == .init(x: 210, width: 80))
    }

    @Test func rightToLeftMirrorsLeftToRight() {
        for index in 0..<3 {
            guard let leftToRight = TopTabsLogic.indicatorFrame(selectedIndex: index, count: 3, totalWidth: 330, inset: 7),
                let rightToLeft = TopTabsLogic.indicatorFrame(selectedIndex: index, count: 3, totalWidth: 330, inset: 7, direction: .rightToLeft)
            else {
                Issue.record("no frame for tab \(index)")
                continue
            }
            #expect(rightToLeft.width == leftToRight.width)
            #expect(rightToLeft.x == 330 - leftToRight.x - leftToRight.width)
        }
    }

    @Test func rightToLeftClampsLikeLeftToRight() {
        #expect(TopTabsLogic.indicatorFrame(selectedIndex: 9, count: 2, totalWidth: 200, direction: .rightToLeft) == .init(x: 0, width: 100))
        #expect(TopTabsLogic.indicatorFrame(selectedIndex: -4, count: 2, totalWidth: 200, direction: .rightToLeft) == .init(x: 100, width: 100))
        #expect(TopTabsLogic.indicatorFrame(selectedIndex: 0, count: 2, totalWidth: 0, direction: .rightToLeft) == nil)
    }
}

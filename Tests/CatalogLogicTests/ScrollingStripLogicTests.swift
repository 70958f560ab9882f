import Testing

@testable import CatalogLogic

@Suite("scrolling-strip logic")
struct ScrollingStripLogicTests {
    let tabs = ["All", "News", "Sport", "Music", "Film"]

    @Test func duplicatesKeepFirstPosition() {
        #expect(ScrollingStripLogic.uniqueTabs(["A", "B", "A", "C", "B"]) == ["A", "B", "C"])
        #expect(ScrollingStripLogic.uniqueTabs([]) == [])
    }

    @Test func listedSelectionStays() {
        #expect(ScrollingStripLogic.resolvedSelection("Sport", previousTabs: tabs, tabs: tabs) == "Sport")
    }

    @Test func reorderKeepsSelection() {
        let reordered = ["Film", "Sport", "All", "News", "Music"]
        #expect(ScrollingStripLogic.resolvedSelection("Sport", previousTabs: tabs, tabs: reordered) == "Sport")
    }

    @Test func removedSelectionGoesToTheTabThatTookItsPlace() {
        let without = ["All", "News", "Music", "Film"]
        #expect(ScrollingStripLogic.resolvedSelection("Sport", previousTabs: tabs, tabs: without) == "Music")
    }

    @Test func removedLastSelectionGoesToThePreviousTab() {
        let without = ["All", "News", "Sport", "Music"]
        #expect(ScrollingStripLogic.resolvedSelection("Film", previousTabs: tabs, tabs: without) == "Music")
    }

    @Test func removedSelectionWithNeighboursGoneFallsBackToFirst() {
        #expect(ScrollingStripLogic.resolvedSelection("Sport", previousTabs: ["Sport"], tabs: ["New"]) == "New")
    }

    @Test func unknownSelectionSelectsFirst() {
        #expect(ScrollingStripLogic.resolvedSelection("Weather", previousTabs: tabs, tabs: tabs) == "All")
        #expect(ScrollingStripLogic.resolvedSelection("", previousTabs: [], tabs: tabs) == "All")
    }

    @Test func noTabsMeansNothingToSelect() {
        #expect(ScrollingStripLogic.resolvedSelection("All", previousTabs: tabs, tabs: []) == nil)
        #expect(ScrollingStripLogic.resolvedSelection("All", previousTabs: [], tabs: []) == nil)
    }

    @Test func singleTab() {
        #expect(ScrollingStripLogic.resolvedSelection("Only", previousTabs: ["Only"], tabs: ["Only"]) == "Only")
        #expect(ScrollingStripLogic.resolvedSelection("Other", previousTabs: ["Other"], tabs: ["Only"]) == "Only")
    }

    @Test func smallTabGrowsToMinimumWithinSpacing() {
        let outsets = ScrollingStripLogic.touchTargetOutsets(width: 30, height: 20, spacing: 24)
        #expect(outsets.horizontal == 7)
        #expect(outsets.vertical == 12)
    }

    @Test func horizontalGrowthStopsAtHalfTheSpacing() {
        let outsets = ScrollingStripLogic.touchTargetOutsets(width: 10, height: 50, spacing: 8)
        #expect(outsets.horizontal == 4)
        #expect(outsets.vertical == 0)
    }

    @Test func largeTabNeedsNoGrowth() {
        let outsets = ScrollingStripLogic.touchTargetOutsets(width: 120, height: 60, spacing: 24)
        #expect(outsets == .init(horizontal: 0, vertical: 0))
    }

    @Test func negativeInputsClampToZeroSizes() {
        let outsets = ScrollingStripLogic.touchTargetOutsets(width: -5, height: -5, spacing: -10)
        #expect(outsets.horizontal == 0)
        #expect(outsets.vertical == 22)
    }

    @Test func aNegativeWidthCountsAsZeroWhenThereIsRoom() {
        // With room to spare, a width below zero needs the full 44 points, not more.
        let outsets = ScrollingStripLogic.touchTargetOutsets(width: -10, height: 44, spacing: 100)
        #expect(outsets == .init(horizontal: 22, vertical: 0))
    }

    @Test func aCustomMinimum() {
        let outsets = ScrollingStripLogic.touchTargetOutsets(width: 40, height: 40, spacing: 20, minimum: 48)
        #expect(outsets == .init(horizontal: 4, vertical: 4))
    }
}

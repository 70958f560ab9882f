import Testing

@testable import CatalogLogic

@Suite("sticky-header-tabs logic")
struct StickyHeaderTabsLogicTests {
    typealias Logic = StickyHeaderTabsLogic
    let tabs = ["posts", "replies", "media", "likes"]

    // MARK: Collapse progress

    @Test func progressFollowsTheOffsetOverTheHeader() {
        #expect(Logic.collapseProgress(offset: 0, headerHeight: 200) == 0)
        #expect(Logic.collapseProgress(offset: 50, headerHeight: 200) == 0.25)
        #expect(Logic.collapseProgress(offset: 200, headerHeight: 200) == 1)
    }

    @Test func progressIsClampedPastBothEnds() {
        #expect(Logic.collapseProgress(offset: -80, headerHeight: 200) == 0)
        #expect(Logic.collapseProgress(offset: 5_000, headerHeight: 200) == 1)
        #expect(Logic.collapseProgress(offset: .nan, headerHeight: 200) == 0)
        #expect(Logic.collapseProgress(offset: .infinity, headerHeight: 200) == 0)
    }

    @Test func aHeaderWithNoHeightIsCollapsedOnceScrolled() {
        #expect(Logic.collapseProgress(offset: 10, headerHeight: 0) == 1)
        #expect(Logic.collapseProgress(offset: 0, headerHeight: 0) == 0)
        #expect(Logic.collapseProgress(offset: -10, headerHeight: -5) == 0)
    }

    @Test func theRowPinsAtTheThreshold() {
        #expect(!Logic.isPinned(offset: 199, pinThreshold: 200))
        #expect(Logic.isPinned(offset: 199.6, pinThreshold: 200))
        #expect(Logic.isPinned(offset: 200, pinThreshold: 200))
        #expect(Logic.isPinned(offset: 900, pinThreshold: 200))
        #expect(Logic.isPinned(offset: 0, pinThreshold: 0))
        #expect(!Logic.isPinned(offset: .nan, pinThreshold: 0))
    }

    // MARK: The header effect

    @Test func theHeaderFadesAndShrinksAsItCollapses() {
        #expect(Logic.headerEffect(progress: 0, offset: 0, headerHeight: 200, reduceMotion: false) == .init(opacity: 1, scale: 1))
        #expect(Logic.headerEffect(progress: 0.5, offset: 100, headerHeight: 200, reduceMotion: false) == .init(opacity: 0.5, scale: 0.95))
        #expect(Logic.headerEffect(progress: 1, offset: 300, headerHeight: 200, reduceMotion: false) == .init(opacity: 0, scale: 0.9))
    }

    @Test func pullingDownStretchesTheHeaderUpToHalfAgain() {
        #expect(Logic.headerEffect(progress: 0, offset: -50, headerHeight: 200, reduceMotion: false) == .init(opacity: 1, scale: 1.25))
        #expect(Logic.headerEffect(progress: 0, offset: -900, headerHeight: 200, reduceMotion: false) == .init(opacity: 1, scale: 1.5))
        // With no measured header there is nothing to stretch against.
        #expect(Logic.headerEffect(progress: 0, offset: -50, headerHeight: 0, reduceMotion: false).scale == 1)
    }

    @Test func reduceMotionOnlyFades() {
        #expect(Logic.headerEffect(progress: 0.5, offset: 100, headerHeight: 200, reduceMotion: true) == .init(opacity: 0.5, scale: 1))
        #expect(Logic.headerEffect(progress: 0, offset: -100, headerHeight: 200, reduceMotion: true) == .init(opacity: 1, scale: 1))
    }

    @Test func theEffectClampsItsProgress() {
        #expect(Logic.headerEffect(progress: 3, offset: 0, headerHeight: 200, reduceMotion: true).opacity == 0)
        #expect(Logic.headerEffect(progress: -1, offset: 0, headerHeight: 200, reduceMotion: true).opacity == 1)
        #expect(Logic.headerEffect(progress: .nan, offset: 0, headerHeight: 200, reduceMotion: false) == .init(opacity: 1, scale: 1))
    }

    // MARK: Switching tabs

    @Test func withTheHeaderShowingTheHeaderStaysAndTheNewTabStartsAtItsTop() {
        #expect(Logic.offsetAfterSwitch(currentOffset: 120, savedOffset: 900, pinThreshold: 200) == 120)
        #expect(Logic.offsetAfterSwitch(currentOffset: 0, savedOffset: 900, pinThreshold: 200) == 0)
        // A pull-down counts as the top.
        #expect(Logic.offsetAfterSwitch(currentOffset: -40, savedOffset: nil, pinThreshold: 200) == 0)
    }

    @Test func withTheRowPinnedTheNewTabReturnsWhereItWasLeft() {
        #expect(Logic.offsetAfterSwitch(currentOffset: 600, savedOffset: 1_400, pinThreshold: 200) == 1_400)
    }

    @Test func withTheRowPinnedTheRowNeverUnpins() {
        // Left with the header showing, but now the row is pinned: it stays pinned.
        #expect(Logic.offsetAfterSwitch(currentOffset: 600, savedOffset: 50, pinThreshold: 200) == 200)
        // Never scrolled before: just pinned.
        #expect(Logic.offsetAfterSwitch(currentOffset: 600, savedOffset: nil, pinThreshold: 200) == 200)
        #expect(Logic.offsetAfterSwitch(currentOffset: 600, savedOffset: .nan, pinThreshold: 200) == 200)
    }

    @Test func savedOffsetsFollowTheTabs() {
        let saved = Logic.savedOffsets(["posts": 300, "media": 800], leaving: "replies", at: 450, tabs: tabs)
        #expect(saved == ["posts": 300, "media": 800, "replies": 450])
        // A removed tab is forgotten, and leaving a tab that is gone saves nothing.
        #expect(Logic.savedOffsets(saved, leaving: "likes", at: 10, tabs: ["posts"]) == ["posts": 300])
        // No tabs: nothing to remember.
        #expect(Logic.savedOffsets(saved, leaving: "posts", at: 10, tabs: [String]()) == [:])
        // A pull-down is saved as the top.
        #expect(Logic.savedOffsets([:], leaving: "posts", at: -30, tabs: tabs) == ["posts": 0])
    }

    @Test func shortContentIsMadeTallEnoughToPin() {
        #expect(Logic.minimumContentHeight(viewportHeight: 700, tabRowHeight: 44) == 656)
        #expect(Logic.minimumContentHeight(viewportHeight: 30, tabRowHeight: 44) == 0)
        #expect(Logic.minimumContentHeight(viewportHeight: 700, tabRowHeight: -5) == 700)
        #expect(Logic.minimumContentHeight(viewportHeight: .infinity, tabRowHeight: 44) == 0)
    }

    // MARK: Selection

    @Test func selectionRepair() {
        #expect(Logic.resolvedSelection("posts", previousTabs: tabs, tabs: [String]()) == nil)
        #expect(Logic.resolvedSelection("posts", previousTabs: ["posts"], tabs: ["posts"]) == "posts")
        #expect(Logic.resolvedSelection("saved", previousTabs: tabs, tabs: tabs) == "posts")
        #expect(Logic.resolvedSelection("replies", previousTabs: tabs, tabs: ["posts", "media", "likes"]) == "media")
        #expect(Logic.resolvedSelection("likes", previousTabs: tabs, tabs: ["posts", "replies"]) == "replies")
        #expect(Logic.resolvedSelection("media", previousTabs: tabs, tabs: ["likes", "media", "posts"]) == "media")
    }
}

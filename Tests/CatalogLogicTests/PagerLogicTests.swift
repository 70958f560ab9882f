import Testing

@testable import CatalogLogic

@Suite("pager logic")
struct PagerLogicTests {
    let ids = [10, 20, 30, 40, 50]

    // MARK: Selection

    @Test func nilUntilItemsArrive() {
        #expect(PagerLogic.resolvedSelection(Int?.none, previousIDs: [], ids: []) == nil)
    }

    @Test func firstIsSelectedWhenItemsArrive() {
        #expect(PagerLogic.resolvedSelection(Int?.none, previousIDs: [], ids: ids) == 10)
    }

    @Test func presetIsHonoredBeforeAndAfterItemsArrive() {
        #expect(PagerLogic.resolvedSelection(30, previousIDs: [], ids: []) == 30)
        #expect(PagerLogic.resolvedSelection(30, previousIDs: [], ids: ids) == 30)
    }

    @Test func unknownPresetSelectsFirst() {
        #expect(PagerLogic.resolvedSelection(99, previousIDs: [], ids: ids) == 10)
        #expect(PagerLogic.resolvedSelection(99, previousIDs: ids, ids: ids) == 10)
    }

    @Test func selectionSurvivesReorder() {
        #expect(PagerLogic.resolvedSelection(30, previousIDs: ids, ids: [50, 30, 10, 20, 40]) == 30)
    }

    @Test func removedSelectionMovesToTheItemThatTookItsPlace() {
        #expect(PagerLogic.resolvedSelection(30, previousIDs: ids, ids: [10, 20, 40, 50]) == 40)
    }

    @Test func removedLastSelectionMovesToThePreviousItem() {
        #expect(PagerLogic.resolvedSelection(50, previousIDs: ids, ids: [10, 20, 30, 40]) == 40)
    }

    @Test func removedSelectionWithSeveralNeighboursGone() {
        #expect(PagerLogic.resolvedSelection(30, previousIDs: ids, ids: [10, 50]) == 50)
        #expect(PagerLogic.resolvedSelection(40, previousIDs: ids, ids: [10, 20]) == 20)
        #expect(PagerLogic.resolvedSelection(30, previousIDs: ids, ids: [77]) == 77)
    }

    @Test func removingEveryItemClearsTheSelection() {
        #expect(PagerLogic.resolvedSelection(30, previousIDs: ids, ids: []) == nil)
    }

    @Test func singleItem() {
        #expect(PagerLogic.resolvedSelection(Int?.none, previousIDs: [], ids: [7]) == 7)
        #expect(PagerLogic.resolvedSelection(7, previousIDs: [7], ids: [7]) == 7)
        #expect(PagerLogic.position(offset: 0, pageWidth: 390, count: 1) == 0)
        #expect(PagerLogic.position(offset: 200, pageWidth: 390, count: 1) == 0)
        #expect(PagerLogic.settledIndex(position: 0, count: 1) == 0)
    }

    @Test func indexAndIdMapping() {
        #expect(PagerLogic.index(of: 40, in: ids) == 3)
        #expect(PagerLogic.index(of: 99, in: ids) == nil)
        #expect(PagerLogic.index(of: Int?.none, in: ids) == nil)
        #expect(PagerLogic.index(of: 10, in: []) == nil)
        #expect(PagerLogic.id(at: 1, in: ids) == 20)
        #expect(PagerLogic.id(at: -1, in: ids) == nil)
        #expect(PagerLogic.id(at: 5, in: ids) == nil)
        #expect(PagerLogic.id(at: 0, in: [Int]()) == nil)
    }

    // MARK: Position and progress

    @Test func positionFromOffset() {
        #expect(PagerLogic.position(offset: 0, pageWidth: 400, count: 5) == 0)
        #expect(PagerLogic.position(offset: 600, pageWidth: 400, count: 5) == 1.5)
        #expect(PagerLogic.position(offset: 1600, pageWidth: 400, count: 5) == 4)
    }

    @Test func positionClampsPastTheEnds() {
        #expect(PagerLogic.position(offset: -120, pageWidth: 400, count: 5) == 0)
        #expect(PagerLogic.position(offset: 2000, pageWidth: 400, count: 5) == 4)
    }

    @Test func positionNeedsPagesAndWidth() {
        #expect(PagerLogic.position(offset: 100, pageWidth: 0, count: 5) == nil)
        #expect(PagerLogic.position(offset: 100, pageWidth: 400, count: 0) == nil)
        #expect(PagerLogic.position(offset: .nan, pageWidth: 400, count: 5) == nil)
    }

    @Test func progressAtZeroHalfAndOne() {
        // The tab at index 1 as the pages move from page 0 to page 1.
        #expect(PagerLogic.selectionProgress(forTabAt: 1, position: 0) == 0)
        #expect(PagerLogic.selectionProgress(forTabAt: 1, position: 0.5) == 0.5)
        #expect(PagerLogic.selectionProgress(forTabAt: 1, position: 1) == 1)
        // And the tab being left.
        #expect(PagerLogic.selectionProgress(forTabAt: 0, position: 0) == 1)
        #expect(PagerLogic.selectionProgress(forTabAt: 0, position: 0.5) == 0.5)
        #expect(PagerLogic.selectionProgress(forTabAt: 0, position: 1) == 0)
    }

    @Test func progressPastTheEndsStaysInZeroToOne() {
        #expect(PagerLogic.selectionProgress(forTabAt: 0, position: -0.4) == 0.6)
        #expect(PagerLogic.selectionProgress(forTabAt: 0, position: -3) == 0)
        #expect(PagerLogic.selectionProgress(forTabAt: 4, position: 7) == 0)
        #expect(PagerLogic.selectionProgress(forTabAt: 2, position: 4) == 0)
    }

    @Test func settlesOnlyNearAPage() {
        #expect(PagerLogic.settledIndex(position: 2, count: 5) == 2)
        #expect(PagerLogic.settledIndex(position: 2.004, count: 5) == 2)
        #expect(PagerLogic.settledIndex(position: 1.996, count: 5) == 2)
        #expect(PagerLogic.settledIndex(position: 2.5, count: 5) == nil)
        #expect(PagerLogic.settledIndex(position: 9, count: 5) == 4)
        #expect(PagerLogic.settledIndex(position: -1, count: 5) == 0)
        #expect(PagerLogic.settledIndex(position: 0, count: 0) == nil)
    }

    @Test func tabStateCombinesSelectionAndProgress() {
        let state = PagerLogic.tabState(index: 1, count: 5, selectedIndex: 1, position: 0.75)
        #expect(state == PagerTabState(isSelected: true, selectionProgress: 0.75, index: 1, count: 5))
        #expect(PagerLogic.tabState(index: 0, count: 5, selectedIndex: nil, position: 0).isSelected == false)
    }

    // MARK: Indicator

    let frames = [
        PagerLogic.Frame(x: 0, width: 100),
        PagerLogic.Frame(x: 100, width: 60),
        PagerLogic.Frame(x: 160, width: 140),
    ]

    @Test func indicatorOnAPage() {
        #expect(PagerLogic.indicatorFrame(position: 0, tabFrames: frames) == .init(x: 0, width: 100))
        #expect(PagerLogic.indicatorFrame(position: 1, tabFrames: frames) == .init(x: 100, width: 60))
        #expect(PagerLogic.indicatorFrame(position: 2, tabFrames: frames) == .init(x: 160, width: 140))
    }

    @Test func indicatorInterpolatesFramesHalfway() {
        #expect(PagerLogic.indicatorFrame(position: 0.5, tabFrames: frames) == .init(x: 50, width: 80))
        #expect(PagerLogic.indicatorFrame(position: 1.5, tabFrames: frames) == .init(x: 130, width: 100))
    }

    @Test func indicatorClampsPastTheEnds() {
        #expect(PagerLogic.indicatorFrame(position: -0.7, tabFrames: frames) == .init(x: 0, width: 100))
        #expect(PagerLogic.indicatorFrame(position: 3.2, tabFrames: frames) == .init(x: 160, width: 140))
    }

    @Test func indicatorInset() {
        #expect(PagerLogic.indicatorFrame(position: 0, tabFrames: frames, inset: 10) == .init(x: 10, width: 80))
        // An inset wider than half the tab leaves a zero-width indicator in the middle.
        #expect(PagerLogic.indicatorFrame(position: 1, tabFrames: frames, inset: 45) == .init(x: 130, width: 0))
        #expect(PagerLogic.indicatorFrame(position: 0, tabFrames: frames, inset: -4) == .init(x: 0, width: 100))
    }

    @Test func indicatorNeedsMeasuredTabs() {
        #expect(PagerLogic.indicatorFrame(position: 0, tabFrames: []) == nil)
        #expect(PagerLogic.indicatorFrame(position: .infinity, tabFrames: frames) == nil)
        #expect(PagerLogic.indicatorFrame(position: 0.5, tabFrames: [frames[0]]) == .init(x: 0, width: 100))
    }

    // MARK: Right to left

    @Test func rightToLeftTheFirstPageSitsAtTheFarLeftOffset() {
        // Five pages of 400 points: the first page is the rightmost, so at rest on it the
        // content has moved left by the four pages after it.
        #expect(PagerLogic.position(offset: 1600, pageWidth: 400, count: 5, direction: .rightToLeft) == 0)
        #expect(PagerLogic.position(offset: 0, pageWidth: 400, count: 5, direction: .rightToLeft) == 4)
        #expect(PagerLogic.position(offset: 1000, pageWidth: 400, count: 5, direction: .rightToLeft) == 1.5)
    }

    @Test func rightToLeftClampsPastTheEnds() {
        #expect(PagerLogic.position(offset: 1700, pageWidth: 400, count: 5, direction: .rightToLeft) == 0)
        #expect(PagerLogic.position(offset: -90, pageWidth: 400, count: 5, direction: .rightToLeft) == 4)
        #expect(PagerLogic.position(offset: 123, pageWidth: 400, count: 1, direction: .rightToLeft) == 0)
        #expect(PagerLogic.position(offset: 0, pageWidth: 0, count: 5, direction: .rightToLeft) == nil)
    }

    @Test func theIndicatorFollowsRightToLeftFramesInReadingOrder() {
        // Right to left the first tab is the rightmost: its measured frame has the largest x.
        let rightToLeft = [
            PagerLogic.Frame(x: 200, width: 100),
            PagerLogic.Frame(x: 140, width: 60),
            PagerLogic.Frame(x: 0, width: 140),
        ]
        #expect(PagerLogic.indicatorFrame(position: 0, tabFrames: rightToLeft) == .init(x: 200, width: 100))
        #expect(PagerLogic.indicatorFrame(position: 0.5, tabFrames: rightToLeft) == .init(x: 170, width: 80))
        #expect(PagerLogic.indicatorFrame(position: 2, tabFrames: rightToLeft) == .init(x: 0, width: 140))
    }

    // MARK: At rest

    @Test func atRestMeansWithinAHundredthOfAPage() {
        #expect(PagerLogic.settledIndex(position: 2.009, count: 5) == 2)
        #expect(PagerLogic.settledIndex(position: 1.991, count: 5) == 2)
        #expect(PagerLogic.settledIndex(position: 2.0101, count: 5) == nil)
        #expect(PagerLogic.settledIndex(position: 1.985, count: 5) == nil)
        #expect(PagerLogic.settledIndex(position: 2.015, count: 5) == nil)
        #expect(PagerLogic.settledIndex(position: 2.05, count: 5) == nil)
        #expect(PagerLogic.settledIndex(position: .nan, count: 5) == nil)
        #expect(PagerLogic.settledIndex(position: 2.05, count: 5, tolerance: 0.1) == 2)
    }

    @Test func clampKeepsValuesInsideTheRange() {
        #expect(PagerLogic.clamp(-1, to: 0...4) == 0)
        #expect(PagerLogic.clamp(5, to: 0...4) == 4)
        #expect(PagerLogic.clamp(2.5, to: 0...4) == 2.5)
        #expect(PagerLogic.clamp(0, to: 0...0) == 0)
    }

    // MARK: Swipes, without a timer

    @Test func aSwipeCountsOnceThePagesRestOnTheReportedPage() {
        #expect(PagerLogic.scrollDecision(scrolledIndex: 2, restingIndex: 2, requestedIndex: nil, selectedIndex: 1) == .swipe(to: 2))
    }

    @Test func nothingCountsWhileThePagesMove() {
        #expect(PagerLogic.scrollDecision(scrolledIndex: 2, restingIndex: nil, requestedIndex: nil, selectedIndex: 1) == .wait)
        // Swiping back, the scroll view reports the page coming in before the pages rest.
        #expect(PagerLogic.scrollDecision(scrolledIndex: 0, restingIndex: 1, requestedIndex: nil, selectedIndex: 1) == .wait)
    }

    @Test func restingOnTheSelectedPageIsNoChange() {
        #expect(PagerLogic.scrollDecision(scrolledIndex: 1, restingIndex: 1, requestedIndex: nil, selectedIndex: 1) == .wait)
    }

    @Test func aPresetIsNotReplacedWhileItsPageIsPending() {
        // Items arrived with "science" (2) preset and the pager asked for its page. While
        // the pages still sit on the first one, that is not a swipe to the first item.
        #expect(PagerLogic.scrollDecision(scrolledIndex: 2, restingIndex: 0, requestedIndex: 2, selectedIndex: 2) == .wait)
        #expect(PagerLogic.scrollDecision(scrolledIndex: 2, restingIndex: nil, requestedIndex: 2, selectedIndex: 2) == .wait)
        #expect(PagerLogic.scrollDecision(scrolledIndex: 2, restingIndex: 2, requestedIndex: 2, selectedIndex: 2) == .arrived)
    }

    @Test func aRequestTheScrollViewSettledAwayFromIsMadeAgain() {
        // The scroll view laid the pages out on the first page and says so: ask again,
        // rather than take it for a swipe or wait forever.
        #expect(PagerLogic.scrollDecision(scrolledIndex: 0, restingIndex: 0, requestedIndex: 2, selectedIndex: 2) == .requestAgain(2))
        #expect(PagerLogic.scrollDecision(scrolledIndex: 3, restingIndex: 3, requestedIndex: 1, selectedIndex: 1) == .requestAgain(1))
    }

    @Test func afterArrivalSwipesCountAgain() {
        #expect(PagerLogic.scrollDecision(scrolledIndex: 3, restingIndex: 3, requestedIndex: nil, selectedIndex: 2) == .swipe(to: 3))
    }

    @Test func noPagesNoDecision() {
        #expect(PagerLogic.scrollDecision(scrolledIndex: nil, restingIndex: nil, requestedIndex: nil, selectedIndex: nil) == .wait)
        #expect(PagerLogic.scrollDecision(scrolledIndex: nil, restingIndex: 0, requestedIndex: nil, selectedIndex: nil) == .wait)
    }

    // MARK: Why the selection changed

    @Test func thePendingReasonIsReportedForItsOwnID() {
        let pending = PagerLogic.PendingChange(id: Optional(30), reason: .tap)
        #expect(PagerLogic.changeReason(for: 30, pending: pending) == .tap)
        #expect(PagerLogic.changeReason(for: 30, pending: PagerLogic.PendingChange(id: Optional(30), reason: .swipe)) == .swipe)
    }

    @Test func aPendingReasonForAnotherIDIsNotTakenForTheNextChange() {
        // The caller's binding ignored the tap on 30; the next change, to 40 in code, is programmatic.
        let pending = PagerLogic.PendingChange(id: Optional(30), reason: .tap)
        #expect(PagerLogic.changeReason(for: 40, pending: pending) == .programmatic)
        #expect(PagerLogic.changeReason(for: Int?.none, pending: pending) == .programmatic)
        #expect(PagerLogic.changeReason(for: 40, pending: nil) == .programmatic)
    }

    @Test func itemsChangedIsReportedForTheRepairedID() {
        let pending = PagerLogic.PendingChange(id: Int?.none, reason: .itemsChanged)
        #expect(PagerLogic.changeReason(for: Int?.none, pending: pending) == .itemsChanged)
    }

    // MARK: Separator

    @Test func theSeparatorIsOnePixelUnlessAThicknessIsGiven() {
        #expect(PagerLogic.separatorThickness(nil, displayScale: 3) == 1.0 / 3)
        #expect(PagerLogic.separatorThickness(nil, displayScale: 2) == 0.5)
        #expect(PagerLogic.separatorThickness(nil, displayScale: 0) == 1)
        #expect(PagerLogic.separatorThickness(2, displayScale: 3) == 2)
        #expect(PagerLogic.separatorThickness(-1, displayScale: 3) == 0)
    }
}

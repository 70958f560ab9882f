import Testing

@testable import CatalogLogic

@Suite("segmented-pill logic")
struct SegmentedPillLogicTests {
    typealias Logic = SegmentedPillLogic
    let options = ["day", "week", "month", "year"]

    // MARK: Sizes

    @Test func everySizeHasATouchTargetOfAtLeast44Points() {
        for size in SegmentedPillSize.allCases {
            let metrics = Logic.metrics(for: size)
            #expect(metrics.touchTarget >= 44, "\(size)")
            #expect(metrics.touchTarget >= metrics.pillHeight, "\(size)")
        }
    }

    @Test func sizesGrowInOrder() {
        let small = Logic.metrics(for: .small)
        let regular = Logic.metrics(for: .regular)
        let large = Logic.metrics(for: .large)
        #expect(small == .init(pillHeight: 28, horizontalPadding: 10, touchTarget: 44))
        #expect(regular == .init(pillHeight: 36, horizontalPadding: 14, touchTarget: 44))
        // A pill taller than 44 points is its own touch target.
        #expect(large == .init(pillHeight: 48, horizontalPadding: 18, touchTarget: 48))
    }

    // MARK: Arrow keys

    @Test func arrowKeysFollowTheSegmentsAsDrawn() {
        #expect(Logic.step(for: .right, direction: .leftToRight) == 1)
        #expect(Logic.step(for: .left, direction: .leftToRight) == -1)
        // Right to left the first segment is on the right, so the left arrow moves forward.
        #expect(Logic.step(for: .left, direction: .rightToLeft) == 1)
        #expect(Logic.step(for: .right, direction: .rightToLeft) == -1)
    }

    @Test func arrowKeysStopAtTheEnds() {
        #expect(Logic.movedIndex(from: 1, by: 1, count: 4) == 2)
        #expect(Logic.movedIndex(from: 1, by: -1, count: 4) == 0)
        #expect(Logic.movedIndex(from: 3, by: 1, count: 4) == nil)
        #expect(Logic.movedIndex(from: 0, by: -1, count: 4) == nil)
    }

    @Test func arrowKeysWithNoneOrOneSegment() {
        #expect(Logic.movedIndex(from: 0, by: 1, count: 0) == nil)
        #expect(Logic.movedIndex(from: 0, by: 1, count: 1) == nil)
        #expect(Logic.movedIndex(from: 0, by: -1, count: 1) == nil)
    }

    @Test func anOutOfRangeIndexIsBroughtInFirst() {
        #expect(Logic.movedIndex(from: 9, by: -1, count: 4) == 2)
        // Clamped to the last segment and moving past it: the clamp itself is the move.
        #expect(Logic.movedIndex(from: 9, by: 1, count: 4) == nil)
        #expect(Logic.movedIndex(from: -3, by: 1, count: 4) == 1)
    }

    // MARK: Overflow scrolling

    @Test func aSegmentInFullViewNeedsNoScrolling() {
        #expect(Logic.isFullyVisible(minX: 20, maxX: 120, viewportWidth: 390))
        #expect(Logic.isFullyVisible(minX: 16, maxX: 374, viewportWidth: 390))
    }

    @Test func aSegmentCutOffOnEitherSideNeedsScrolling() {
        #expect(!Logic.isFullyVisible(minX: -30, maxX: 60, viewportWidth: 390))
        #expect(!Logic.isFullyVisible(minX: 340, maxX: 440, viewportWidth: 390))
        // Entirely off screen, past either end.
        #expect(!Logic.isFullyVisible(minX: 500, maxX: 600, viewportWidth: 390))
        #expect(!Logic.isFullyVisible(minX: -600, maxX: -500, viewportWidth: 390))
        // In view but hiding the neighbour that would show there is more.
        #expect(!Logic.isFullyVisible(minX: 4, maxX: 100, viewportWidth: 390))
    }

    @Test func aSegmentWiderThanTheRowNeverFits() {
        #expect(!Logic.isFullyVisible(minX: 0, maxX: 500, viewportWidth: 390, margin: 0))
    }

    @Test func aRowNotLaidOutYetNeedsNoScrolling() {
        #expect(Logic.isFullyVisible(minX: 900, maxX: 1_000, viewportWidth: 0))
        #expect(Logic.isFullyVisible(minX: .nan, maxX: 10, viewportWidth: 390))
    }

    @Test func theMarginNeverExceedsHalfTheRow() {
        #expect(Logic.isFullyVisible(minX: 10, maxX: 10, viewportWidth: 20, margin: 100))
        #expect(Logic.isFullyVisible(minX: 0, maxX: 390, viewportWidth: 390, margin: -8))
    }

    // MARK: Selection

    @Test func selectionRepair() {
        #expect(Logic.resolvedSelection("day", previousOptions: options, options: [String]()) == nil)
        #expect(Logic.resolvedSelection("day", previousOptions: ["day"], options: ["day"]) == "day")
        #expect(Logic.resolvedSelection("decade", previousOptions: options, options: options) == "day")
        #expect(Logic.resolvedSelection("week", previousOptions: options, options: ["day", "month", "year"]) == "month")
        #expect(Logic.resolvedSelection("year", previousOptions: options, options: ["day", "week"]) == "week")
        #expect(Logic.resolvedSelection("month", previousOptions: options, options: ["year", "month", "day"]) == "month")
    }

    @Test func repeatedOptionsAreShownOnce() {
        #expect(Logic.uniqueOptions(["a", "b", "a", "c", "b"]) == ["a", "b", "c"])
        #expect(Logic.uniqueOptions([Int]()).isEmpty)
    }
}

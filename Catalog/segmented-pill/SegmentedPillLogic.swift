/// How big a ``SegmentedPill`` is drawn. Every size keeps touch targets at least 44
/// points tall; small and regular only draw a smaller pill inside that target.
@available(iOS 18.0, *)
public enum SegmentedPillSize: Hashable, CaseIterable, Sendable {
    case small
    case regular
    case large
}

/// The pure decisions behind ``SegmentedPill``, kept apart from SwiftUI so they can be
/// unit-tested anywhere Swift runs.
@available(iOS 18.0, *)
public enum SegmentedPillLogic {
    /// The measurements of one size, in points.
    public struct Metrics: Equatable, Sendable {
        /// The height of the drawn pill and track.
        public var pillHeight: Double
        /// The space on each side of a segment's label inside its pill.
        public var horizontalPadding: Double
        /// The height and least width of each segment's touch target.
        public var touchTarget: Double

        public init(pillHeight: Double, horizontalPadding: Double, touchTarget: Double) {
            self.pillHeight = pillHeight
            self.horizontalPadding = horizontalPadding
            self.touchTarget = touchTarget
        }
    }

    /// The least touch target, from Apple's Human Interface Guidelines.
    public static let minimumTouchTarget = 44.0

    /// The measurements of `size`. The touch target is never below 44 points, whatever
    /// the drawn height.
    public static func metrics(for size: SegmentedPillSize) -> Metrics {
        let (height, padding): (Double, Double)
        switch size {
        case .small: (height, padding) = (28, 10)
        case .regular: (height, padding) = (36, 14)
        case .large: (height, padding) = (48, 18)
        }
        return Metrics(pillHeight: height, horizontalPadding: padding, touchTarget: max(minimumTouchTarget, height))
    }

    /// An arrow key on a hardware keyboard.
    public enum ArrowKey: Sendable, Equatable {
        case left
        case right
    }

    /// The direction the segments run in; the view maps SwiftUI's layout direction to it.
    public enum Direction: Sendable, Equatable {
        case leftToRight
        case rightToLeft
    }

    /// How many segments an arrow key moves the selection, in reading order: the right
    /// arrow moves forward left to right and back right to left, as the segments are drawn.
    public static func step(for key: ArrowKey, direction: Direction) -> Int {
        switch (key, direction) {
        case (.right, .leftToRight), (.left, .rightToLeft): return 1
        case (.left, .leftToRight), (.right, .rightToLeft): return -1
        }
    }

    /// The index an arrow key moves to from `index`, or `nil` when it moves nowhere: past
    /// either end (the selection stops there, as the system segmented control's does), or
    /// with no segments. An index out of range is first brought into it.
    public static func movedIndex(from index: Int, by step: Int, count: Int) -> Int? {
        guard count > 0 else { return nil }
        let current = min(max(index, 0), count - 1)
        let target = current + step
        guard (0..<count).contains(target), target != index else { return nil }
        return target
    }

    /// Whether a segment spanning `minX`...`maxX`, measured from the leading edge of the
    /// visible part of the row, is wholly visible with `margin` points to spare on each
    /// side, so that the row only scrolls when the selected segment is cut off (or would
    /// hide its neighbours). A row not laid out yet (no width) needs no scrolling; a
    /// segment wider than the row never fits.
    public static func isFullyVisible(minX: Double, maxX: Double, viewportWidth: Double, margin: Double = 16) -> Bool {
        guard viewportWidth > 0, minX.isFinite, maxX.isFinite else { return true }
        let margin = min(max(0, margin), viewportWidth / 2)
        return minX >= margin - 0.5 && maxX <= viewportWidth - margin + 0.5
    }

    /// The option that should be selected after the options change from `previousOptions`
    /// to `options`: a listed selection stays wherever it moved; a removed one passes to
    /// the nearest survivor after it, else before it; an unknown one becomes the first
    /// option; with no options the answer is `nil`.
    public static func resolvedSelection<Option: Hashable>(_ selection: Option, previousOptions: [Option], options: [Option]) -> Option? {
        guard let first = options.first else { return nil }
        if options.contains(selection) { return selection }
        guard let oldIndex = previousOptions.firstIndex(of: selection) else { return first }
        if let next = previousOptions[(oldIndex + 1)...].first(where: options.contains) { return next }
        if let previous = previousOptions[..<oldIndex].reversed().first(where: options.contains) { return previous }
        return first
    }

    /// The options the control shows: each once, in its first position, so every segment
    /// has a stable identity even when the caller passes a duplicate by mistake.
    public static func uniqueOptions<Option: Hashable>(_ options: [Option]) -> [Option] {
        var seen: Set<Option> = []
        return options.filter { seen.insert($0).inserted }
    }
}

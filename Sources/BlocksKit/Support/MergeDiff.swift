/// The one line diff: under ThreeWayMerge, and under LineDiff, so the hunks `--dry-run`
/// and `blocks diff` print are the ones the merge uses. Where a change can be described in several
/// equally short ways (a moved block, a repeated `}` or blank line), which one a diff
/// picks decides whether a merge is clean and where its conflict markers go. To agree
/// with `git merge-file`, this diff makes git's picks: it follows the steps of git's
/// default diff (Myers' O(ND) algorithm, searched from both ends at once, on the lines
/// left after dropping the ones that cannot match, then each run of changes slid as git
/// slides it).
enum MergeDiff {
    /// A run of `old` lines that `new` replaces (either range may be empty).
    struct Hunk: Equatable {
        var base: Range<Int>
        var side: Range<Int>
    }

    /// The changes from `old` to `new`, in order. Lines are numbers, equal for equal
    /// lines (ThreeWayMerge numbers them).
    static func hunks(_ old: [Int], _ new: [Int]) -> [Hunk] {
        var marks = Marks(old: old, new: new)
        marks.markChanges()
        slideRuns(&marks.old, lines: old, other: marks.new)
        slideRuns(&marks.new, lines: new, other: marks.old)
        var hunks: [Hunk] = []
        var i = 0
        var j = 0
        while i < old.count || j < new.count {
            if (i < old.count && marks.old[i]) || (j < new.count && marks.new[j]) {
                let start = (i, j)
                while i < old.count && marks.old[i] { i += 1 }
                while j < new.count && marks.new[j] { j += 1 }
                hunks.append(Hunk(base: start.0..<i, side: start.1..<j))
            } else {
                i += 1
                j += 1
            }
        }
        return hunks
    }

    /// Which lines of each file are changed (deleted from `old`, inserted in `new`).
    struct Marks {
        var old: [Bool]
        var new: [Bool]
        let oldLines: [Int]
        let newLines: [Int]

        init(old: [Int], new: [Int]) {
            oldLines = old
            newLines = new
            self.old = [Bool](repeating: false, count: old.count)
            self.new = [Bool](repeating: false, count: new.count)
        }

        /// Marks a shortest set of changes, git's way.
        mutating func markChanges() {
            // The common start and end are unchanged and take no part.
            var start = 0
            while start < oldLines.count, start < newLines.count, oldLines[start] == newLines[start] { start += 1 }
            var end = 0
            while end < min(oldLines.count, newLines.count) - start,
                oldLines[oldLines.count - 1 - end] == newLines[newLines.count - 1 - end]
            { end += 1 }
            let oldMiddle = start..<(oldLines.count - end)
            let newMiddle = start..<(newLines.count - end)
            // Lines that cannot match are changed; the search runs on the others only.
            let oldKept = Self.searchable(oldMiddle, of: oldLines, against: newLines)
            let newKept = Self.searchable(newMiddle, of: newLines, against: oldLines)
            for index in oldMiddle { old[index] = true }
            for index in newMiddle { new[index] = true }
            var search = Search(old: oldKept.map { oldLines[$0] }, new: newKept.map { newLines[$0] })
            search.run()
            for (position, index) in oldKept.enumerated() { old[index] = search.oldChanged[position] }
            for (position, index) in newKept.enumerated() { new[index] = search.newChanged[position] }
        }

        /// The lines of `range` worth searching: those that occur in `other`, less the
        /// ones that occur in it very often and sit among lines that do not occur at all
        /// (git drops those too: they would only match by accident).
        static func searchable(_ range: Range<Int>, of lines: [Int], against other: [Int]) -> [Int] {
            var occurrences: [Int: Int] = [:]
            for line in other { occurrences[line, default: 0] += 1 }
            let often = min(roughSquareRoot(lines.count), 1024)
            // For each line: does not occur, occurs, occurs often.
            let kinds = lines.map { line -> Occurrence in
                let seen = occurrences[line] ?? 0
                return seen == 0 ? .absent : seen >= often ? .frequent : .present
            }
            return range.filter { index in
                switch kinds[index] {
                case .absent: return false
                case .present: return true
                case .frequent: return !amongAbsentLines(kinds, index, within: range)
                }
            }
        }

        enum Occurrence { case absent, present, frequent }

        /// Whether a frequent line at `index` sits in a stretch of absent and frequent
        /// lines, with absent ones on both sides, where absent lines make up more than
        /// three quarters of the stretch (looking at most 100 lines each way).
        static func amongAbsentLines(_ kinds: [Occurrence], _ index: Int, within range: Range<Int>) -> Bool {
            let lower = max(range.lowerBound, index - 100)
            let upper = min(range.upperBound - 1, index + 100)
            func stretch(_ step: Int) -> (absent: Int, frequent: Int) {
                var absent = 0
                var frequent = 0
                var position = index + step
                while position >= lower && position <= upper {
                    switch kinds[position] {
                    case .absent: absent += 1
                    case .frequent: frequent += 1
                    case .present: return (absent, frequent)
                    }
                    position += step
                }
                return (absent, frequent)
            }
            let before = stretch(-1)
            guard before.absent > 0 else { return false }
            let after = stretch(1)
            guard after.absent > 0 else { return false }
            let frequent = before.frequent + after.frequent + 2
            return frequent * 4 < frequent + before.absent + after.absent
        }

        /// git's integer "square root": 2 to the number of times `n` can be divided by 4.
        static func roughSquareRoot(_ n: Int) -> Int {
            var root = 1
            var rest = n
            while rest > 0 {
                root <<= 1
                rest >>= 2
            }
            return root
        }
    }

    /// Myers' search for a shortest edit script between two line lists, as git runs it:
    /// each box is split at the middle of a shortest path found from both corners at
    /// once, and the halves are searched in turn. Past a cost of 256 (more when the two
    /// files have over 65,000 lines together), git settles for the split where a path has
    /// come furthest; so does this. (Past that size git has one more shortcut, for long
    /// runs of equal lines, which this leaves out: there it may place a change elsewhere.)
    struct Search {
        let old: [Int]
        let new: [Int]
        var oldChanged: [Bool]
        var newChanged: [Bool]
        /// The furthest reach on each diagonal (old index minus new index), forward and
        /// backward, stored from diagonal `-(new.count + 1)`.
        private var forward: [Int]
        private var backward: [Int]
        private let diagonalOffset: Int
        private let maximumCost: Int

        /// The least cost at which the search settles for a good split.
        static let leastMaximumCost = 256

        init(old: [Int], new: [Int]) {
            self.old = old
            self.new = new
            oldChanged = [Bool](repeating: false, count: old.count)
            newChanged = [Bool](repeating: false, count: new.count)
            let diagonals = old.count + new.count + 3
            forward = [Int](repeating: 0, count: diagonals)
            backward = [Int](repeating: 0, count: diagonals)
            diagonalOffset = new.count + 1
            maximumCost = max(Marks.roughSquareRoot(diagonals), Self.leastMaximumCost)
        }

        struct Box {
            var oldStart: Int
            var oldEnd: Int
            var newStart: Int
            var newEnd: Int
            var minimal: Bool
        }

        /// Searches every box; boxes are disjoint, so the order does not matter, and a
        /// list instead of recursion keeps deep searches off the stack.
        mutating func run() {
            var boxes = [Box(oldStart: 0, oldEnd: old.count, newStart: 0, newEnd: new.count, minimal: false)]
            while var box = boxes.popLast() {
                while box.oldStart < box.oldEnd, box.newStart < box.newEnd, old[box.oldStart] == new[box.newStart] {
                    box.oldStart += 1
                    box.newStart += 1
                }
                while box.oldStart < box.oldEnd, box.newStart < box.newEnd, old[box.oldEnd - 1] == new[box.newEnd - 1] {
                    box.oldEnd -= 1
                    box.newEnd -= 1
                }
                if box.oldStart == box.oldEnd {
                    for index in box.newStart..<box.newEnd { newChanged[index] = true }
                } else if box.newStart == box.newEnd {
                    for index in box.oldStart..<box.oldEnd { oldChanged[index] = true }
                } else {
                    let split = self.split(box)
                    boxes.append(Box(oldStart: split.old, oldEnd: box.oldEnd, newStart: split.new, newEnd: box.newEnd, minimal: split.minimalAfter))
                    boxes.append(Box(oldStart: box.oldStart, oldEnd: split.old, newStart: box.newStart, newEnd: split.new, minimal: split.minimalBefore))
                }
            }
        }

        struct Split {
            var old: Int
            var new: Int
            var minimalBefore = true
            var minimalAfter = true
        }

        private func reach(_ diagonals: [Int], _ diagonal: Int) -> Int { diagonals[diagonal + diagonalOffset] }

        /// Where a shortest path through `box` crosses its middle: grows the paths from
        /// the top-left and the bottom-right corner one edit at a time until they meet.
        private mutating func split(_ box: Box) -> Split {
            let bounds = (lowest: box.oldStart - box.newEnd, highest: box.oldEnd - box.newStart)
            let forwardMiddle = box.oldStart - box.newStart
            let backwardMiddle = box.oldEnd - box.newEnd
            let odd = (forwardMiddle - backwardMiddle) & 1 != 0
            var forwardRange = (low: forwardMiddle, high: forwardMiddle)
            var backwardRange = (low: backwardMiddle, high: backwardMiddle)
            forward[forwardMiddle + diagonalOffset] = box.oldStart
            backward[backwardMiddle + diagonalOffset] = box.oldEnd
            var cost = 1
            while true {
                if let split = stepForward(box, bounds: bounds, odd: odd, forwardRange: &forwardRange, backwardRange: backwardRange) { return split }
                if let split = stepBackward(box, bounds: bounds, odd: odd, backwardRange: &backwardRange, forwardRange: forwardRange) { return split }
                if !box.minimal && cost >= maximumCost {
                    return furthestSplit(box, forwardRange: forwardRange, backwardRange: backwardRange)
                }
                cost += 1
            }
        }

        /// One more edit on the paths from the top-left corner; the split when one of them
        /// reaches a path from the bottom-right (an odd difference meets them here).
        private mutating func stepForward(
            _ box: Box, bounds: (lowest: Int, highest: Int), odd: Bool, forwardRange: inout (low: Int, high: Int), backwardRange: (low: Int, high: Int)
        ) -> Split? {
            let (lowest, highest) = bounds
            // Widen the forward diagonals by one each way, inside the box; the
            // diagonal just outside reads as unreachable.
            if forwardRange.low > lowest {
                forwardRange.low -= 1
                forward[forwardRange.low - 1 + diagonalOffset] = -1
            } else {
                forwardRange.low += 1
            }
            if forwardRange.high < highest {
                forwardRange.high += 1
                forward[forwardRange.high + 1 + diagonalOffset] = -1
            } else {
                forwardRange.high -= 1
            }
            for diagonal in stride(from: forwardRange.high, through: forwardRange.low, by: -2) {
                // A deletion (from the diagonal below) wins a tie.
                let fromBelow = reach(forward, diagonal - 1)
                let fromAbove = reach(forward, diagonal + 1)
                var i = fromBelow >= fromAbove ? fromBelow + 1 : fromAbove
                var j = i - diagonal
                while i < box.oldEnd, j < box.newEnd, old[i] == new[j] {
                    i += 1
                    j += 1
                }
                forward[diagonal + diagonalOffset] = i
                if odd, backwardRange.low <= diagonal, diagonal <= backwardRange.high, reach(backward, diagonal) <= i {
                    return Split(old: i, new: j)
                }
            }
            return nil
        }

        /// One more edit on the paths from the bottom-right corner; the split when one of
        /// them reaches a path from the top-left (an even difference meets them here).
        private mutating func stepBackward(
            _ box: Box, bounds: (lowest: Int, highest: Int), odd: Bool, backwardRange: inout (low: Int, high: Int), forwardRange: (low: Int, high: Int)
        ) -> Split? {
            let (lowest, highest) = bounds
            if backwardRange.low > lowest {
                backwardRange.low -= 1
                backward[backwardRange.low - 1 + diagonalOffset] = Int.max
            } else {
                backwardRange.low += 1
            }
            if backwardRange.high < highest {
                backwardRange.high += 1
                backward[backwardRange.high + 1 + diagonalOffset] = Int.max
            } else {
                backwardRange.high -= 1
            }
            for diagonal in stride(from: backwardRange.high, through: backwardRange.low, by: -2) {
                let fromBelow = reach(backward, diagonal - 1)
                let fromAbove = reach(backward, diagonal + 1)
                var i = fromBelow < fromAbove ? fromBelow : fromAbove - 1
                var j = i - diagonal
                while i > box.oldStart, j > box.newStart, old[i - 1] == new[j - 1] {
                    i -= 1
                    j -= 1
                }
                backward[diagonal + diagonalOffset] = i
                if !odd, forwardRange.low <= diagonal, diagonal <= forwardRange.high, i <= reach(forward, diagonal) {
                    return Split(old: i, new: j)
                }
            }
            return nil
        }

        /// The search has cost too much: split where either path has come furthest.
        private func furthestSplit(_ box: Box, forwardRange: (low: Int, high: Int), backwardRange: (low: Int, high: Int)) -> Split {
            var forwardBest = (sum: -1, old: -1)
            for diagonal in stride(from: forwardRange.high, through: forwardRange.low, by: -2) {
                var i = min(reach(forward, diagonal), box.oldEnd)
                if i - diagonal > box.newEnd { i = box.newEnd + diagonal }
                let sum = i + (i - diagonal)
                if forwardBest.sum < sum { forwardBest = (sum, i) }
            }
            var backwardBest = (sum: Int.max, old: Int.max)
            for diagonal in stride(from: backwardRange.high, through: backwardRange.low, by: -2) {
                var i = max(box.oldStart, reach(backward, diagonal))
                if i - diagonal < box.newStart { i = box.newStart + diagonal }
                let sum = i + (i - diagonal)
                if sum < backwardBest.sum { backwardBest = (sum, i) }
            }
            if (box.oldEnd + box.newEnd) - backwardBest.sum < forwardBest.sum - (box.oldStart + box.newStart) {
                return Split(old: forwardBest.old, new: forwardBest.sum - forwardBest.old, minimalBefore: true, minimalAfter: false)
            }
            return Split(old: backwardBest.old, new: backwardBest.sum - backwardBest.old, minimalBefore: false, minimalAfter: true)
        }
    }

    /// Slides each run of changed lines of one file, within lines equal to its own, the
    /// way git does without its indent heuristic (as `git merge-file` runs): down as far
    /// as it goes, merging with runs it meets, then back up to the last place where the
    /// other file has changed lines opposite it, if there was one.
    ///
    /// Run k of each file is the (possibly empty) run after its k-th unchanged line; both
    /// files have as many unchanged lines, so run k of one faces run k of the other, and
    /// every one-line slide moves the facing run by one.
    static func slideRuns(_ changed: inout [Bool], lines: [Int], other: [Bool]) {
        var run = Run(in: changed, from: 0)
        var facing = Run(in: other, from: 0)
        func slideUp() -> Bool {
            guard run.start > 0, lines[run.start - 1] == lines[run.end - 1] else { return false }
            run.start -= 1
            run.end -= 1
            changed[run.start] = true
            changed[run.end] = false
            while run.start > 0 && changed[run.start - 1] { run.start -= 1 }
            facing = facing.previous(in: other)
            return true
        }
        func slideDown() -> Bool {
            guard run.end < lines.count, lines[run.start] == lines[run.end] else { return false }
            changed[run.start] = false
            changed[run.end] = true
            run.start += 1
            run.end += 1
            while run.end < lines.count && changed[run.end] { run.end += 1 }
            facing = Run(in: other, from: facing.end + 1)
            return true
        }
        while true {
            if !run.isEmpty {
                var size: Int
                var highestEnd: Int
                var facesChange: Bool
                repeat {
                    size = run.count
                    while slideUp() {}
                    highestEnd = run.end
                    facesChange = !facing.isEmpty
                    while slideDown() { facesChange = facesChange || !facing.isEmpty }
                } while size != run.count
                if run.end != highestEnd && facesChange {
                    while facing.isEmpty { _ = slideUp() }
                }
            }
            guard run.end < lines.count else { break }
            run = Run(in: changed, from: run.end + 1)
            facing = Run(in: other, from: facing.end + 1)
        }
    }

    /// A maximal run of changed lines, `start..<end`, beginning at `start`.
    struct Run {
        var start: Int
        var end: Int
        var isEmpty: Bool { start == end }
        var count: Int { end - start }

        init(in changed: [Bool], from start: Int) {
            self.start = start
            end = start
            while end < changed.count && changed[end] { end += 1 }
        }

        private init(start: Int, end: Int) {
            self.start = start
            self.end = end
        }

        /// The run before the unchanged line just before this one.
        func previous(in changed: [Bool]) -> Run {
            var start = self.start - 1
            while start > 0 && changed[start - 1] { start -= 1 }
            return Run(start: start, end: self.start - 1)
        }
    }
}

/// A unified line diff, as `diff -u` prints it, for `add --dry-run`, `blocks diff` and
/// conflict prompts, over the hunks of the merge's own diff (`MergeDiff`, git's Myers
/// diff), so what is shown is what `update` merges.
public enum LineDiff {
    enum Edit: Equatable {
        case same(Int, Int)
        case delete(Int)
        case insert(Int)
    }

    static let contextLines = 3

    /// The unified diff from `old` to `new`, or "" when they are equal.
    public static func unified(old: String, new: String, oldName: String, newName: String) -> String {
        let before = lines(old)
        let after = lines(new)
        let edits = script(before, after)
        guard edits.contains(where: { if case .same = $0 { return false } else { return true } }) else { return "" }
        var output = ["--- \(oldName)", "+++ \(newName)"]
        for hunk in hunks(edits) {
            output.append(header(hunk, edits: edits))
            for edit in edits[hunk] {
                switch edit {
                case .same(let index, _): output.append(" " + before[index])
                case .delete(let index): output.append("-" + before[index])
                case .insert(let index): output.append("+" + after[index])
                }
            }
        }
        return output.joined(separator: "\n") + "\n"
    }

    /// The text's lines without their newlines; a final newline does not add a line.
    static func lines(_ text: String) -> [String] {
        var parts = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if parts.last == "" { parts.removeLast() }
        return parts
    }

    /// The edit script: every line of both sides, in order, as kept, deleted or inserted,
    /// from the merge's diff (`MergeDiff`), each change's deletions before its insertions.
    static func script(_ before: [String], _ after: [String]) -> [Edit] {
        var numbers: [String: Int] = [:]
        func number(_ line: String) -> Int {
            if let known = numbers[line] { return known }
            numbers[line] = numbers.count
            return numbers.count - 1
        }
        let old = before.map(number)
        let new = after.map(number)
        var edits: [Edit] = []
        var i = 0
        var j = 0
        for hunk in MergeDiff.hunks(old, new) {
            while i < hunk.base.lowerBound {
                edits.append(.same(i, j))
                i += 1
                j += 1
            }
            edits += hunk.base.map { Edit.delete($0) } + hunk.side.map { Edit.insert($0) }
            i = hunk.base.upperBound
            j = hunk.side.upperBound
        }
        while i < before.count {
            edits.append(.same(i, j))
            i += 1
            j += 1
        }
        return edits
    }

    /// Ranges of the edit script to print: each change with up to three lines of
    /// context, merging changes whose contexts touch.
    static func hunks(_ edits: [Edit]) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        for (index, edit) in edits.enumerated() {
            if case .same = edit { continue }
            let lower = max(0, index - contextLines)
            let upper = min(edits.count, index + contextLines + 1)
            if let last = ranges.last, lower <= last.upperBound {
                ranges[ranges.count - 1] = last.lowerBound..<max(last.upperBound, upper)
            } else {
                ranges.append(lower..<upper)
            }
        }
        return ranges
    }

    static func header(_ hunk: Range<Int>, edits: [Edit]) -> String {
        var oldCount = 0
        var newCount = 0
        var oldStart: Int?
        var newStart: Int?
        for edit in edits[hunk] {
            switch edit {
            case .same(let a, let b):
                oldStart = oldStart ?? a
                newStart = newStart ?? b
                oldCount += 1
                newCount += 1
            case .delete(let a):
                oldStart = oldStart ?? a
                oldCount += 1
            case .insert(let b):
                newStart = newStart ?? b
                newCount += 1
            }
        }
        // Where a side has no lines, diff names the line before the hunk.
        let oldLine = oldCount == 0 ? linesBefore(hunk, edits: edits, old: true) : (oldStart ?? 0) + 1
        let newLine = newCount == 0 ? linesBefore(hunk, edits: edits, old: false) : (newStart ?? 0) + 1
        return "@@ -\(range(oldLine, oldCount)) +\(range(newLine, newCount)) @@"
    }

    static func linesBefore(_ hunk: Range<Int>, edits: [Edit], old: Bool) -> Int {
        edits[..<hunk.lowerBound].reduce(0) { count, edit in
            switch edit {
            case .same: return count + 1
            case .delete: return count + (old ? 1 : 0)
            case .insert: return count + (old ? 0 : 1)
            }
        }
    }

    static func range(_ start: Int, _ count: Int) -> String {
        count == 1 ? "\(start)" : "\(start),\(count)"
    }
}

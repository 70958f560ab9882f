/// A unified line diff, as `diff -u` prints it, for `add --dry-run` and conflict
/// prompts. Small files only: the common prefix and suffix are trimmed, and the middle
/// is compared by longest common subsequence, falling back to "replace everything"
/// when the middle is too large to compare cheaply.
public enum LineDiff {
    enum Edit: Equatable {
        case same(Int, Int)
        case delete(Int)
        case insert(Int)
    }

    static let contextLines = 3
    static let maximumCells = 4_000_000

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

    /// The edit script: every line of both sides, in order, as kept, deleted or inserted.
    static func script(_ before: [String], _ after: [String]) -> [Edit] {
        var prefix = 0
        while prefix < before.count, prefix < after.count, before[prefix] == after[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < before.count - prefix, suffix < after.count - prefix,
            before[before.count - 1 - suffix] == after[after.count - 1 - suffix]
        { suffix += 1 }
        var edits = (0..<prefix).map { Edit.same($0, $0) }
        edits += middle(before, after, oldRange: prefix..<(before.count - suffix), newRange: prefix..<(after.count - suffix))
        edits += (0..<suffix).map { Edit.same(before.count - suffix + $0, after.count - suffix + $0) }
        return edits
    }

    static func middle(_ before: [String], _ after: [String], oldRange: Range<Int>, newRange: Range<Int>) -> [Edit] {
        let rows = oldRange.count
        let columns = newRange.count
        if rows == 0 || columns == 0 || rows * columns > maximumCells {
            return oldRange.map { Edit.delete($0) } + newRange.map { Edit.insert($0) }
        }
        // lengths[i][j]: the longest common subsequence of the suffixes from i and j.
        let width = columns + 1
        var lengths = [Int32](repeating: 0, count: (rows + 1) * width)
        for i in stride(from: rows - 1, through: 0, by: -1) {
            for j in stride(from: columns - 1, through: 0, by: -1) {
                lengths[i * width + j] =
                    before[oldRange.lowerBound + i] == after[newRange.lowerBound + j]
                    ? lengths[(i + 1) * width + j + 1] + 1
                    : max(lengths[(i + 1) * width + j], lengths[i * width + j + 1])
            }
        }
        var edits: [Edit] = []
        var i = 0
        var j = 0
        while i < rows || j < columns {
            if i < rows, j < columns, before[oldRange.lowerBound + i] == after[newRange.lowerBound + j] {
                edits.append(.same(oldRange.lowerBound + i, newRange.lowerBound + j))
                i += 1
                j += 1
            } else if j < columns, i == rows || lengths[i * width + j + 1] >= lengths[(i + 1) * width + j] {
                edits.append(.insert(newRange.lowerBound + j))
                j += 1
            } else {
                edits.append(.delete(oldRange.lowerBound + i))
                i += 1
            }
        }
        // Deletions read better before insertions within a changed run.
        return reorderRuns(edits)
    }

    static func reorderRuns(_ edits: [Edit]) -> [Edit] {
        var result: [Edit] = []
        var deletes: [Edit] = []
        var inserts: [Edit] = []
        func flush() {
            result += deletes + inserts
            deletes = []
            inserts = []
        }
        for edit in edits {
            switch edit {
            case .same:
                flush()
                result.append(edit)
            case .delete: deletes.append(edit)
            case .insert: inserts.append(edit)
            }
        }
        flush()
        return result
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

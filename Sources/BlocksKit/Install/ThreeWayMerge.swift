/// A three-way line merge (diff3) of a user's copy of a file and a newer upstream
/// version, from the version both started from. `blocks update` needs it so that a
/// user's edits survive an update; it follows `git merge-file --diff3` so that what it
/// writes, and where it reports conflicts, is what a git user expects (held to git by
/// ThreeWayMergeOracleTests; the figures are in docs/MERGE.md).
///
/// The rules, as git's: each side is diffed against the base; changes of the two sides
/// that overlap or touch (no unchanged line between them) form one conflict, unless they
/// are the same change; everything else is taken from the side that changed it. Lines
/// keep their line endings, so CRLF files and a missing final newline come out byte for
/// byte. Pure: no I/O.
public struct ThreeWayMerge: Sendable, Equatable {
    /// The names written after the conflict markers, as `git merge-file -L` takes them:
    /// `<<<<<<< yours`, `||||||| base 1.0.0`, `>>>>>>> pager 1.1.0`.
    public struct Labels: Sendable, Equatable {
        public var ours: String
        public var base: String
        public var theirs: String

        public init(ours: String, base: String, theirs: String) {
            self.ours = ours
            self.base = base
            self.theirs = theirs
        }
    }

    /// Which side `settled(taking:)` keeps in each conflict (`--ours` / `--theirs`).
    public enum Side: Sendable {
        case ours
        case theirs
    }

    /// A region both sides changed differently. Line ranges are 0-based and half-open,
    /// in each input; `markerLine` is the 0-based line of its `<<<<<<<` in `merged`.
    public struct Conflict: Sendable, Equatable {
        public var base: Range<Int>
        public var ours: Range<Int>
        public var theirs: Range<Int>
        public var markerLine: Int
    }

    /// The merged bytes, with conflict markers where the sides disagree.
    public let merged: [UInt8]
    /// Every conflict, in file order; empty when the merge is clean.
    public let conflicts: [Conflict]
    /// The merge as parts, to settle conflicts by taking one side.
    private let parts: [Part]

    public var isClean: Bool { conflicts.isEmpty }
    /// `merged` as text (the inputs' bytes, decoded as UTF-8).
    public var text: String { String(decoding: merged, as: UTF8.self) }

    /// Merges the changes from `base` to `ours` and from `base` to `theirs`.
    public init(base: [UInt8], ours: [UInt8], theirs: [UInt8], labels: Labels) {
        // One side unchanged: the other side is the result, as it is for git.
        if ours == base || ours == theirs {
            self.init(parts: [.agreed(theirs)], conflicts: [])
            return
        }
        if theirs == base {
            self.init(parts: [.agreed(ours)], conflicts: [])
            return
        }
        let input = Input(base: base, ours: ours, theirs: theirs)
        let chunks = Self.chunks(
            ours: MergeDiff.hunks(input.baseNumbers, input.oursNumbers),
            theirs: MergeDiff.hunks(input.baseNumbers, input.theirsNumbers))
        var builder = Builder(input: input, labels: labels)
        for chunk in chunks { builder.add(chunk) }
        builder.finish()
        self.init(parts: builder.parts, conflicts: builder.conflicts)
    }

    /// Merges texts; see `init(base:ours:theirs:labels:)`.
    public init(base: String, ours: String, theirs: String, labels: Labels) {
        self.init(base: Array(base.utf8), ours: Array(ours.utf8), theirs: Array(theirs.utf8), labels: labels)
    }

    private init(parts: [Part], conflicts: [Conflict]) {
        self.parts = parts
        self.conflicts = conflicts
        merged = parts.flatMap { part -> [UInt8] in
            switch part {
            case .agreed(let bytes): return bytes
            case .conflict(_, _, let marked): return marked
            }
        }
    }

    /// The merge with every conflict settled by taking `side`'s lines as they are, no
    /// markers: what `git merge-file --diff3 --ours` (or `--theirs`) writes.
    public func settled(taking side: Side) -> [UInt8] {
        parts.flatMap { part -> [UInt8] in
            switch part {
            case .agreed(let bytes): return bytes
            case .conflict(let ours, let theirs, _): return side == .ours ? ours : theirs
            }
        }
    }

    /// Whether `bytes` still hold a conflict block as this merge (and git) writes one: a
    /// `<<<<<<<` line, then a `=======` line, then a `>>>>>>>` line. `status` shows such
    /// a file as conflicted until the user removes the markers.
    public static func containsConflictMarkers(_ bytes: [UInt8]) -> Bool {
        let openers: [[UInt8]] = [Array("<<<<<<<".utf8), Array("=======".utf8), Array(">>>>>>>".utf8)]
        var expected = 0
        for line in lines(bytes) {
            let marker = openers[expected]
            guard line.starts(with: marker) else { continue }
            let rest = line.dropFirst(marker.count)
            // The separator stands alone; the others may carry a label.
            let allowed: Set<UInt8> = expected == 1 ? [0x0D, 0x0A] : [0x20, 0x0D, 0x0A]
            guard rest.first.map(allowed.contains) ?? true else { continue }
            expected += 1
            if expected == openers.count { return true }
        }
        return false
    }

    /// A file that still holds conflict blocks as this merge writes them, with each block
    /// replaced by one side's lines: how `update --theirs`/`--ours` settles a conflict an
    /// earlier `update` wrote. Nil when `bytes` hold no complete conflict block.
    public static func settlingMarkers(_ bytes: [UInt8], taking side: Side) -> [UInt8]? {
        enum Section { case outside, ours, base, theirs }
        func isMarker(_ line: Line, _ character: UInt8, labelled: Bool) -> Bool {
            guard line.count >= 7, line.prefix(7).allSatisfy({ $0 == character }) else { return false }
            let rest = line.dropFirst(7)
            guard let first = rest.first else { return true }
            return first == 0x0A || first == 0x0D || (labelled && first == 0x20)
        }
        var result: [UInt8] = []
        var section = Section.outside
        var raw: [UInt8] = []
        var chosen: [UInt8] = []
        var settled = false
        for line in lines(bytes) {
            if section == .outside {
                if isMarker(line, UInt8(ascii: "<"), labelled: true) {
                    section = .ours
                    raw = Array(line)
                    chosen = []
                } else {
                    result += line
                }
                continue
            }
            raw += line
            if section == .ours, isMarker(line, UInt8(ascii: "|"), labelled: true) {
                section = .base
            } else if section != .theirs, isMarker(line, UInt8(ascii: "="), labelled: false) {
                section = .theirs
            } else if section == .theirs, isMarker(line, UInt8(ascii: ">"), labelled: true) {
                section = .outside
                result += chosen
                settled = true
            } else if (section == .ours && side == .ours) || (section == .theirs && side == .theirs) {
                chosen += line
            }
        }
        guard settled else { return nil }
        // An unfinished block at the end is not a conflict block: its lines stay as they were.
        if section != .outside { result += raw }
        return result
    }

    // MARK: - Lines

    typealias Line = ArraySlice<UInt8>

    /// The lines of `bytes`, each with its "\n" (and so its "\r\n"); a last line without
    /// a newline is a line too. Lines compare as bytes, endings included, as git's do.
    static func lines(_ bytes: [UInt8]) -> [Line] {
        var result: [Line] = []
        var start = 0
        for index in bytes.indices where bytes[index] == 0x0A {
            result.append(bytes[start...index])
            start = index + 1
        }
        if start < bytes.count { result.append(bytes[start...]) }
        return result
    }

    /// The three inputs as lines, and each line as a number shared by equal lines, so that
    /// the diffs compare numbers.
    struct Input {
        let base: [Line]
        let ours: [Line]
        let theirs: [Line]
        let baseNumbers: [Int]
        let oursNumbers: [Int]
        let theirsNumbers: [Int]

        init(base: [UInt8], ours: [UInt8], theirs: [UInt8]) {
            self.base = ThreeWayMerge.lines(base)
            self.ours = ThreeWayMerge.lines(ours)
            self.theirs = ThreeWayMerge.lines(theirs)
            var numbers: [Line: Int] = [:]
            func number(_ lines: [Line]) -> [Int] {
                lines.map { line in
                    if let known = numbers[line] { return known }
                    numbers[line] = numbers.count
                    return numbers.count - 1
                }
            }
            baseNumbers = number(self.base)
            oursNumbers = number(self.ours)
            theirsNumbers = number(self.theirs)
        }
    }

    typealias Hunk = MergeDiff.Hunk

    // MARK: - Both sides

    /// A region of the base with what happens to it.
    struct Chunk: Equatable {
        /// `pair`: one hunk from each side over the same base lines, which is no
        /// conflict when both put the same lines there.
        enum Kind { case ours, theirs, pair, conflict }
        var kind: Kind
        var base: Range<Int>
        var ours: Range<Int>
        var theirs: Range<Int>
    }

    /// Groups the two sides' hunks, in base order, into chunks: hunks of different sides
    /// that overlap or touch go together (and with whatever touches them in turn). A group
    /// of one side's hunk is that side's; one hunk from each side over the same base
    /// lines is a `pair`; any other group is a conflict.
    static func chunks(ours: [Hunk], theirs: [Hunk]) -> [Chunk] {
        var chunks: [Chunk] = []
        var nextOurs = 0
        var nextTheirs = 0
        // How many lines each side has gained before the current group.
        var oursShift = 0
        var theirsShift = 0
        while nextOurs < ours.count || nextTheirs < theirs.count {
            var groupOurs: [Hunk] = []
            var groupTheirs: [Hunk] = []
            var lower = Int.max
            var upper = Int.min
            while true {
                let oursStart = nextOurs < ours.count ? ours[nextOurs].base.lowerBound : Int.max
                let theirsStart = nextTheirs < theirs.count ? theirs[nextTheirs].base.lowerBound : Int.max
                let start = min(oursStart, theirsStart)
                guard start != Int.max, lower == Int.max || start <= upper else { break }
                let hunk: Hunk
                if oursStart <= theirsStart {
                    hunk = ours[nextOurs]
                    groupOurs.append(hunk)
                    nextOurs += 1
                } else {
                    hunk = theirs[nextTheirs]
                    groupTheirs.append(hunk)
                    nextTheirs += 1
                }
                lower = min(lower, hunk.base.lowerBound)
                upper = max(upper, hunk.base.upperBound)
            }
            func gain(_ hunks: [Hunk]) -> Int { hunks.reduce(0) { $0 + $1.side.count - $1.base.count } }
            let oursGain = gain(groupOurs)
            let theirsGain = gain(groupTheirs)
            let kind: Chunk.Kind
            if groupTheirs.isEmpty {
                kind = .ours
            } else if groupOurs.isEmpty {
                kind = .theirs
            } else if groupOurs.count == 1, groupTheirs.count == 1, groupOurs[0].base == groupTheirs[0].base {
                kind = .pair
            } else {
                kind = .conflict
            }
            chunks.append(
                Chunk(
                    kind: kind, base: lower..<upper,
                    ours: (lower + oursShift)..<(upper + oursShift + oursGain),
                    theirs: (lower + theirsShift)..<(upper + theirsShift + theirsGain)))
            oursShift += oursGain
            theirsShift += theirsGain
        }
        return chunks
    }

    // MARK: - Writing the result

    private enum Part: Sendable, Equatable {
        /// Bytes both sides end up with.
        case agreed([UInt8])
        /// A conflict: each side's lines as they are, and the block with markers.
        case conflict(ours: [UInt8], theirs: [UInt8], marked: [UInt8])
    }

    /// Writes the merge chunk by chunk: the lines between chunks are the same on all
    /// three sides and are copied from ours, as git copies them.
    private struct Builder {
        let input: Input
        let labels: Labels
        var parts: [Part] = []
        var conflicts: [Conflict] = []
        var pending: [UInt8] = []
        var oursPosition = 0
        var lineCount = 0

        init(input: Input, labels: Labels) {
            self.input = input
            self.labels = labels
        }

        mutating func append(_ lines: ArraySlice<Line>) {
            for line in lines { pending += line }
            lineCount += lines.count
        }

        /// Copies ours from where the last chunk ended: lines no side changed.
        mutating func copyOurs(upTo end: Int) {
            append(input.ours[oursPosition..<end])
            oursPosition = end
        }

        mutating func finish() {
            copyOurs(upTo: input.ours.count)
            if !pending.isEmpty { parts.append(.agreed(pending)) }
            pending = []
        }

        mutating func add(_ chunk: Chunk) {
            copyOurs(upTo: chunk.ours.lowerBound)
            oursPosition = chunk.ours.upperBound
            let oursLines = input.ours[chunk.ours]
            let theirsLines = input.theirs[chunk.theirs]
            switch chunk.kind {
            case .ours:
                append(oursLines)
            case .theirs:
                append(theirsLines)
            case .pair where oursLines.elementsEqual(theirsLines):
                append(oursLines)
            case .pair, .conflict:
                if !pending.isEmpty { parts.append(.agreed(pending)) }
                pending = []
                conflicts.append(Conflict(base: chunk.base, ours: chunk.ours, theirs: chunk.theirs, markerLine: lineCount))
                let marked = markedBlock(chunk)
                lineCount += marked.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
                parts.append(.conflict(ours: Array(oursLines.joined()), theirs: Array(theirsLines.joined()), marked: marked))
            }
        }

        /// The conflict block as git writes it in diff3 style. Each section ends with a
        /// newline (added if its last line had none), and the markers and any added
        /// newline use CRLF when the file around them does.
        func markedBlock(_ chunk: Chunk) -> [UInt8] {
            let newline: [UInt8] = usesCRLF(chunk) ? [0x0D, 0x0A] : [0x0A]
            var block: [UInt8] = []
            func marker(_ character: Character, _ label: String?) {
                block += Array(String(repeating: character, count: 7).utf8)
                if let label { block += Array((" " + label).utf8) }
                block += newline
            }
            func section(_ lines: ArraySlice<Line>) {
                for line in lines { block += line }
                if let last = lines.last, last.last != 0x0A { block += newline }
            }
            marker("<", labels.ours)
            section(input.ours[chunk.ours])
            marker("|", labels.base)
            section(input.base[chunk.base])
            marker("=", nil)
            section(input.theirs[chunk.theirs])
            marker(">", labels.theirs)
            return block
        }

        /// git's choice: CRLF unless the line before the conflict in ours, or in theirs,
        /// ends in LF alone, and only if the base's first line ends in CRLF.
        func usesCRLF(_ chunk: Chunk) -> Bool {
            // An LF anywhere settles it; past that, the base's first line decides.
            Self.endsInCRLF(input.ours, max(chunk.ours.lowerBound - 1, 0)) != false
                && Self.endsInCRLF(input.theirs, max(chunk.theirs.lowerBound - 1, 0)) != false
                && Self.endsInCRLF(input.base, 0) == true
        }

        /// Whether line `index` ends in CRLF; a last line without a newline answers for
        /// the line before it. Nil when it cannot tell (no lines, or one without newline).
        static func endsInCRLF(_ lines: [Line], _ index: Int) -> Bool? {
            guard !lines.isEmpty else { return nil }
            var index = index
            if index == lines.count - 1, lines[index].last != 0x0A {
                guard index > 0 else { return nil }
                index -= 1
            }
            let line = lines[index]
            return line.count > 1 && line[line.endIndex - 2] == 0x0D
        }
    }
}

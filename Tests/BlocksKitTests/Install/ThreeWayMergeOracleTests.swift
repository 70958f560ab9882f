import Foundation
import Testing

@testable import BlocksKit

/// ThreeWayMerge held to `git merge-file --diff3`, a tool no one here wrote, on random
/// (base, ours, theirs) triples of Swift-like text. The figures are written in
/// docs/MERGE.md; `BLOCKS_UPDATE_MERGE_DOC=1 swift test --filter ThreeWayMergeOracleTests`
/// rewrites them there after a deliberate change. To explore beyond the recorded run,
/// BLOCKS_MERGE_TRIPLES, BLOCKS_MERGE_SEED and BLOCKS_MERGE_FUNCTIONS (functions per file,
/// at most) change it, and BLOCKS_MERGE_FAILURES names a file for every disagreement.
@Suite struct ThreeWayMergeOracleTests {
    static let environment = ProcessInfo.processInfo.environment
    static let isRecordedRun = ["BLOCKS_MERGE_TRIPLES", "BLOCKS_MERGE_SEED", "BLOCKS_MERGE_FUNCTIONS"].allSatisfy { environment[$0] == nil }
    static let tripleCount = environment["BLOCKS_MERGE_TRIPLES"].flatMap { Int($0) } ?? 1_000
    static let seed = environment["BLOCKS_MERGE_SEED"].flatMap { UInt64($0) } ?? 0x5EED_B10C_0014
    static let functions = environment["BLOCKS_MERGE_FUNCTIONS"].flatMap { Int($0) } ?? 6
    static let labels = ThreeWayMerge.Labels(ours: "yours", base: "base", theirs: "theirs")

    @Test func agreesWithGitMergeFile() throws {
        var generator = SeededGenerator(seed: Self.seed)
        let triples = (0..<Self.tripleCount).map { _ in Triple.random(functions: Self.functions, using: &generator) }
        let clock = ContinuousClock()
        let gitStart = clock.now
        let git = try GitMergeFile.run(triples)
        let gitTime = clock.now - gitStart
        let mergeStart = clock.now

        var figures = Figures()
        var failures: [String] = []
        func fail(_ index: Int, _ what: String, _ triple: Triple, _ oracle: GitMergeFile.Outcome, _ merge: ThreeWayMerge) {
            failures.append(
                "triple \(index): \(what)\n--- base\n\(triple.show(triple.base))--- ours\n\(triple.show(triple.ours))"
                    + "--- theirs\n\(triple.show(triple.theirs))--- git (exit \(oracle.conflicts))\n\(Triple.show(oracle.merged))"
                    + "--- ThreeWayMerge (\(merge.conflicts.count) conflicts)\n\(Triple.show(merge.merged))")
        }
        let merges = triples.map { ThreeWayMerge(base: $0.base, ours: $0.ours, theirs: $0.theirs, labels: Self.labels) }
        let mergeTime = clock.now - mergeStart
        for (index, ((triple, oracle), merge)) in zip(zip(triples, git), merges).enumerated() {
            if oracle.conflicts == 0 {
                figures.gitClean += 1
                if !merge.isClean {
                    figures.cleanWeConflict += 1
                } else if merge.merged == oracle.merged {
                    figures.cleanSame += 1
                } else {
                    // A different clean result would be a silent wrong merge: never.
                    fail(index, "a different clean result", triple, oracle, merge)
                }
            } else {
                figures.gitConflicts += 1
                if merge.isClean {
                    fail(index, "clean where git conflicts", triple, oracle, merge)
                    continue
                }
                figures.conflictWeConflict += 1
                if Self.outsideConflicts(merge.merged) == Self.outsideConflicts(oracle.merged) {
                    figures.conflictSameOutside += 1
                } else {
                    fail(index, "different text outside the conflicts", triple, oracle, merge)
                }
                if merge.merged == oracle.merged { figures.conflictSameBytes += 1 }
                if merge.conflicts.count == Int(oracle.conflicts) { figures.conflictSameCount += 1 }
                // Settling by one side is what git's --ours / --theirs write.
                if let settled = oracle.settled {
                    figures.settleChecked += 1
                    if merge.settled(taking: .ours) == settled.ours && merge.settled(taking: .theirs) == settled.theirs {
                        figures.settleSame += 1
                    } else {
                        fail(index, "settled differently from git --ours / --theirs", triple, oracle, merge)
                    }
                }
            }
            let lost = Self.lostChanges(triple, merge)
            if !lost.isEmpty {
                figures.lostChanges += 1
                fail(index, "lost changes: \(lost)", triple, oracle, merge)
            }
        }
        print("git merge-file: \(gitTime); ThreeWayMerge: \(mergeTime); checks: \(clock.now - mergeStart - mergeTime)")
        #expect(failures.isEmpty, "\(failures.count) triples disagree; the first:\n\(failures.prefix(3).joined(separator: "\n\n"))")
        if let dump = Self.environment["BLOCKS_MERGE_FAILURES"] {
            try Data(failures.joined(separator: "\n\n========\n").utf8).write(to: URL(fileURLWithPath: dump))
        }
        print(figures.summary)
        #expect(figures.gitClean + figures.gitConflicts == Self.tripleCount)
        #expect(figures.cleanSame * 100 >= figures.gitClean * 99, "\(figures.summary)")
        #expect(figures.conflictWeConflict == figures.gitConflicts, "\(figures.summary)")
        // Both kinds must be well represented for the figures to mean anything.
        #expect(figures.gitClean >= Self.tripleCount / 4 && figures.gitConflicts >= Self.tripleCount / 4, "\(figures.summary)")
        if Self.isRecordedRun { try Self.checkDocument(figures) }
    }

    /// The merged text with each conflict block (markers included) replaced by one line.
    static func outsideConflicts(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        var kept: [ArraySlice<UInt8>] = []
        var inside = false
        for line in ThreeWayMerge.lines(bytes) {
            if line.starts(with: Array("<<<<<<<".utf8)) {
                inside = true
                kept.append(ArraySlice("<conflict>".utf8))
            } else if line.starts(with: Array(">>>>>>>".utf8)) {
                inside = false
            } else if !inside {
                kept.append(line)
            }
        }
        return kept
    }

    /// The changes made on one side only that the merge does not hold. Such a change has
    /// a base line before and after it that neither side touched (touching changes
    /// conflict), so the merge must hold those two lines with the change between them
    /// (or the start or end of the file where there is no such line).
    static func lostChanges(_ triple: Triple, _ merge: ThreeWayMerge) -> [String] {
        let input = ThreeWayMerge.Input(base: triple.base, ours: triple.ours, theirs: triple.theirs)
        let merged = ThreeWayMerge.lines(merge.merged)
        let oursHunks = MergeDiff.hunks(input.baseNumbers, input.oursNumbers)
        let theirsHunks = MergeDiff.hunks(input.baseNumbers, input.theirsNumbers)
        var lost: [String] = []
        for (name, hunks, others, lines) in [("ours", oursHunks, theirsHunks, input.ours), ("theirs", theirsHunks, oursHunks, input.theirs)] {
            for hunk in hunks where !others.contains(where: { $0.base.lowerBound <= hunk.base.upperBound && hunk.base.lowerBound <= $0.base.upperBound }) {
                let atStart = hunk.base.lowerBound == 0
                let atEnd = hunk.base.upperBound == input.base.count
                let needle =
                    (atStart ? [] : [input.base[hunk.base.lowerBound - 1]]) + lines[hunk.side]
                    + (atEnd ? [] : [input.base[hunk.base.upperBound]])
                let found: Bool
                switch (atStart, atEnd) {
                case (true, true): found = merged.elementsEqual(needle)
                case (true, false): found = merged.starts(with: needle)
                case (false, true): found = merged.reversed().starts(with: needle.reversed())
                case (false, false):
                    found =
                        needle.count <= merged.count
                        && (0...(merged.count - needle.count)).contains { merged[$0..<($0 + needle.count)].elementsEqual(needle) }
                }
                if !found { lost.append("\(name) hunk \(hunk) is not in the result") }
            }
        }
        return lost
    }

    static let documentURL = repositoryRoot.appendingPathComponent("docs/MERGE.md")

    /// docs/MERGE.md states the figures this test prints; a change to the merge or to the
    /// triples must update them (with BLOCKS_UPDATE_MERGE_DOC=1).
    static func checkDocument(_ figures: Figures) throws {
        let document = try String(contentsOf: documentURL, encoding: .utf8)
        let marker = "Figures: "
        let line = marker + figures.summary
        if environment["BLOCKS_UPDATE_MERGE_DOC"] == "1" {
            let updated = document.split(separator: "\n", omittingEmptySubsequences: false)
                .map { $0.hasPrefix(marker) ? Substring(line) : $0 }.joined(separator: "\n")
            try Data(updated.utf8).write(to: documentURL, options: .atomic)
            return
        }
        #expect(document.contains(line + "\n"), "docs/MERGE.md should say: \(line)")
    }

    struct Figures {
        var gitClean = 0
        var cleanSame = 0
        var cleanWeConflict = 0
        var gitConflicts = 0
        var conflictWeConflict = 0
        var conflictSameOutside = 0
        var conflictSameBytes = 0
        var conflictSameCount = 0
        var settleChecked = 0
        var settleSame = 0
        var lostChanges = 0

        var summary: String {
            "\(gitClean + gitConflicts) triples: git clean \(gitClean), we agree byte-for-byte on \(cleanSame), "
                + "we conflict on \(cleanWeConflict); git conflicts \(gitConflicts), we conflict on \(conflictWeConflict), "
                + "same text outside the conflicts on \(conflictSameOutside), same bytes with markers on \(conflictSameBytes), "
                + "same number of conflicts on \(conflictSameCount); settled as git --ours/--theirs on \(settleSame) of \(settleChecked); "
                + "changes lost \(lostChanges)"
        }
    }
}

/// A deterministic random number generator (SplitMix64), so every run sees the same triples.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// A base file of Swift-like code and two edited copies: line edits, inserts, deletes and
/// moves on one or both sides, sometimes the same edit on both, sometimes CRLF line
/// endings or a missing final newline.
struct Triple {
    var base: [UInt8]
    var ours: [UInt8]
    var theirs: [UInt8]

    func show(_ bytes: [UInt8]) -> String { Self.show(bytes) }

    /// Bytes as text with CR and a missing final newline made visible.
    static func show(_ bytes: [UInt8]) -> String {
        let text = String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "\r", with: "\\r")
        return text.isEmpty || text.hasSuffix("\n") ? text : text + "\\ no newline at end\n"
    }

    static let statements = [
        "    let total = value + 1", "    return total", "    return value", "    }", "",
        "    guard value > 0 else { return 0 }", "    if value > 10 {", "        return value",
        "        print(value)", "    print(total)", "    // TODO: tidy", "    var items: [String] = []",
        "    items.append(\"a\")", "    defer { log() }",
    ]
    static let names = ["load", "save", "render", "update", "title", "reset", "count", "layout"]

    static func random(functions: Int, using generator: inout SeededGenerator) -> Triple {
        var base = ["import SwiftUI", ""]
        for index in 0..<Int.random(in: 2...max(2, functions), using: &generator) {
            let name = names.randomElement(using: &generator)! + "\(index)"
            let body = (0..<Int.random(in: 1...6, using: &generator)).map { _ in statements.randomElement(using: &generator)! }
            if Bool.random(using: &generator) {
                base += ["struct \(name.capitalized)View: View {", "    var body: some View {"]
                base += body.map { $0.isEmpty ? $0 : "    " + $0 }
                base += ["    }", "}", ""]
            } else {
                base += ["func \(name)(_ value: Int) -> Int {"] + body + ["}", ""]
            }
        }
        var ours = base
        var theirs = base
        let who = Int.random(in: 0..<10, using: &generator)
        // Sometimes both sides make the same edit first (a fix both took).
        if Int.random(in: 0..<5, using: &generator) == 0 {
            var shared = generator
            edit(&ours, tag: "both", using: &shared)
            edit(&theirs, tag: "both", using: &generator)
        }
        if who != 0 {
            for _ in 0..<Int.random(in: 1...3, using: &generator) { edit(&theirs, tag: "upstream", using: &generator) }
        }
        if who != 1 {
            for _ in 0..<Int.random(in: 1...3, using: &generator) { edit(&ours, tag: "user", using: &generator) }
        }
        let crlf = Int.random(in: 0..<10, using: &generator) == 0
        func render(_ lines: [String]) -> [UInt8] {
            let ending = crlf ? "\r\n" : "\n"
            var text = lines.map { $0 + ending }.joined()
            if Int.random(in: 0..<10, using: &generator) == 0, text.hasSuffix(ending) { text.removeLast() }
            return Array(text.utf8)
        }
        return Triple(base: render(base), ours: render(ours), theirs: render(theirs))
    }

    /// One random edit: change a line, insert lines, delete lines, or move a few lines.
    static func edit(_ lines: inout [String], tag: String, using generator: inout SeededGenerator) {
        func newLine() -> String {
            Bool.random(using: &generator)
                ? statements.randomElement(using: &generator)!
                : "    let \(tag)\(Int.random(in: 0..<100, using: &generator)) = \(Int.random(in: 0..<10, using: &generator))"
        }
        switch Int.random(in: 0..<4, using: &generator) {
        case 0 where !lines.isEmpty:
            let index = Int.random(in: 0..<lines.count, using: &generator)
            lines[index] = Bool.random(using: &generator) ? lines[index] + " // \(tag)" : newLine()
        case 1:
            let index = Int.random(in: 0...lines.count, using: &generator)
            lines.insert(contentsOf: (0..<Int.random(in: 1...3, using: &generator)).map { _ in newLine() }, at: index)
        case 2 where !lines.isEmpty:
            let index = Int.random(in: 0..<lines.count, using: &generator)
            lines.removeSubrange(index..<min(lines.count, index + Int.random(in: 1...3, using: &generator)))
        case 3 where lines.count > 4:
            let start = Int.random(in: 0..<lines.count, using: &generator)
            let range = start..<min(lines.count, start + Int.random(in: 1...4, using: &generator))
            let moved = Array(lines[range])
            lines.removeSubrange(range)
            lines.insert(contentsOf: moved, at: Int.random(in: 0...lines.count, using: &generator))
        default:
            lines.append(newLine())
        }
    }
}

/// Runs `git merge-file` on every triple from one shell loop (one spawn of the shell,
/// git per triple), with the diff3 style and the same labels as the tests.
enum GitMergeFile {
    struct Outcome {
        var merged: [UInt8]
        var conflicts: Int32
        /// What --ours and --theirs write, for every `settleEvery`-th triple that conflicts.
        var settled: (ours: [UInt8], theirs: [UInt8])?
    }

    static let settleEvery = 4

    static func run(_ triples: [Triple]) throws -> [Outcome] {
        let folder = try TemporaryFolder("merge-oracle")
        defer { folder.cleanUp() }
        for (index, triple) in triples.enumerated() {
            try Data(triple.base).write(to: folder.path("\(index).base"))
            try Data(triple.ours).write(to: folder.path("\(index).ours"))
            try Data(triple.theirs).write(to: folder.path("\(index).theirs"))
        }
        func bytes(_ name: String) -> [UInt8] { Array(FileManager.default.contents(atPath: folder.path(name).path) ?? Data()) }
        // Two loops, one per core, each in its own shell (a shell's `wait` for
        // background jobs can hang under the test runner's signal mask). Settling
        // (--ours / --theirs) is checked on every fourth triple, which keeps the run short.
        func loop(from start: Int) -> String {
            """
            i=\(start)
            while [ $i -lt \(triples.count) ]; do
              git merge-file -p --diff3 -L yours -L base -L theirs $i.ours $i.base $i.theirs > $i.merged 2>> errors
              code=$?
              echo $code > $i.code
              if [ $code -gt 0 ] && [ $((i % \(settleEvery))) -eq 0 ]; then
                git merge-file -p --diff3 --ours $i.ours $i.base $i.theirs > $i.settled-ours 2>> errors
                git merge-file -p --diff3 --theirs $i.ours $i.base $i.theirs > $i.settled-theirs 2>> errors
              fi
              i=$((i + 2))
            done
            """
        }
        // No user or system git configuration may change how git merges.
        let environment = ["PATH": "/usr/bin:/bin", "HOME": folder.url.path, "GIT_CONFIG_NOSYSTEM": "1", "LC_ALL": "C"]
        let shells = try [0, 1].map { start in
            try TestProcess.start(
                URL(fileURLWithPath: "/bin/sh"), ["-c", loop(from: start)], in: folder.url, environment: environment, captureOutput: false)
        }
        // Bounded: a stuck git fails the test instead of hanging it.
        let deadline = Date().addingTimeInterval(180)
        while shells.contains(where: { $0.isRunning }) && Date() < deadline { usleep(20_000) }
        for shell in shells where shell.isRunning { shell.terminate() }
        for shell in shells { shell.waitUntilExit() }
        #expect(shells.allSatisfy { $0.status == 0 }, "\(String(decoding: bytes("errors"), as: UTF8.self))")
        return try triples.indices.map { index in
            let codeText = String(decoding: bytes("\(index).code"), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            guard let code = Int32(codeText), code >= 0, code < 128 else { throw OracleError.gitFailed(index, codeText) }
            let settled = code > 0 && index % settleEvery == 0
            return Outcome(
                merged: bytes("\(index).merged"), conflicts: code,
                settled: settled ? (bytes("\(index).settled-ours"), bytes("\(index).settled-theirs")) : nil)
        }
    }

    enum OracleError: Error { case gitFailed(Int, String) }
}

import Foundation
import Testing

@testable import BlocksKit

/// ThreeWayMerge by hand: each case states the exact bytes expected, and checks that
/// `git merge-file --diff3` writes the same bytes and reports the same number of conflicts.
@Suite struct ThreeWayMergeTests {
    static let labels = ThreeWayMerge.Labels(ours: "yours", base: "base 1.0.0", theirs: "pager 1.1.0")

    static let base = """
        import SwiftUI

        func pageCount(total: Int, perPage: Int) -> Int {
            let pages = total / perPage
            return pages
        }

        func clampPage(_ page: Int, count: Int) -> Int {
            if page < 0 { return 0 }
            return min(page, count)
        }

        """

    /// Merges with ThreeWayMerge and with git, checks both give `expected`, and returns ours.
    @discardableResult
    func check(_ base: String, _ ours: String, _ theirs: String, expected: String, conflicts: Int) throws -> ThreeWayMerge {
        let merge = ThreeWayMerge(base: base, ours: ours, theirs: theirs, labels: Self.labels)
        #expect(merge.text == expected)
        #expect(merge.merged == Array(expected.utf8))
        #expect(merge.conflicts.count == conflicts)
        #expect(merge.isClean == (conflicts == 0))
        let git = try gitMergeFile(base, ours, theirs)
        #expect(git.merged == expected, "git merge-file wrote another result")
        #expect(git.conflicts == conflicts)
        return merge
    }

    /// As in git, changes with no unchanged line between them are one conflict.
    @Test func changesOnAdjacentLinesConflict() throws {
        let ours = Self.base.replacingOccurrences(of: "    return pages\n", with: "    return max(pages, 1)\n")
        let theirs = Self.base.replacingOccurrences(
            of: "    let pages = total / perPage\n", with: "    let pages = (total + perPage - 1) / perPage\n")
        let expected = """
            import SwiftUI

            func pageCount(total: Int, perPage: Int) -> Int {
            <<<<<<< yours
                let pages = total / perPage
                return max(pages, 1)
            ||||||| base 1.0.0
                let pages = total / perPage
                return pages
            =======
                let pages = (total + perPage - 1) / perPage
                return pages
            >>>>>>> pager 1.1.0
            }

            func clampPage(_ page: Int, count: Int) -> Int {
                if page < 0 { return 0 }
                return min(page, count)
            }

            """
        try check(Self.base, ours, theirs, expected: expected, conflicts: 1)
    }

    @Test func anEditInOneFunctionAndAnUpstreamFixInAnotherMergeCleanly() throws {
        let ours = Self.base.replacingOccurrences(of: "    return pages\n", with: "    return max(pages, 1)\n")
        let theirs = Self.base.replacingOccurrences(of: "    return min(page, count)\n", with: "    return min(page, count - 1)\n")
        let expected = Self.base.replacingOccurrences(of: "    return pages\n", with: "    return max(pages, 1)\n")
            .replacingOccurrences(of: "    return min(page, count)\n", with: "    return min(page, count - 1)\n")
        try check(Self.base, ours, theirs, expected: expected, conflicts: 0)
    }

    @Test func bothSidesEditingTheSameLineConflict() throws {
        let ours = Self.base.replacingOccurrences(of: "    return pages\n", with: "    return max(pages, 1)\n")
        let theirs = Self.base.replacingOccurrences(of: "    return pages\n", with: "    return pages == 0 ? 1 : pages\n")
        let expected = """
            import SwiftUI

            func pageCount(total: Int, perPage: Int) -> Int {
                let pages = total / perPage
            <<<<<<< yours
                return max(pages, 1)
            ||||||| base 1.0.0
                return pages
            =======
                return pages == 0 ? 1 : pages
            >>>>>>> pager 1.1.0
            }

            func clampPage(_ page: Int, count: Int) -> Int {
                if page < 0 { return 0 }
                return min(page, count)
            }

            """
        let merge = try check(Self.base, ours, theirs, expected: expected, conflicts: 1)
        #expect(merge.conflicts == [ThreeWayMerge.Conflict(base: 4..<5, ours: 4..<5, theirs: 4..<5, markerLine: 4)])
        #expect(ThreeWayMerge.containsConflictMarkers(merge.merged))
        #expect(merge.settled(taking: .ours) == Array(ours.utf8))
        #expect(merge.settled(taking: .theirs) == Array(theirs.utf8))
    }

    @Test func identicalEditsOnBothSidesAreClean() throws {
        let fixed = Self.base.replacingOccurrences(of: "    return pages\n", with: "    return max(pages, 1)\n")
        try check(Self.base, fixed, fixed, expected: fixed, conflicts: 0)
        // The same fix on both sides, and another change upstream.
        let theirs = fixed.replacingOccurrences(of: "import SwiftUI\n", with: "import Foundation\nimport SwiftUI\n")
        try check(Self.base, fixed, theirs, expected: theirs, conflicts: 0)
    }

    @Test func insertionsAtTheSamePlaceConflict() throws {
        let ours = Self.base.replacingOccurrences(of: "    return pages\n", with: "    return pages\n    // yours\n")
        let theirs = Self.base.replacingOccurrences(of: "    return pages\n", with: "    return pages\n    // upstream\n")
        let expected = """
            import SwiftUI

            func pageCount(total: Int, perPage: Int) -> Int {
                let pages = total / perPage
                return pages
            <<<<<<< yours
                // yours
            ||||||| base 1.0.0
            =======
                // upstream
            >>>>>>> pager 1.1.0
            }

            func clampPage(_ page: Int, count: Int) -> Int {
                if page < 0 { return 0 }
                return min(page, count)
            }

            """
        let merge = try check(Self.base, ours, theirs, expected: expected, conflicts: 1)
        #expect(merge.conflicts.first?.base == 5..<5)
        // The same insertion on both sides is not a conflict.
        try check(Self.base, ours, ours, expected: ours, conflicts: 0)
    }

    @Test func crlfLineEndingsSurvive() throws {
        func crlf(_ text: String) -> String { text.replacingOccurrences(of: "\n", with: "\r\n") }
        let ours = Self.base.replacingOccurrences(of: "    return pages\n", with: "    return max(pages, 1)\n")
        let theirs = Self.base.replacingOccurrences(of: "    return min(page, count)\n", with: "    return min(page, count - 1)\n")
        let clean = Self.base.replacingOccurrences(of: "    return pages\n", with: "    return max(pages, 1)\n")
            .replacingOccurrences(of: "    return min(page, count)\n", with: "    return min(page, count - 1)\n")
        let merge = try check(crlf(Self.base), crlf(ours), crlf(theirs), expected: crlf(clean), conflicts: 0)
        #expect(merge.merged.filter { $0 == 0x0A }.count == merge.merged.filter { $0 == 0x0D }.count)
        // In a CRLF file the markers end in CRLF too.
        let conflicting = Self.base.replacingOccurrences(of: "    return pages\n", with: "    return pages + 0\n")
        let marked = try check(
            crlf(Self.base), crlf(ours), crlf(conflicting),
            expected: crlf(
                Self.base.replacingOccurrences(
                    of: "    return pages\n",
                    with: "<<<<<<< yours\n    return max(pages, 1)\n||||||| base 1.0.0\n    return pages\n=======\n    return pages + 0\n>>>>>>> pager 1.1.0\n")
            ),
            conflicts: 1)
        #expect(ThreeWayMerge.containsConflictMarkers(marked.merged))
    }

    @Test func aMissingFinalNewlineSurvives() throws {
        let base = String(Self.base.dropLast())
        #expect(!base.hasSuffix("\n"))
        let ours = base.replacingOccurrences(of: "import SwiftUI\n", with: "import SwiftUI\nimport Observation\n")
        let theirs = base.replacingOccurrences(of: "    return pages\n", with: "    return max(pages, 1)\n")
        try check(base, ours, theirs, expected: "import SwiftUI\nimport Observation\n" + String(theirs.dropFirst("import SwiftUI\n".count)), conflicts: 0)
        // Upstream adds the final newline, the user edits elsewhere: the newline arrives.
        try check(base, ours, base + "\n", expected: ours + "\n", conflicts: 0)
        // Both change the last line: each side of the conflict ends in a newline, as git writes it.
        let prefix = String(base.dropLast())
        let oursLast = prefix + "} // clampPage"
        let theirsLast = prefix + "}  "
        try check(
            base, oursLast, theirsLast,
            expected: prefix + "<<<<<<< yours\n} // clampPage\n||||||| base 1.0.0\n}\n=======\n}  \n>>>>>>> pager 1.1.0\n",
            conflicts: 1)
    }

    @Test func settlingTakesOneSideOfEveryConflict() throws {
        let ours = Self.base.replacingOccurrences(of: "    return pages\n", with: "    return max(pages, 1)\n")
            .replacingOccurrences(of: "    return min(page, count)\n", with: "    return min(page, count) // yours\n")
            .replacingOccurrences(of: "import SwiftUI\n", with: "import SwiftUI // yours\n")
        let theirs = Self.base.replacingOccurrences(of: "    return pages\n", with: "    return pages + 0\n")
            .replacingOccurrences(of: "    return min(page, count)\n", with: "    return min(page, count - 1)\n")
            .replacingOccurrences(of: "func clampPage", with: "public func clampPage")
        let merge = ThreeWayMerge(base: Self.base, ours: ours, theirs: theirs, labels: Self.labels)
        #expect(merge.conflicts.count == 2)
        let git = try gitMergeFile(Self.base, ours, theirs, extra: ["--ours"])
        #expect(String(decoding: merge.settled(taking: .ours), as: UTF8.self) == git.merged)
        let gitTheirs = try gitMergeFile(Self.base, ours, theirs, extra: ["--theirs"])
        #expect(String(decoding: merge.settled(taking: .theirs), as: UTF8.self) == gitTheirs.merged)
        // The user's first line and upstream's `public` are no conflict, so both settle with them.
        for side in [ThreeWayMerge.Side.ours, .theirs] {
            let text = String(decoding: merge.settled(taking: side), as: UTF8.self)
            #expect(text.hasPrefix("import SwiftUI // yours\n") && text.contains("public func clampPage"))
            #expect(!ThreeWayMerge.containsConflictMarkers(merge.settled(taking: side)))
        }
    }

    @Test func conflictMarkersAreFoundOnlyInOrder() {
        #expect(!ThreeWayMerge.containsConflictMarkers(Array(Self.base.utf8)))
        // A Markdown heading underline or a lone marker is not a conflict.
        #expect(!ThreeWayMerge.containsConflictMarkers(Array("Title\n=======\n\ntext\n".utf8)))
        #expect(!ThreeWayMerge.containsConflictMarkers(Array(">>>>>>> x\n=======\n<<<<<<< y\n".utf8)))
        #expect(ThreeWayMerge.containsConflictMarkers(Array("<<<<<<< yours\na\n=======\nb\n>>>>>>> theirs\n".utf8)))
        #expect(ThreeWayMerge.containsConflictMarkers(Array("<<<<<<< yours\r\na\r\n||||||| base\r\n=======\r\n>>>>>>> theirs".utf8)))
    }

    /// A swapped pair of lines can be described keeping either line; git keeps the
    /// second (its search prefers deleting first), so MergeDiff does, and so LineDiff,
    /// which prints from it.
    @Test func aMoveIsDescribedAsGitDescribesIt() {
        let old = [0, 1, 2, 3]  // x a b y
        let new = [0, 2, 1, 3]  // x b a y
        #expect(
            MergeDiff.hunks(old, new) == [
                MergeDiff.Hunk(base: 1..<2, side: 1..<1),
                MergeDiff.Hunk(base: 3..<3, side: 2..<3),
            ])
        let table = LineDiff.script(["x", "a", "b", "y"], ["x", "b", "a", "y"])
        #expect(table == [.same(0, 0), .delete(1), .same(2, 1), .insert(2), .same(3, 3)])
    }

    /// A line found many times in the other file (`}` here), standing among new lines, is
    /// left out of git's search, so it is not matched to one of those; git then sees one
    /// insertion where matching it would give two (found by comparing with `git diff`).
    @Test func aFrequentLineAmongNewLinesIsNotMatched() {
        let old = "f0 {||}|f1 {||}|f2 {||}|f3 {||}|f4 {|}|}|f5 {|}|}|f6 {||}|f7 {|}|}|f8 {||}|f9 {||}"
        let new =
            "f0 {||}|f1 {||}|f2 {||}|f3 {||}|f4 {|}|n1|n2|n3||n4|n5|n6|n7|n8|n9|n10|}|n11|n12|n13|n14|n15||n16|n17|"
            + "f5 {|}|}|f6 {||}|f7 {|}|}|f8 {||}|f9 {||}"
        var numbers: [Substring: Int] = [:]
        func number(_ text: String) -> [Int] {
            text.split(separator: "|", omittingEmptySubsequences: false).map { line in
                if let known = numbers[line] { return known }
                numbers[line] = numbers.count
                return numbers.count - 1
            }
        }
        #expect(MergeDiff.hunks(number(old), number(new)) == [MergeDiff.Hunk(base: 14..<15, side: 14..<34)])
    }

    /// Large, very different files push the search past the cost where git stops looking
    /// for the best split and takes a good one; the result must still be git's.
    @Test func largeFilesWithManyChangesAgreeWithGit() throws {
        var generator = SeededGenerator(seed: 14)
        let vocabulary = (0..<40).map { "    line \($0)" } + ["}", "", "    }", "    return value"]
        let base = (0..<3_000).map { _ in vocabulary.randomElement(using: &generator)! }
        func edited(_ tag: String) -> String {
            var lines = base
            for _ in 0..<1_500 {
                let index = Int.random(in: 0..<lines.count, using: &generator)
                switch Int.random(in: 0..<3, using: &generator) {
                case 0: lines[index] = "    \(tag) \(Int.random(in: 0..<50, using: &generator))"
                case 1: lines.insert(vocabulary.randomElement(using: &generator)!, at: index)
                default: lines.remove(at: index)
                }
            }
            return lines.joined(separator: "\n") + "\n"
        }
        let baseText = base.joined(separator: "\n") + "\n"
        let ours = edited("yours")
        let theirs = edited("upstream")
        let merge = ThreeWayMerge(base: baseText, ours: ours, theirs: theirs, labels: Self.labels)
        let git = try gitMergeFile(baseText, ours, theirs)
        #expect(merge.text == git.merged)
        // git's exit code counts conflicts only up to 127; its markers count them all.
        let gitBlocks = git.merged.split(separator: "\n").filter { $0.hasPrefix("<<<<<<< ") }.count
        #expect(gitBlocks > 127 && git.conflicts == 127)
        #expect(merge.conflicts.count == gitBlocks)
    }

    func gitMergeFile(_ base: String, _ ours: String, _ theirs: String, extra: [String] = []) throws -> (merged: String, conflicts: Int) {
        let folder = try TemporaryFolder("merge-by-hand")
        defer { folder.cleanUp() }
        try folder.write("base", base)
        try folder.write("ours", ours)
        try folder.write("theirs", theirs)
        let environment = ["PATH": "/usr/bin:/bin", "HOME": folder.url.path, "GIT_CONFIG_NOSYSTEM": "1"]
        let result = try runProcess(
            URL(fileURLWithPath: "/usr/bin/git"),
            ["merge-file", "-p", "--diff3", "-L", Self.labels.ours, "-L", Self.labels.base, "-L", Self.labels.theirs] + extra
                + ["ours", "base", "theirs"],
            in: folder.url, environment: environment)
        return (result.out, Int(result.code))
    }
}

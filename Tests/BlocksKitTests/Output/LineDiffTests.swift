import Foundation
import Testing

@testable import BlocksKit

@Suite struct LineDiffTests {
    @Test func equalTextsGiveNoDiff() {
        #expect(LineDiff.unified(old: "a\nb\n", new: "a\nb\n", oldName: "a", newName: "b") == "")
    }

    @Test func aChangedLineWithContext() {
        let old = (1...10).map { "line \($0)" }.joined(separator: "\n") + "\n"
        let new = old.replacingOccurrences(of: "line 5\n", with: "line five\n")
        let diff = LineDiff.unified(old: old, new: new, oldName: "a/f", newName: "b/f")
        #expect(
            diff == """
                --- a/f
                +++ b/f
                @@ -2,7 +2,7 @@
                 line 2
                 line 3
                 line 4
                -line 5
                +line five
                 line 6
                 line 7
                 line 8

                """)
    }

    @Test func additionsToAnEmptyFile() {
        let diff = LineDiff.unified(old: "", new: "a\nb\n", oldName: "a/f", newName: "b/f")
        #expect(diff == "--- a/f\n+++ b/f\n@@ -0,0 +1,2 @@\n+a\n+b\n")
    }

    /// The hunks match GNU diff's, and `patch` applies ours to get the new text back.
    @Test(arguments: [
        ("a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\nm\n", "a\nB\nc\nd\ne\nf\ng\nh\ni\nj\nk\nL\nm\nn\n"),
        ("x\ny\nz\n", "y\nz\nw\n"),
        ("one\ntwo\nthree\n", "zero\none\nthree\nfour\n"),
        ("1\n2\n3\n4\n5\n6\n7\n8\n", "1\n2\n3\n4\n5\n6\n7\n8\n9\n"),
    ])
    func matchesGNUDiffAndPatch(old: String, new: String) throws {
        let folder = try TestProject.temporaryFolder("diff")
        defer { try? FileManager.default.removeItem(at: folder) }
        let oldFile = folder.appendingPathComponent("old")
        let newFile = folder.appendingPathComponent("new")
        try Data(old.utf8).write(to: oldFile)
        try Data(new.utf8).write(to: newFile)
        let ours = LineDiff.unified(old: old, new: new, oldName: "old", newName: "new")
        let theirs = try run("/usr/bin/diff", ["-u", "old", "new"], in: folder)
        func hunks(_ text: String) -> [String] { text.split(separator: "\n").filter { !$0.hasPrefix("---") && !$0.hasPrefix("+++") }.map(String.init) }
        #expect(hunks(ours).filter { $0.hasPrefix("@@") } == hunks(theirs).filter { $0.hasPrefix("@@") })
        try Data(ours.utf8).write(to: folder.appendingPathComponent("ours.patch"))
        _ = try run("/usr/bin/patch", ["-s", "old", "ours.patch"], in: folder)
        #expect(String(decoding: try Data(contentsOf: oldFile), as: UTF8.self) == new)
    }

    func run(_ tool: String, _ arguments: [String], in folder: URL) throws -> String {
        try runProcess(URL(fileURLWithPath: tool), arguments, in: folder).out
    }
}

import Foundation
import Testing

@testable import BlocksKit

/// Scripts/release-formula (issue 22): from a tag it makes a `git archive` and writes the
/// formula's stable `url` and `sha256`, which must be the archive's real digest, the same
/// on every run, and never a second pair of lines.
@Suite struct ReleaseFormulaTests {
    /// A fresh git repository holding the script and the formula, with one commit.
    static func makeRepository() throws -> TemporaryFolder {
        let folder = try TemporaryFolder("release-formula")
        for file in ["Scripts/release-formula", "Formula/blocks.rb"] {
            try folder.write(file, try String(contentsOf: repositoryRoot.appendingPathComponent(file), encoding: .utf8))
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path("Scripts/release-formula").path)
        try git(["init", "-q", "-b", "main"], in: folder)
        try git(["add", "-A"], in: folder)
        try git(["-c", "user.name=Test", "-c", "user.email=test@example.invalid", "commit", "-q", "-m", "start"], in: folder)
        return folder
    }

    @discardableResult
    static func git(_ arguments: [String], in folder: TemporaryFolder) throws -> String {
        let result = try runProcess(
            URL(fileURLWithPath: "/usr/bin/env"), ["git"] + arguments, in: folder.url,
            environment: ["PATH": "/usr/bin:/bin", "HOME": folder.url.path])
        try #require(result.code == 0, "git \(arguments): \(result.err)")
        return result.out
    }

    static func release(_ arguments: [String], in folder: TemporaryFolder) throws -> (code: Int32, out: String, err: String) {
        try runProcess(
            folder.path("Scripts/release-formula"), arguments, in: folder.url,
            environment: ["PATH": "/usr/bin:/bin", "HOME": folder.url.path])
    }

    @Test func aTagGetsItsArchivesDigestAndTheGivenURL() throws {
        let folder = try Self.makeRepository()
        defer { folder.cleanUp() }
        try Self.git(["tag", "v1.2.3"], in: folder)
        let url = "https://downloads.example.invalid/blocks-1.2.3.tar.gz"
        let first = try Self.release(["v1.2.3", url], in: folder)
        #expect(first.code == 0, "\(first.err)")
        let archive = folder.path(".build/release-archives/blocks-1.2.3.tar.gz")
        let digest = try SHA256.hex(fileAt: archive)
        let formula = try #require(folder.read("Formula/blocks.rb"))
        #expect(formula.contains("  url \"\(url)\"\n  sha256 \"\(digest)\"\n"), "\(formula)")
        // The archive is the tag's tree under one top folder.
        let listing = try runTool("tar", ["-tzf", archive.path]).out
        #expect(listing.split(separator: "\n").contains("blocks-1.2.3/Formula/blocks.rb"), "\(listing)")

        // Again: the same bytes, and still one url and one sha256 line.
        let again = try Self.release(["v1.2.3", url], in: folder)
        #expect(again.code == 0)
        #expect(try SHA256.hex(fileAt: archive) == digest)
        let rewritten = try #require(folder.read("Formula/blocks.rb"))
        #expect(rewritten == formula)
        #expect(rewritten.components(separatedBy: "\n  sha256 \"").count == 2)
    }

    @Test func withoutAGitHubOriginTheURLMustBeGiven() throws {
        let folder = try Self.makeRepository()
        defer { folder.cleanUp() }
        try Self.git(["tag", "v2.0.0"], in: folder)
        let before = folder.read("Formula/blocks.rb")
        let noOrigin = try Self.release(["v2.0.0"], in: folder)
        #expect(noOrigin.code == 1)
        #expect(noOrigin.err.contains("give the archive's download URL"), "\(noOrigin.err)")
        try Self.git(["remote", "add", "origin", "https://github.com/someone/blocks.git"], in: folder)
        let fromOrigin = try Self.release(["v2.0.0"], in: folder)
        #expect(fromOrigin.code == 0, "\(fromOrigin.err)")
        #expect(
            folder.read("Formula/blocks.rb")?.contains(
                "  url \"https://github.com/someone/blocks/releases/download/v2.0.0/blocks-2.0.0.tar.gz\"\n") == true)
        #expect(before != folder.read("Formula/blocks.rb"))
    }

    @Test func badInputChangesNothing() throws {
        let folder = try Self.makeRepository()
        defer { folder.cleanUp() }
        let before = folder.read("Formula/blocks.rb")
        let usage = try Self.release([], in: folder)
        #expect(usage.code == 64)
        let missing = try Self.release(["v9.9.9", "https://x.example.invalid/a.tar.gz"], in: folder)
        #expect(missing.code == 1)
        #expect(missing.err.contains("no tag 'v9.9.9'"), "\(missing.err)")
        try Self.git(["tag", "v1.0.0"], in: folder)
        let plain = try Self.release(["v1.0.0", "http://x.example.invalid/a.tar.gz"], in: folder)
        #expect(plain.code == 1)
        #expect(plain.err.contains("must be https://"))
        #expect(folder.read("Formula/blocks.rb") == before)
    }

    /// The committed formula carries no stable url or sha256 (no placeholder), only head.
    @Test func theCommittedFormulaIsHeadOnly() throws {
        let formula = try String(contentsOf: repositoryRoot.appendingPathComponent("Formula/blocks.rb"), encoding: .utf8)
        #expect(formula.contains("  head REPOSITORY, branch: \"main\""))
        #expect(formula.contains("\"swift\", \"build\", \"-c\", \"release\", \"--disable-sandbox\""))
        #expect(!formula.contains("\n  url \"") && !formula.contains("\n  sha256 \""))
        // An ssh or file:// origin is no web page: the homepage is named only for http(s).
        let homepage = formula.split(separator: "\n").filter { $0.hasPrefix("  homepage ") }
        #expect(homepage == ["  homepage REPOSITORY.delete_suffix(\".git\") if REPOSITORY.match?(%r{\\Ahttps?://})"], "\(homepage)")
    }
}

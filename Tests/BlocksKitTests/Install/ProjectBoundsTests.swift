import Foundation
import Testing

@testable import BlocksKit

/// Issue 12's data-loss cases, each with the real binary: `remove`, `status` and `add`
/// never read, write or delete outside the project, whatever the lock, the links, an
/// export or `blocks.json` say, and `remove` never reports a delete that failed.
///
/// Each fixture is a folder holding the project (`app`) and a decoy beside it
/// (`outside`), so a hash of the whole folder shows any change on either side.
@Suite struct ProjectBoundsTests {
    let folder: TemporaryFolder
    let project: TestProject
    let catalog: TestCatalog

    init() throws {
        folder = try TemporaryFolder("bounds")
        let made = try TestProject.make()
        try FileManager.default.moveItem(at: made.root, to: folder.path("app"))
        project = TestProject(root: folder.path("app"))
        catalog = try TestCatalog.make([.standard("strip", type: "Strip"), .standard("pager", type: "Pager")])
        try folder.write("outside/victim.txt", "the user's own file\n")
        try FileManager.default.createDirectory(at: folder.path("outside/emptydir"), withIntermediateDirectories: true)
    }

    func cleanUp() {
        folder.cleanUp()
        catalog.delete()
    }

    /// Everything under the folder: the project and the decoy beside it.
    func everything() throws -> String { try TestProject(root: folder.url).treeHash() }

    func blocks(_ arguments: [String]) throws -> CommandResult {
        try project.runBinary(["--registry", catalog.root.path] + arguments)
    }

    // MARK: - 1. remove follows no link out of the project

    /// The block's folder, or the folder holding it, replaced by a link to a copy outside:
    /// `remove` (forced or not) and `status` refuse, and the copy keeps every file.
    @Test(arguments: ["Sources/App/Blocks/strip", "Sources/App/Blocks"])
    func removeRefusesAFolderThatLinksOutOfTheProject(linked: String) throws {
        defer { cleanUp() }
        #expect(try blocks(["add", "strip"]).code == 0)
        let copy = folder.path("outside/copy")
        try FileManager.default.moveItem(at: project.url(linked), to: copy)
        try FileManager.default.createSymbolicLink(at: project.url(linked), withDestinationURL: copy)
        let outsideFiles = try FileManager.default.subpathsOfDirectory(atPath: copy.path).sorted()
        #expect(outsideFiles.filter { $0.hasSuffix(".swift") }.count == 3)
        let before = try everything()
        for arguments in [["remove", "strip"], ["remove", "strip", "--force"], ["status"]] {
            let result = try blocks(arguments)
            #expect(result.code == 1, "\(arguments): \(result.output)")
            #expect(result.errors.contains("leads outside the project root"), "\(arguments): \(result.errors)")
            #expect(!result.output.contains("Removed"))
        }
        #expect(try everything() == before)
        #expect(try FileManager.default.subpathsOfDirectory(atPath: copy.path).sorted() == outsideFiles)
    }

    // MARK: - 2. a hostile blocks.lock is refused on read

    /// Lock entries no `add` could write, each naming a file or folder that exists and
    /// whose hash matches, so a command that trusted the entry would delete it.
    static let hostileEntries: [(label: String, entry: String)] = [
        ("file ../outside", #""files": [{"path": "../outside/victim.txt", "sha256": "VICTIM"}]"#),
        ("file with .. inside the folder", #""files": [{"path": "Sources/App/Blocks/strip/../../../../../outside/victim.txt", "sha256": "VICTIM"}]"#),
        ("absolute file", #""files": [{"path": "OUTSIDE/victim.txt", "sha256": "VICTIM"}]"#),
        ("file outside the block's folder", #""files": [{"path": "Package.swift", "sha256": "PACKAGE"}]"#),
        ("file in a folder that shares a prefix", #""files": [{"path": "Sources/App/Blocks/stripped/Package.swift", "sha256": "PACKAGE"}]"#),
        ("created folder ../outside", #""createdFolders": ["../outside/emptydir"]"#),
        ("created folder elsewhere in the project", #""createdFolders": ["Sources/Empty"]"#),
        ("created folder that shares a prefix", #""createdFolders": ["Sources/App/Blocks/stripped/empty"]"#),
    ]

    static func hostileLock(_ entry: String, hashes: [String: String]) -> String {
        var block = #"{"registry": "embedded", "version": "1.0.0", "folder": "Sources/App/Blocks/strip", "createdFolders": [], "files": []}"#
        let key = entry.hasPrefix(#""files""#) ? #""files": []"# : #""createdFolders": []"#
        block = block.replacingOccurrences(of: key, with: entry)
        for (name, value) in hashes { block = block.replacingOccurrences(of: name, with: value) }
        return #"{"lockVersion": 1, "blocks": {"strip": \#(block)}}"#
    }

    /// Every command that reads the lock refuses it with one error naming the entry, and
    /// nothing changes anywhere: not the decoy outside, not the project.
    @Test(arguments: hostileEntries.indices)
    func aHostileLockIsRefusedAndNothingIsDeleted(index: Int) throws {
        defer { cleanUp() }
        let (label, entry) = Self.hostileEntries[index]
        try FileManager.default.createDirectory(at: project.url("Sources/Empty"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: project.url("Sources/App/Blocks/stripped"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: project.url("Sources/App/Blocks/stripped/empty"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: project.url("Package.swift"), to: project.url("Sources/App/Blocks/stripped/Package.swift"))
        let hashes = [
            "VICTIM": try SHA256.hex(fileAt: folder.path("outside/victim.txt")),
            "PACKAGE": try SHA256.hex(fileAt: project.url("Package.swift")),
            "OUTSIDE": folder.path("outside").path,
        ]
        try project.write("blocks.lock", Self.hostileLock(entry, hashes: hashes))
        let before = try everything()
        for arguments in [["remove", "strip"], ["remove", "strip", "--force"], ["status"], ["add", "strip", "--overwrite"]] {
            let result = try blocks(arguments)
            #expect(result.code == 1, "\(label), \(arguments): \(result.output)")
            #expect(result.errors.contains("blocks.lock is not safe to use: it gives block 'strip' the "), "\(label), \(arguments): \(result.errors)")
            #expect(result.errors.components(separatedBy: "\n").filter { !$0.isEmpty }.count == 1, "\(label): one error")
            #expect(try everything() == before, "\(label), \(arguments)")
        }
    }

    @Test func aLockWithABlockNameThatIsNoSlugIsRefused() throws {
        defer { cleanUp() }
        try project.write(
            "blocks.lock",
            #"{"lockVersion": 1, "blocks": {"../x": {"registry": "embedded", "version": "1.0.0", "folder": "Sources/App/Blocks/x", "createdFolders": [], "files": []}}}"#
        )
        let result = try blocks(["status"])
        #expect(result.code == 1)
        #expect(result.errors.contains("names a block '../x', which is not a block name"), "\(result.errors)")
    }

    @Test func aLockFromANewerBlocksIsRefusedAndLeftAlone() throws {
        defer { cleanUp() }
        #expect(try blocks(["add", "strip"]).code == 0)
        let lock = try String(contentsOf: project.root.appendingPathComponent("blocks.lock"), encoding: .utf8)
        let newer = lock.replacingOccurrences(of: "\"lockVersion\" : \(Lockfile.currentVersion)", with: "\"lockVersion\" : 99")
        #expect(newer != lock)
        try project.write("blocks.lock", newer)
        let before = try everything()
        for arguments in [["status"], ["add", "pager"], ["remove", "strip", "--force"]] {
            let result = try blocks(arguments)
            #expect(result.code == 1, "\(arguments): \(result.output)")
            #expect(result.errors.contains("lock version 99"), "\(arguments): \(result.errors)")
            #expect(try everything() == before, "\(arguments)")
        }
    }

    // MARK: - 3. a delete that fails is an error, and the lock keeps what is still there

    /// Runs the real binary as a user that file modes apply to: as `nobody` (owning the
    /// project) when the tests run as root, which ignores modes; else as the user.
    func blocksWithoutRoot(_ arguments: [String]) throws -> CommandResult {
        guard getuid() == 0 else { return try project.runBinary(arguments) }
        let result = try runProcess(
            URL(fileURLWithPath: "/usr/bin/setpriv"),
            ["--reuid=65534", "--regid=65534", "--clear-groups", try TestProject.binary().path] + arguments,
            in: project.root, environment: project.binaryEnvironment(["HOME": folder.path("home").path]))
        return CommandResult(code: result.code, output: result.out, errors: result.err)
    }

    @Test func removeOfAReadOnlyBlockFolderFailsAndKeepsItInTheLock() throws {
        defer { cleanUp() }
        #expect(try blocks(["add", "strip", "pager"]).code == 0)
        if getuid() == 0 { #expect(try runProcess(URL(fileURLWithPath: "/bin/chown"), ["-R", "65534:65534", project.root.path]).code == 0) }
        let strip = project.url("Sources/App/Blocks/strip")
        #expect(chmod(strip.path, 0o555) == 0)
        let lockBefore = try project.lock()
        let stripFiles = try FileManager.default.contentsOfDirectory(atPath: strip.path).sorted()

        let result = try blocksWithoutRoot(["remove", "strip", "pager"])
        #expect(result.code == 1, "\(result.output)")
        #expect(result.errors.contains("could not delete 3 paths:"), "\(result.errors)")
        #expect(result.errors.contains("  Sources/App/Blocks/strip/Strip.swift (Permission denied)\n"), "\(result.errors)")
        #expect(result.errors.contains("stays in blocks.lock; make it deletable and run 'blocks remove strip' again"), "\(result.errors)")
        #expect(!result.output.contains("Removed"))
        // strip is all still there and all still in the lock; pager, which could go, went.
        #expect(try FileManager.default.contentsOfDirectory(atPath: strip.path).sorted() == stripFiles)
        let lock = try project.lock()
        #expect(lock.blocks["strip"] == lockBefore.blocks["strip"])
        #expect(lock.blocks["pager"] == nil)
        #expect(!project.exists("Sources/App/Blocks/pager"))
        #expect(project.run(["status"]).output.contains("unchanged Sources/App/Blocks/strip/Strip.swift"))

        // Once it can be deleted, the same command finishes the job.
        #expect(chmod(strip.path, 0o755) == 0)
        let again = try blocksWithoutRoot(["remove", "strip"])
        #expect(again.code == 0, "\(again.errors)")
        #expect(!project.exists("Sources/App/Blocks"))
        #expect(!project.exists("blocks.lock"))
    }

    /// The files can go but the block's folder cannot (the folder holding it is read-only):
    /// an error naming the folder, and the block stays in the lock with the folders `add`
    /// made, so the same command removes them once it can.
    @Test func removeWhoseFolderCannotBeDeletedFailsAndKeepsItInTheLock() throws {
        defer { cleanUp() }
        #expect(try blocks(["add", "strip"]).code == 0)
        if getuid() == 0 { #expect(try runProcess(URL(fileURLWithPath: "/bin/chown"), ["-R", "65534:65534", project.root.path]).code == 0) }
        let holder = project.url("Sources/App/Blocks")
        #expect(chmod(holder.path, 0o555) == 0)
        defer { chmod(holder.path, 0o755) }

        let result = try blocksWithoutRoot(["remove", "strip"])
        #expect(result.code == 1, "\(result.output)")
        #expect(
            result.errors.contains("could not delete Sources/App/Blocks/strip (Permission denied); what is still on disk stays in blocks.lock"),
            "\(result.errors)")
        #expect(!result.output.contains("Removed"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: project.url("Sources/App/Blocks/strip").path).isEmpty)
        let block = try #require(try project.lock().blocks["strip"])
        #expect(block.files.isEmpty)
        #expect(block.createdFolders == ["Sources/App/Blocks", "Sources/App/Blocks/strip"])

        #expect(chmod(holder.path, 0o755) == 0)
        let again = try blocksWithoutRoot(["remove", "strip"])
        #expect(again.code == 0, "\(again.errors)")
        #expect(!project.exists("Sources/App/Blocks"))
        #expect(!project.exists("blocks.lock"))
    }

    // MARK: - 5. an export's files must match its manifest.json

    /// An export repacked with one file changed (or unlisted) is refused before anything
    /// is written; repacked unchanged, it is added.
    @Test func anExportWhoseFilesDoNotMatchItsManifestIsRefused() throws {
        defer { cleanUp() }
        let archive = folder.path("top-tabs.tar.gz")
        #expect(project.run(["export", "top-tabs", "-o", archive.path]).code == 0)
        let exported = try Archives.read(archive)
        #expect(exported.files["manifest.json"] != nil)

        func repack(_ name: String, _ change: (inout [String: Data]) -> Void) throws -> URL {
            var files = exported.files
            change(&files)
            let url = folder.path(name)
            try Archives.write(files.map { ArchiveEntry(path: exported.topFolder + "/" + $0.key, data: $0.value) }, format: .tarGzip, to: url)
            return url
        }
        let changed = try repack("changed.tar.gz") { files in
            files["top-tabs/TopTabs.swift"]?.append(Data("let injected = 1\n".utf8))
        }
        // block.json is checked too: its authors go into every file's license header.
        let claimed = try repack("claimed.tar.gz") { files in
            let text = String(decoding: files["top-tabs/block.json"] ?? Data(), as: UTF8.self)
            files["top-tabs/block.json"] = Data(text.replacingOccurrences(of: "\"blocks contributors\"", with: "\"Mallory\"").utf8)
        }
        let unlisted = try repack("unlisted.tar.gz") { files in
            let text = String(decoding: files["manifest.json"] ?? Data(), as: UTF8.self)
            files["manifest.json"] = Data(text.replacingOccurrences(of: "\"top-tabs/TopTabsLogic.swift\"", with: "\"top-tabs/Other.swift\"").utf8)
        }
        let before = try everything()
        let refusedChange = try project.runBinary(["add", changed.path, "--yes"])
        #expect(refusedChange.code == 1)
        #expect(refusedChange.errors.contains("\(changed.path): top-tabs/TopTabs.swift has bytes with SHA-256"), "\(refusedChange.errors)")
        #expect(refusedChange.errors.contains("nothing was written"))
        let refusedClaim = try project.runBinary(["add", claimed.path, "--yes"])
        #expect(refusedClaim.code == 1)
        #expect(refusedClaim.errors.contains("\(claimed.path): top-tabs/block.json has bytes with SHA-256"), "\(refusedClaim.errors)")
        let refusedListing = try project.runBinary(["add", unlisted.path, "--yes"])
        #expect(refusedListing.code == 1)
        #expect(refusedListing.errors.contains("manifest.json does not list top-tabs/TopTabsLogic.swift"), "\(refusedListing.errors)")
        #expect(try everything() == before)

        let same = try repack("same.tar.gz") { _ in }
        let added = try project.runBinary(["add", same.path, "--yes"])
        #expect(added.code == 0, "\(added.errors)")
        #expect(project.exists("Sources/App/Blocks/top-tabs/TopTabs.swift"))
    }

    // MARK: - 10. an absolute path in blocks.json

    @Test func anAbsolutePathInBlocksJSONIsTakenAsItIsInsideTheProject() throws {
        defer { cleanUp() }
        try project.write("blocks.json", #"{"path": "\#(project.root.path)/Sources/App/Custom"}"#)
        let result = try blocks(["add", "strip"])
        #expect(result.code == 0, "\(result.errors)")
        #expect(result.output.contains("Target folder: Sources/App/Custom (from blocks.json)"), "\(result.output)")
        #expect(project.exists("Sources/App/Custom/strip/Strip.swift"))
        #expect(!project.exists(String(project.root.path.dropFirst())))
        #expect(try project.lock().blocks["strip"]?.folder == "Sources/App/Custom/strip")
    }

    @Test func anAbsolutePathInBlocksJSONOutsideTheProjectIsRefused() throws {
        defer { cleanUp() }
        try project.write("blocks.json", #"{"path": "\#(folder.path("outside").path)"}"#)
        let before = try everything()
        let result = try blocks(["add", "strip"])
        #expect(result.code == 1)
        #expect(result.errors.contains("\(folder.path("outside").path) (the path in blocks.json) leads outside the project root"), "\(result.errors)")
        #expect(try everything() == before)
    }
}

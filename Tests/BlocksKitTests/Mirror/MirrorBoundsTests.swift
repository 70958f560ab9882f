import Foundation
import Testing

@testable import BlocksKit

/// The mirror writes and deletes only inside DEST, whatever DEST or the upstream holds:
/// links in DEST's own folders, hostile index entries, a lock that cannot be made, and
/// a source that fails half-way. Each case runs the real binary against real files.
@Suite(.serialized) struct MirrorBoundsTests {
    /// A built upstream registry folder, a mirror folder beside it, and a decoy folder
    /// outside both whose files must never change.
    struct Setup {
        let folder: TemporaryFolder
        let upstream: URL
        let mirror: URL
        let outside: URL

        init(blocks: Int = 3, upstreamName: String = "upstream") throws {
            folder = try TemporaryFolder("mirror-bounds")
            let catalog = try RegistryFixtures.writeCatalog(in: folder, count: blocks)
            upstream = folder.path(upstreamName)
            try RegistryFixtures.build(catalog: catalog, output: upstream)
            mirror = folder.path("place/mirror")
            outside = folder.path("outside")
            try folder.write("outside/incoming/victim.txt", "not the mirror's\n")
            try folder.write("outside/state", "not the mirror's either\n")
        }

        /// Whether `blocks mirror --verify` passes on the mirror.
        func verifies() throws -> Bool {
            try runBinary(["mirror", "--verify", mirror.path], environment: ["PATH": "/usr/bin:/bin"]).code == 0
        }

        func mirrorBinary(_ source: String? = nil, extra: [String] = []) throws -> (code: Int32, out: String, err: String) {
            try runBinary(
                ["mirror", source ?? upstream.path, mirror.path] + extra, in: folder.url,
                environment: ["PATH": "/usr/bin:/bin", "XDG_CACHE_HOME": folder.path("cache").path, "HOME": folder.url.path])
        }

        /// Every file under the decoy, with its text.
        func outsideFiles() -> [String: String] {
            Dictionary(uniqueKeysWithValues: filesUnder(outside).map { ($0, folder.read("outside/" + $0) ?? "") })
        }

        /// Bumps block-0000 to `version` upstream, so the next sync sees a changed index.
        func publish(version: String) throws {
            try folder.write(
                "Catalog/block-0000/block.json", sampleManifestJSON(name: "block-0000", version: version, files: [("Block0000.swift", "component")]))
            try RegistryFixtures.build(catalog: folder.path("Catalog"), output: upstream)
        }

        /// Rewrites the upstream index with `change` applied to its JSON object.
        func editIndex(_ change: (inout [String: Any]) throws -> Void) throws {
            let file = upstream.appendingPathComponent("index.json")
            var object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
            try change(&object)
            try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .prettyPrinted]).write(to: file)
        }
    }

    /// Issue 12 item 6: a `.blocks-mirror` that is a link to another folder is replaced by
    /// a real folder; the mirror never deletes through it (it used to empty the linked
    /// folder's `incoming/`).
    @Test func aLinkedOwnFolderIsReplacedNotFollowed() throws {
        let setup = try Setup()
        defer { setup.folder.cleanUp() }
        #expect(try setup.mirrorBinary().code == 0)
        let own = setup.mirror.appendingPathComponent(".blocks-mirror")
        try FileManager.default.removeItem(at: own)
        try FileManager.default.createSymbolicLink(at: own, withDestinationURL: setup.outside)
        let before = setup.outsideFiles()
        try setup.publish(version: "1.1.0")
        let result = try setup.mirrorBinary()
        #expect(result.code == 0, "\(result.err)")
        #expect(setup.outsideFiles() == before)
        #expect(PathKind(own.path) == .folder)
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: own.path)) == nil)
        #expect(try setup.verifies())
    }

    /// A link in place of the state database or its journal, carried in with a copied
    /// folder, is removed and never written through (SQLite follows links): the files
    /// they point to stay as they were, and the mirror makes a database of its own.
    @Test func aLinkedStateDatabaseIsReplacedNotFollowed() throws {
        let setup = try Setup()
        defer { setup.folder.cleanUp() }
        #expect(try setup.mirrorBinary().code == 0)
        let state = setup.mirror.appendingPathComponent(".blocks-mirror/state.sqlite")
        let journal = URL(fileURLWithPath: state.path + "-journal")
        let decoy = setup.outside.appendingPathComponent("state.sqlite")
        let journalDecoy = setup.outside.appendingPathComponent("journal")
        try FileManager.default.copyItem(at: state, to: decoy)
        try Data("not a journal\n".utf8).write(to: journalDecoy)
        try FileManager.default.removeItem(at: state)
        try FileManager.default.createSymbolicLink(at: state, withDestinationURL: decoy)
        try FileManager.default.createSymbolicLink(at: journal, withDestinationURL: journalDecoy)
        let before = [try Data(contentsOf: decoy), try Data(contentsOf: journalDecoy)]
        try setup.publish(version: "1.1.0")
        let result = try setup.mirrorBinary()
        #expect(result.code == 0, "\(result.err)")
        #expect([try Data(contentsOf: decoy), try Data(contentsOf: journalDecoy)] == before)
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: state.path)) == nil && PathKind(state.path) == .other)
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: journal.path)) == nil)
        #expect(try setup.verifies())
    }

    /// A state that opens but cannot be written (here an immutable file, which even root
    /// cannot write, so SQLite opens it read-only) fails the run with one clear error
    /// before the new index moves in, and --prune deletes nothing. A state that cannot be
    /// opened at all (a folder where its journal goes) is one clear error too.
    @Test func aStateThatCannotBeWrittenStopsTheRunBeforeTheIndexMoves() throws {
        let setup = try Setup()
        defer { setup.folder.cleanUp() }
        #expect(try setup.mirrorBinary().code == 0)
        let state = setup.mirror.appendingPathComponent(".blocks-mirror/state.sqlite")
        let index = try Data(contentsOf: setup.mirror.appendingPathComponent("index.json"))
        let held = filesUnder(setup.mirror)
        try setup.publish(version: "1.1.0")
        try #require(try runTool("chattr", ["+i", state.path]).code == 0, "chattr +i is how this test makes a file root cannot write")
        defer { _ = try? runTool("chattr", ["-i", state.path]) }
        let result = try setup.mirrorBinary(extra: ["--prune"])
        #expect(try runTool("chattr", ["-i", state.path]).code == 0)
        #expect(result.code == 1)
        #expect(result.err.contains("its state could not be written"), "\(result.err)")
        #expect(try Data(contentsOf: setup.mirror.appendingPathComponent("index.json")) == index)
        #expect(Set(held).isSubset(of: Set(filesUnder(setup.mirror))), "nothing the old index lists was deleted")

        let journal = URL(fileURLWithPath: state.path + "-journal")
        try FileManager.default.createDirectory(at: journal, withIntermediateDirectories: true)
        let unopened = try setup.mirrorBinary()
        #expect(unopened.code == 1 && unopened.err.contains("cannot be opened"), "\(unopened.err)")
        #expect(try Data(contentsOf: setup.mirror.appendingPathComponent("index.json")) == index)
        try FileManager.default.removeItem(at: journal)
        let repaired = try setup.mirrorBinary()
        #expect(repaired.code == 0, "\(repaired.err)")
        #expect(try setup.verifies())
    }

    /// Item 6, the lock file and the registry folders: a link there is refused, never
    /// followed (opening the lock used to create or truncate the file it points to).
    @Test func linksAtTheLockAndTheArchivesAreRefused() throws {
        let setup = try Setup()
        defer { setup.folder.cleanUp() }
        #expect(try setup.mirrorBinary().code == 0)
        let lock = setup.mirror.appendingPathComponent(".blocks-mirror.lock")
        try FileManager.default.removeItem(at: lock)
        try FileManager.default.createSymbolicLink(at: lock, withDestinationURL: setup.outside.appendingPathComponent("state"))
        let before = setup.outsideFiles()
        let locked = try setup.mirrorBinary()
        #expect(locked.code == 1)
        #expect(locked.err.contains("symbolic link"), "\(locked.err)")
        #expect(setup.outsideFiles() == before)

        try FileManager.default.removeItem(at: lock)
        let archives = setup.mirror.appendingPathComponent("archives")
        try FileManager.default.moveItem(at: archives, to: setup.outside.appendingPathComponent("archives"))
        try FileManager.default.createSymbolicLink(at: archives, withDestinationURL: setup.outside.appendingPathComponent("archives"))
        let outsideArchives = filesUnder(setup.outside.appendingPathComponent("archives"))
        try setup.publish(version: "1.1.0")
        let linked = try setup.mirrorBinary(extra: ["--prune"])
        #expect(linked.code == 1)
        #expect(linked.err.contains("\(archives.path) is a symbolic link"), "\(linked.err)")
        #expect(filesUnder(setup.outside.appendingPathComponent("archives")) == outsideArchives)
    }

    /// Item 7: an index entry whose name is no block name is skipped with a warning naming
    /// it: none of its archives is fetched and no metadata is written for it.
    @Test func anEntryWithAnUnsafeNameIsSkippedWithAWarning() throws {
        let setup = try Setup()
        defer { setup.folder.cleanUp() }
        try HostileIndex.addEntry(named: "../../PWNED-NAME", to: setup.upstream)
        let result = try setup.mirrorBinary()
        #expect(result.code == 0, "\(result.err)")
        #expect(result.err.contains("warning: registry \(setup.upstream.path) lists a block named '../../PWNED-NAME'"), "\(result.err)")
        #expect(result.err.contains("it is skipped"))
        let files = filesUnder(setup.mirror)
        #expect(!files.contains { $0.contains("pwned") || $0.contains("PWNED") }, "\(files)")
        #expect(files.filter { $0.hasPrefix("archives/") }.count == 6)
        #expect(!FileManager.default.fileExists(atPath: setup.folder.path("PWNED-NAME.json").path))
        #expect(try setup.verifies())
    }

    /// Tests that can fail, 11: an upstream index naming `../evil.zip` makes the mirror
    /// exit 1 and write nothing beside DEST, even when the file is there to be fetched.
    @Test func anArchivePathLeavingTheRegistryWritesNothingBesideDest() throws {
        let setup = try Setup()
        defer { setup.folder.cleanUp() }
        let evil = Data("evil".utf8)
        try evil.write(to: setup.upstream.appendingPathComponent("evil.zip"))
        try evil.write(to: setup.folder.path("evil.zip"))
        try setup.editIndex { index in
            var blocks = try #require(index["blocks"] as? [[String: Any]])
            blocks[0]["archives"] = ["zip": ["path": "../evil.zip", "sha256": SHA256.hex(evil), "size": evil.count]]
            index["blocks"] = blocks
        }
        let nginx = try Nginx(root: setup.upstream)
        defer { nginx.stop() }
        let place = setup.mirror.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: place, withIntermediateDirectories: true)
        for source in [setup.upstream.path, nginx.baseURL + "/"] {
            let result = try setup.mirrorBinary(source)
            #expect(result.code == 1, "\(source)")
            #expect(result.err.contains("archive path '../evil.zip' leaves the registry"), "\(result.err)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: place.path) == ["mirror"])
            #expect(!filesUnder(setup.mirror).contains { $0.hasSuffix(".zip") || $0.hasSuffix("index.json") })
        }
    }

    /// Tests that can fail, 10: a damaged archive is fetched again when the upstream index
    /// changed too, not only on a 304, even when the damage kept the file's size and time.
    @Test func aDamagedArchiveIsRepairedWhenTheIndexAlsoChanged() throws {
        let setup = try Setup()
        defer { setup.folder.cleanUp() }
        #expect(try setup.mirrorBinary().code == 0)
        let damaged = setup.mirror.appendingPathComponent("archives/block-0002-1.0.0.tar.gz")
        let quiet = setup.mirror.appendingPathComponent("archives/block-0001-1.0.0.zip")
        let good = try Data(contentsOf: damaged)
        let goodQuiet = try Data(contentsOf: quiet)
        // One file changed plainly; one changed with its size and modification time kept,
        // which only `--verify` can see.
        try Data(repeating: 0x41, count: good.count).write(to: damaged)
        let stamp = try FileManager.default.attributesOfItem(atPath: quiet.path)[.modificationDate] as? Date
        try Data(repeating: 0x42, count: goodQuiet.count).write(to: quiet)
        try FileManager.default.setAttributes([.modificationDate: try #require(stamp)], ofItemAtPath: quiet.path)
        #expect(try runBinary(["mirror", "--verify", setup.mirror.path], environment: ["PATH": "/usr/bin:/bin"]).code == 1)
        try setup.publish(version: "1.1.0")
        let result = try setup.mirrorBinary(extra: ["--json"])
        #expect(result.code == 0, "\(result.err)")
        #expect(try Data(contentsOf: damaged) == good)
        #expect(try Data(contentsOf: quiet) == goodQuiet)
        let summary = try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any]
        #expect(summary?["fetched"] as? Int == 4)  // block-0000 1.1.0's two, and the two repaired
        #expect(try setup.verifies())
    }

    /// Item 9: the mirror takes every `file://` spelling `--registry` takes: percent
    /// escapes, `localhost`, a scheme in capitals, and a URL ending in `index.json`.
    @Test func fileURLsWorkAsForTheRegistryOption() throws {
        let setup = try Setup(upstreamName: "reg istry")
        defer { setup.folder.cleanUp() }
        let escaped = setup.upstream.path.replacingOccurrences(of: " ", with: "%20")
        for source in ["file://\(escaped)", "file://localhost\(escaped)", "FILE://\(escaped)/index.json"] {
            let result = try setup.mirrorBinary(source)
            #expect(result.code == 0, "\(source): \(result.err)")
            let listed = try runBinary(["--registry", source, "list"], environment: ["PATH": "/usr/bin:/bin", "HOME": setup.folder.url.path])
            #expect(listed.code == 0 && listed.out.contains("block-0002"), "\(source): \(listed.err)")
        }
        #expect(FileManager.default.fileExists(atPath: setup.mirror.appendingPathComponent("index.json").path))
    }

    /// Item 16: a lock file that cannot be made says what failed, not "has no index.json".
    @Test func aLockThatCannotBeMadeSaysWhatFailed() throws {
        let setup = try Setup()
        defer { setup.folder.cleanUp() }
        #expect(try setup.mirrorBinary().code == 0)
        let lock = setup.mirror.appendingPathComponent(".blocks-mirror.lock")
        try FileManager.default.removeItem(at: lock)
        try FileManager.default.createDirectory(at: lock, withIntermediateDirectories: false)
        for result in [try setup.mirrorBinary(), try runBinary(["mirror", "--verify", setup.mirror.path], environment: ["PATH": "/usr/bin:/bin"])] {
            #expect(result.code == 1)
            #expect(result.err.contains("cannot write the mirror \(setup.mirror.path): cannot open \(lock.path): Is a directory"), "\(result.err)")
            #expect(!result.err.contains("has no index.json"))
        }
        // A folder that is no mirror still says so, and gets no lock file.
        let empty = setup.folder.path("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let verify = try runBinary(["mirror", "--verify", empty.path], environment: ["PATH": "/usr/bin:/bin"])
        #expect(verify.code == 1 && verify.err.contains("has no index.json"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: empty.path).isEmpty)
    }

    /// Item 13: the mirror refuses an index its clients would refuse, over HTTP (the
    /// request's cap) and from a folder.
    @Test func theIndexCapIsTheClientsCap() throws {
        let recorder = RecordingTransport()
        _ = try? HTTPMirrorUpstream(base: "http://127.0.0.1:9/", transport: recorder).fetchIndex(ifNoneMatch: nil)
        #expect(recorder.requests.map(\.maxBodyBytes) == [RegistryIndex.maximumBytes])
        _ = try? RegistryCache(root: FileManager.default.temporaryDirectory.appendingPathComponent("unused-\(UUID())"))
            .fetchIndex(url: "http://127.0.0.1:9/index.json", transport: recorder, offline: false)
        #expect(recorder.requests.map(\.maxBodyBytes) == [RegistryIndex.maximumBytes, RegistryIndex.maximumBytes])

        let setup = try Setup()
        defer { setup.folder.cleanUp() }
        let index = setup.upstream.appendingPathComponent("index.json")
        #expect(truncate(index.path, off_t(RegistryIndex.maximumBytes + 1)) == 0)
        let result = try setup.mirrorBinary()
        #expect(result.code == 1)
        #expect(result.err.contains("over the 64 MB an index may have"), "\(result.err)")
        let listed = try runBinary(["--registry", setup.upstream.path, "list"], environment: ["PATH": "/usr/bin:/bin", "HOME": setup.folder.url.path])
        #expect(listed.code == 1 && listed.err.contains("over the 64 MB an index may have"), "\(listed.err)")
    }

    /// Item 18: a source that fails for most archives gives a summary, not a line per
    /// archive, and says truly what DEST holds: nothing usable on a first run, the
    /// previous snapshot after that.
    @Test func manyFailuresAreSummedUpWithWhatTheMirrorHolds() throws {
        let setup = try Setup(blocks: 30)
        defer { setup.folder.cleanUp() }
        let nginx = try Nginx(root: setup.upstream)
        defer { nginx.stop() }
        let archives = setup.upstream.appendingPathComponent("archives")
        let hidden = setup.folder.path("hidden")
        try FileManager.default.createDirectory(at: hidden, withIntermediateDirectories: true)
        let names = try FileManager.default.contentsOfDirectory(atPath: archives.path).sorted()
        for name in names.dropFirst(10) { try FileManager.default.moveItem(at: archives.appendingPathComponent(name), to: hidden.appendingPathComponent(name)) }

        let first = try setup.mirrorBinary(nginx.baseURL + "/", extra: ["--jobs", "4"])
        #expect(first.code == 1)
        let lines = first.err.split(separator: "\n")
        #expect(lines.count <= 8, "\(first.err)")
        #expect(first.err.contains("50 of 60 archives could not be mirrored"), "\(first.err)")
        #expect(first.err.contains("404"))
        #expect(first.err.contains("… and 47 more"))
        #expect(first.err.contains("no snapshot yet"))
        #expect(first.err.contains("The 10 archives fetched and verified in this run are kept"))
        #expect(!first.err.contains("previous consistent snapshot"))
        #expect(!FileManager.default.fileExists(atPath: setup.mirror.appendingPathComponent("index.json").path))

        for name in names.dropFirst(10) { try FileManager.default.moveItem(at: hidden.appendingPathComponent(name), to: archives.appendingPathComponent(name)) }
        #expect(try setup.mirrorBinary(nginx.baseURL + "/").code == 0)
        try setup.publish(version: "1.1.0")
        try FileManager.default.removeItem(at: archives.appendingPathComponent("block-0000-1.1.0.zip"))
        let later = try setup.mirrorBinary(nginx.baseURL + "/")
        #expect(later.code == 1)
        #expect(later.err.contains("1 of 2 archives could not be mirrored"), "\(later.err)")
        #expect(later.err.contains("previous consistent snapshot"))
        #expect(!later.err.contains("… and"))
    }
}

/// Hostile edits to a built registry's index.
enum HostileIndex {
    /// Adds a copy of the first entry under `name`, with its own archive (a copy of the
    /// first entry's) and metadata path, so that a reader that does not check names
    /// would list it and a mirror would fetch it.
    static func addEntry(named name: String, to registry: URL) throws {
        let file = registry.appendingPathComponent("index.json")
        var index = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        var blocks = try #require(index["blocks"] as? [[String: Any]])
        var entry = blocks[0]
        let archives = try #require(entry["archives"] as? [String: [String: Any]])
        let source = try #require(archives["tar.gz"]?["path"] as? String)
        try FileManager.default.copyItem(at: registry.appendingPathComponent(source), to: registry.appendingPathComponent("archives/pwned-1.0.0.tar.gz"))
        var archive = try #require(archives["tar.gz"])
        archive["path"] = "archives/pwned-1.0.0.tar.gz"
        entry["archives"] = ["tar.gz": archive]
        entry["name"] = name
        entry["metadata"] = "blocks/pwned.json"
        blocks.append(entry)
        index["blocks"] = blocks
        try JSONSerialization.data(withJSONObject: index, options: [.sortedKeys, .prettyPrinted]).write(to: file)
    }
}

/// A transport that answers every request with a 404 and remembers what it was asked.
final class RecordingTransport: HTTPTransport, @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [HTTPRequest] = []

    var requests: [HTTPRequest] { lock.withLock { recorded } }

    func get(_ request: HTTPRequest) throws -> HTTPResponse {
        lock.withLock { recorded.append(request) }
        throw HTTPError.status(url: request.url, code: 404)
    }

    func download(_ downloads: [HTTPDownload], maxParallel: Int, progress: (@Sendable (TransferProgress) -> Void)?) -> [Result<HTTPResponse, HTTPError>] {
        lock.withLock { recorded += downloads.map(\.request) }
        return downloads.map { .failure(.status(url: $0.request.url, code: 404)) }
    }

    func fetch(_ requests: [HTTPRequest], maxParallel: Int) -> [Result<HTTPResponse, HTTPError>] {
        lock.withLock { recorded += requests }
        return requests.map { .failure(.status(url: $0.url, code: 404)) }
    }

    func prepare() {}
}

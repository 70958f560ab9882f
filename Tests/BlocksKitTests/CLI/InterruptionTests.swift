import Foundation
import Testing

@testable import BlocksKit

/// Issue 35, item 5: Ctrl-C (or SIGTERM) during `mirror` or `add`, on a real terminal,
/// finishes the line, says what was kept, removes our lock and temporary files and exits
/// with 130 (143 for SIGTERM); the previous snapshot and the project stay as they were.
@Suite(.serialized) struct InterruptionTests {
    /// Two registries of the catalog: `old` as it is, `new` with every Swift file changed,
    /// so that every archive of `new` differs and must be downloaded.
    static func registries(in folder: TemporaryFolder) throws -> (old: URL, new: URL) {
        let old = folder.path("old"), new = folder.path("new"), changed = folder.path("catalog")
        try FileManager.default.copyItem(at: repositoryRoot.appendingPathComponent("Catalog"), to: changed)
        for file in filesUnder(changed) where file.hasSuffix(".swift") {
            let url = changed.appendingPathComponent(file)
            try (String(contentsOf: url, encoding: .utf8) + "\n// changed\n").write(to: url, atomically: true, encoding: .utf8)
        }
        for (catalog, out) in [(repositoryRoot.appendingPathComponent("Catalog"), old), (changed, new)] {
            let built = try runBinary(["build", "--catalog", catalog.path, "--out", out.path], in: folder.url)
            guard built.code == 0 else { throw HarnessError("build failed: \(built.err)") }
        }
        return (old, new)
    }

    @Test(arguments: ["INT", "TERM"])
    func anInterruptedMirrorKeepsThePreviousSnapshot(signal: String) throws {
        let server = try FaultServer()
        defer { server.stop() }
        let folder = try TemporaryFolder("interrupt-mirror")
        defer { folder.cleanUp() }
        let (old, new) = try Self.registries(in: folder)
        let mirror = folder.path("mirror")
        let first = try runBinary(["mirror", server.url("/files/0\(old.path)/"), mirror.path], in: folder.url)
        #expect(first.code == 0, "\(first.err)")
        let snapshot = fileContents(under: mirror)

        let run = try PseudoTerminalRun(
            ["mirror", server.url("/files/300\(new.path)/"), "mirror"], columns: 100, timeout: 40, in: folder.url,
            environment: ["XDG_CACHE_HOME": folder.path("cache").path], signalOn: "files", signalAfter: 1.5, signal: signal)
        #expect(!run.timedOut)
        #expect(run.code == (signal == "INT" ? 130 : 143), "\(run.transcript.debugDescription)")
        #expect(run.transcript.contains("interrupted: mirror still holds the previous snapshot; run the same 'blocks mirror' again to resume"), "\(run.transcript.debugDescription)")
        // The bar's line was cleared before the message: the message starts its own line.
        #expect(run.transcript.contains("\r\u{1B}[Kinterrupted: "), "\(run.transcript.debugDescription)")
        let left = filesUnder(mirror)
        #expect(!left.contains(".blocks-mirror.lock"), "\(left)")
        #expect(!left.contains { $0.hasSuffix(".part") || $0.hasSuffix(".tmp") }, "\(left)")
        // Every file of the previous snapshot is still there, byte for byte.
        let now = fileContents(under: mirror)
        for (path, bytes) in snapshot where path != ".blocks-mirror.lock" { #expect(now[path] == bytes, "\(path)") }
        #expect(runBinaryOK(["mirror", "--verify", mirror.path], in: folder.url))
    }

    @Test func anInterruptedAddLeavesTheProjectUnchanged() throws {
        let server = try FaultServer()
        defer { server.stop() }
        let folder = try TemporaryFolder("interrupt-add")
        defer { folder.cleanUp() }
        let (_, new) = try Self.registries(in: folder)
        let project = try makeProject(in: folder)
        let before = fileContents(under: project)
        let cache = folder.path("cache")
        let run = try PseudoTerminalRun(
            ["--registry", server.url("/files/200\(new.path)/"), "add", "pager", "--yes"], columns: 80, timeout: 40, in: project,
            environment: ["XDG_CACHE_HOME": cache.path], watch: ["Waiting for"], signalOn: "Waiting for", signalAfter: 1)
        #expect(!run.timedOut)
        #expect(run.code == 130, "\(run.transcript.debugDescription)")
        #expect(run.transcript.contains("interrupted: the project was not changed; run the same 'blocks add' again to add the blocks"), "\(run.transcript.debugDescription)")
        #expect(fileContents(under: project) == before, "\(filesUnder(project))")
        #expect(!filesUnder(cache).contains { $0.hasSuffix(".part") || $0.hasSuffix(".tmp") }, "\(filesUnder(cache))")
    }
}

/// Whether the real binary exits with 0.
func runBinaryOK(_ arguments: [String], in directory: URL) -> Bool {
    (try? runBinary(arguments, in: directory))?.code == 0
}

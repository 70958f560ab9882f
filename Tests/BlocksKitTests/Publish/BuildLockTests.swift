import Foundation
import Testing

@testable import BlocksKit

/// Issue 12 item 12: two builds into one folder never run at once. The second says
/// "another build is writing DIR" and touches nothing, rather than deleting the first
/// one's live staging folder or failing with "No such file or directory".
@Suite(.serialized) struct BuildLockTests {
    @Test(.enabled(if: HostTools.hasFlock, HostTools.needsFlock))
    func aBuildIntoAFolderAnotherBuildHoldsFailsAtOnceAndTouchesNothing() throws {
        let folder = try TemporaryFolder("build-lock")
        defer { folder.cleanUp() }
        let catalog = try RegistryFixtures.writeCatalog(in: folder, count: 3)
        let output = folder.path("public")
        // A live build: its staging folder, and the folder lock it holds.
        try folder.write("public/.blocks-staging-live/archives/x-1.0.0.zip", "being written\n")
        let holder = try TestProcess.start(URL(fileURLWithPath: HostTools.flock), [output.path, "sleep", "5"], captureOutput: false)
        defer { holder.kill() }
        for _ in 0..<100 where (try? RegistryBuilder.lockOutput(output)) != nil { usleep(20_000) }
        let started = Date()
        let second = try runBinary(
            ["build", "--catalog", catalog.path, "--out", output.path], in: folder.url,
            environment: ["PATH": "/usr/bin:/bin", "HOME": folder.url.path])
        #expect(second.code == 1)
        #expect(second.err.contains("another blocks build is writing \(output.path)"), "\(second.err)")
        #expect(Date().timeIntervalSince(started) < 4)
        #expect(folder.read("public/.blocks-staging-live/archives/x-1.0.0.zip") == "being written\n")
        #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent("index.json").path))
        holder.kill()
        holder.waitUntilExit()
        // Once the holder is gone, a build goes ahead and clears the dead staging folder.
        let third = try runBinary(
            ["build", "--catalog", catalog.path, "--out", output.path], in: folder.url,
            environment: ["PATH": "/usr/bin:/bin", "HOME": folder.url.path])
        #expect(third.code == 0, "\(third.err)")
        #expect(!filesUnder(output).contains { $0.contains(".blocks-staging-") })
    }

    /// Builds racing into one new folder: each either builds or is told another build is
    /// writing; none fails otherwise, and the registry they leave is whole.
    @Test func racingBuildsIntoANewFolderEndWhole() throws {
        let folder = try TemporaryFolder("build-race")
        defer { folder.cleanUp() }
        let catalog = try RegistryFixtures.writeCatalog(in: folder, count: 20)
        let source = CatalogSource.folder(catalog)
        let blocks = try source.contents(of: try source.blockNames())
        for round in 0..<3 {
            let output = folder.path("public-\(round)")
            let outcomes = ConcurrentMap.map([0, 1, 2, 3]) { _ in
                Result { try RegistryBuilder(output: output, packager: BlockPackager(year: 2026)).build(blocks) }
            }
            var built = 0
            for outcome in outcomes {
                switch outcome {
                case .success: built += 1
                case .failure(let error):
                    #expect(error as? RegistryError == .buildInProgress(output: output.path), "RACE \(String(describing: error))")
                }
            }
            #expect(built >= 1)
            let index = try RegistryIndex.decode(Data(contentsOf: output.appendingPathComponent("index.json")), location: output.path)
            #expect(index.blocks.count == 20)
            #expect(!filesUnder(output).contains { $0.contains(".blocks-staging-") })
            for entry in index.blocks {
                for archive in entry.archives.values {
                    #expect(try SHA256.hex(fileAt: output.appendingPathComponent(archive.path)) == archive.sha256)
                }
            }
        }
    }

    /// The output folder the user names may be a link (public -> /var/www/registry): the
    /// lock is taken on the folder it leads to, and the build goes ahead.
    @Test func anOutputThatIsALinkToAFolderIsBuilt() throws {
        let folder = try TemporaryFolder("build-link")
        defer { folder.cleanUp() }
        let catalog = try RegistryFixtures.writeCatalog(in: folder, count: 2)
        try FileManager.default.createDirectory(at: folder.path("www"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: folder.path("public"), withDestinationURL: folder.path("www"))
        try RegistryFixtures.build(catalog: catalog, output: folder.path("public"))
        #expect(FileManager.default.fileExists(atPath: folder.path("www/index.json").path))
    }

    @Test func aFileWhereTheOutputShouldBeIsOneClearError() throws {
        let folder = try TemporaryFolder("build-file")
        defer { folder.cleanUp() }
        try folder.write("public", "a file\n")
        #expect(throws: AtomicFile.Failure(path: folder.path("public").path, reason: "it is a file, not a folder")) {
            try RegistryBuilder(output: folder.path("public"), packager: BlockPackager(year: 2026)).build([])
        }
    }
}

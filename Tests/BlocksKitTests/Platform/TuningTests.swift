import Foundation
import Testing

@testable import BlocksKit

/// `BLOCKS_TUNING` turns the system-specific speed knobs off for re-measuring, and turning
/// them off changes only speed, never what is written.
@Suite struct TuningTests {
    @Test func theEnvironmentTurnsKnobsOff() {
        #expect(Tuning(environment: [:]) == Tuning())
        #expect(Tuning().keepFreedMemory && Tuning().spreadSubfolders)
        let off = Tuning(environment: ["BLOCKS_TUNING": "off"])
        #expect(!off.keepFreedMemory && !off.spreadSubfolders && !off.exchangeFiles && !off.parallelRemoval)
        let one = Tuning(environment: ["BLOCKS_TUNING": "-spread-subfolders, -unknown-knob"])
        #expect(one.keepFreedMemory && !one.spreadSubfolders)
        let other = Tuning(environment: ["BLOCKS_TUNING": "-keep-freed-memory"])
        #expect(!other.keepFreedMemory && other.spreadSubfolders)
        let update = Tuning(environment: ["BLOCKS_TUNING": "-exchange-files,-parallel-removal"])
        #expect(update.keepFreedMemory && !update.exchangeFiles && !update.parallelRemoval)
    }

    @Test func aBuildWithoutTuningWritesTheSameBytesInOneFolder() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let catalog = try RegistryFixtures.writeCatalog(in: folder, count: 40)
        try RegistryFixtures.build(catalog: catalog, output: folder.path("tuned"))
        let source = CatalogSource.folder(catalog)
        var builder = RegistryBuilder(output: folder.path("plain"), packager: BlockPackager(year: 2026), published: "2026-06-01T00:00:00Z")
        builder.tuning = Tuning(environment: ["BLOCKS_TUNING": "off"])
        // Every file counts as slow: with the knob off the build must still stay in one folder.
        builder.tuning.slowFileCreation = -1
        let report = try builder.build(try source.contents(of: try source.blockNames()))
        #expect(report.stagingFolders == 1)
        #expect(fileContents(under: folder.path("plain")) == fileContents(under: folder.path("tuned")))
    }

    /// `add --overwrite` replaces files by exchange and deletes the staging folder's
    /// leftovers in parallel; with the knobs off it renames and deletes one by one, and the
    /// project ends up with the same bytes.
    @Test func replacingFilesWithoutTuningGivesTheSameProject() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        var trees: [[String: Data]] = []
        for tuning in ["", "off"] {
            let project = folder.path("app-\(tuning.isEmpty ? "tuned" : "plain")")
            try TestProject.app(at: project, platforms: nil)
            let environment = [
                "PATH": "/usr/bin:/bin", "HOME": folder.url.path, "XDG_CACHE_HOME": folder.path("cache").path,
                "BLOCKS_TUNING": tuning, "SOURCE_DATE_EPOCH": "1790000000",
            ]
            #expect(try runBinary(["add", "pager", "top-tabs", "--yes"], in: project, environment: environment).code == 0)
            for file in ["pager/Pager.swift", "pager/PagerLogic.swift", "top-tabs/TopTabs.swift"] {
                try Data("// mine\n".utf8).write(to: project.appendingPathComponent("Sources/App/Blocks/" + file))
            }
            let again = try runBinary(["add", "pager", "top-tabs", "--yes", "--overwrite"], in: project, environment: environment)
            #expect(again.code == 0, "\(again.err)")
            trees.append(fileContents(under: project))
        }
        #expect(trees[0] == trees[1])
        #expect(trees[0]["Sources/App/Blocks/pager/Pager.swift"].map { !String(decoding: $0, as: UTF8.self).contains("// mine") } == true)
    }
}

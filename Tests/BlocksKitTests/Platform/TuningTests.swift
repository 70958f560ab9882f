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
        #expect(!off.keepFreedMemory && !off.spreadSubfolders)
        let one = Tuning(environment: ["BLOCKS_TUNING": "-spread-subfolders, -unknown-knob"])
        #expect(one.keepFreedMemory && !one.spreadSubfolders)
        let other = Tuning(environment: ["BLOCKS_TUNING": "-keep-freed-memory"])
        #expect(!other.keepFreedMemory && other.spreadSubfolders)
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
        #expect(Self.files(in: folder.path("plain")) == Self.files(in: folder.path("tuned")))
    }

    /// Every file under a folder with its bytes.
    static func files(in root: URL) -> [String: Data] {
        var result: [String: Data] = [:]
        guard let walker = FileManager.default.enumerator(atPath: root.path) else { return result }
        for case let relative as String in walker {
            let url = root.appendingPathComponent(relative)
            if let data = FileManager.default.contents(atPath: url.path), (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true {
                result[relative] = data
            }
        }
        return result
    }
}

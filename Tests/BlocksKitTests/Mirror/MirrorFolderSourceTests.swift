import Foundation
import Testing

@testable import BlocksKit

/// A registry folder as the mirror's source (a USB stick carried across) is checked like
/// an http one: an archive whose bytes do not match the index's SHA-256 is not copied.
@Suite(.serialized) struct MirrorFolderSourceTests {
    @Test func aFolderArchiveWithTheWrongHashIsNotCopied() throws {
        let setup = try MirrorBoundsTests.Setup()
        defer { setup.folder.cleanUp() }
        let archives = setup.upstream.appendingPathComponent("archives")
        let name = try #require(try FileManager.default.contentsOfDirectory(atPath: archives.path).sorted().first)
        let damaged = archives.appendingPathComponent(name)
        let size = try Data(contentsOf: damaged).count
        try Data(repeating: 0x5A, count: size).write(to: damaged)

        let result = try setup.mirrorBinary()
        #expect(result.code == 1)
        #expect(result.err.contains(name) && result.err.contains("SHA-256"), "\(result.err)")
        #expect(!FileManager.default.fileExists(atPath: setup.mirror.appendingPathComponent("archives/" + name).path))
        #expect(!FileManager.default.fileExists(atPath: setup.mirror.appendingPathComponent("index.json").path))
        let left = filesUnder(setup.mirror.appendingPathComponent("archives"))
        #expect(!left.contains { $0.hasSuffix(".part") }, "\(left)")
    }
}

import Foundation
import Testing

@testable import BlocksKit

/// The archive cache is checked, not trusted: a cached archive whose bytes no longer match
/// the SHA-256 it is named by is fetched again, and the fresh copy replaces it.
@Suite struct RegistryCacheDamageTests {
    @Test func aDamagedCachedArchiveIsFetchedAgain() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let environment = ["XDG_CACHE_HOME": folder.path("cache").path, "SOURCE_DATE_EPOCH": "1790000000"]
        let built = runBlocks(
            ["build", "--catalog", repositoryRoot.appendingPathComponent("Catalog").path, "--out", "public"],
            in: folder.url, environment: environment)
        #expect(built.code == 0, "\(built.err)")
        let nginx = try Nginx(root: folder.path("public"))
        defer { nginx.stop() }

        func freshProject(_ name: String) throws -> URL { try makeProject(in: folder, name: name) }
        let first = runBlocks(["--registry", nginx.baseURL, "add", "pager", "--yes"], in: try freshProject("one"), environment: environment)
        #expect(first.code == 0, "\(first.err)")
        let cached = filesUnder(folder.path("cache")).filter { $0.contains("archives/") && !$0.hasSuffix(".part") }
        try #require(cached.count == 1, "\(cached)")
        let file = folder.path("cache").appendingPathComponent(cached[0])
        let original = try Data(contentsOf: file)
        try Data(repeating: 0x5A, count: original.count).write(to: file)

        let second = runBlocks(["--registry", nginx.baseURL, "add", "pager", "--yes"], in: try freshProject("two"), environment: environment)
        #expect(second.code == 0, "\(second.err)")
        #expect(FileManager.default.fileExists(atPath: folder.path("two/Sources/App/Blocks/pager/Pager.swift").path))
        #expect(try Data(contentsOf: file) == original, "the damaged cache file was not replaced")
        let name = file.deletingPathExtension().lastPathComponent
        #expect(name.hasPrefix(try SHA256.hex(fileAt: file)), "\(name)")
    }
}

import Foundation
import Testing

@testable import BlocksKit

/// Issue 35, item 11: each error's advice fits what went wrong.
@Suite(.serialized) struct WrongAdviceTests {
    @Test func aMissingArchiveIsSaidToBeMissing() throws {
        let project = try TestProject.make()
        defer { project.delete() }
        let result = try project.runBinary(["add", "./nosuch.zip"])
        #expect(result.code != 0)
        #expect(result.errors.contains("./nosuch.zip (") && result.errors.contains("nosuch.zip) does not exist"), "\(result.errors)")
        #expect(!result.errors.contains("corrupt"), "\(result.errors)")
    }

    @Test func removingAnUnknownNamespaceNamesTheOnesThereAre() throws {
        let project = try TestProject.make()
        defer { project.delete() }
        let none = try project.runBinary(["registry", "remove", "@nope"])
        #expect(none.code != 0)
        #expect(!none.errors.contains("registry add"), "\(none.errors)")
        #expect(none.errors.contains("no registry named @nope to remove: blocks.json has no registries"), "\(none.errors)")
        try project.write("blocks.json", #"{ "registries" : { "@team" : "https://example.com/team", "@pub" : "https://example.com/pub" } }"#)
        let some = try project.runBinary(["registry", "remove", "@nope"])
        #expect(some.code != 0)
        #expect(!some.errors.contains("registry add"), "\(some.errors)")
        #expect(some.errors.contains("no registry named @nope to remove: blocks.json has @pub, @team"), "\(some.errors)")
    }

    @Test func aMetadataURLIsNotAnArchive() throws {
        let project = try TestProject.make()
        defer { project.delete() }
        let result = try project.runBinary(["add", "https://blocks.example.com/team/blocks/pager.json"])
        #expect(result.code != 0)
        #expect(!result.errors.contains("--sha256"), "\(result.errors)")
        #expect(result.errors.contains("is the registry metadata of the block pager, not an archive"), "\(result.errors)")
        #expect(result.errors.contains("blocks add pager --registry https://blocks.example.com/team"), "\(result.errors)")
        // An archive URL still needs its hash, and the message says where it comes from.
        let archive = try project.runBinary(["add", "https://blocks.example.com/pager.zip"])
        #expect(archive.code != 0 && archive.errors.contains("--sha256"), "\(archive.errors)")
        #expect(archive.errors.contains("blocks export"), "\(archive.errors)")
    }

    @Test func offlineIsSuggestedOnlyWithACachedCopy() throws {
        let project = try TestProject.make()
        defer { project.delete() }
        let folder = try TestProject.temporaryFolder("advice")
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = folder.appendingPathComponent("cache").path
        // Nothing cached: a registry nobody answers at gets no --offline advice.
        let nothing = try project.runBinary(["list", "--registry", "http://127.0.0.1:1/reg"], environment: ["XDG_CACHE_HOME": cache])
        #expect(nothing.code != 0)
        #expect(nothing.errors.contains("failed"), "\(nothing.errors)")
        #expect(!nothing.errors.contains("--offline"), "\(nothing.errors)")
        // Cached once from a server that then stops: the advice names --offline.
        let built = try TeamServers.built([TestCatalog.Block.standard("strip", type: "Strip")], into: folder.appendingPathComponent("reg"))
        let server = try Nginx(root: built)
        let url = server.baseURL
        let first = try project.runBinary(["list", "--registry", url], environment: ["XDG_CACHE_HOME": cache])
        #expect(first.code == 0, "\(first.errors)")
        server.stop()
        let cached = try project.runBinary(["list", "--registry", url], environment: ["XDG_CACHE_HOME": cache])
        #expect(cached.code != 0)
        #expect(cached.errors.contains("--offline"), "\(cached.errors)")
        let offline = try project.runBinary(["list", "--registry", url, "--offline"], environment: ["XDG_CACHE_HOME": cache])
        #expect(offline.code == 0 && offline.output.contains("strip"), "\(offline.errors)")
    }
}

import Foundation
import Testing

@testable import BlocksKit

/// Issue 12 item 19: a block added from an archive URL has no update channel (its bytes
/// were pinned by `--sha256`), so `status` does not try to look it up and warn each run.
@Suite struct StatusChannelTests {
    @Test func aBlockFromAnArchiveURLIsQuietInStatus() throws {
        let folder = try TemporaryFolder("status-channel")
        defer { folder.cleanUp() }
        let environment = ["PATH": "/usr/bin:/bin", "HOME": folder.url.path, "XDG_CACHE_HOME": folder.path("cache").path]
        #expect(try runBinary(["export", "top-tabs", "-o", folder.path("public/top.tar.gz").path], in: folder.url, environment: environment).code == 0)
        let nginx = try Nginx(root: folder.path("public"))
        defer { nginx.stop() }
        let app = try TestProject.app(at: folder.path("app"), platforms: nil, source: ("x.swift", "let x = 1\n")).root
        let checksum = try SHA256.hex(fileAt: folder.path("public/top.tar.gz"))
        let url = nginx.url("top.tar.gz")
        let added = try runBinary(["add", url, "--sha256", checksum, "--yes"], in: app, environment: environment)
        #expect(added.code == 0, "\(added.err)")
        #expect(try Lockfile.read(root: app).blocks["top-tabs"]?.registry == url)
        for _ in 0..<2 {
            let status = try runBinary(["status"], in: app, environment: environment)
            #expect(status.code == 0)
            #expect(status.err.isEmpty, "\(status.err)")
            #expect(status.out.contains("top-tabs") && status.out.contains("unchanged"))
        }
        // A registry that does have a channel but cannot be read is still reported.
        #expect(StatusCommand.hasUpdateChannel("https://host/registry/"))
        #expect(StatusCommand.hasUpdateChannel("embedded"))
        #expect(!StatusCommand.hasUpdateChannel(url))
        #expect(!StatusCommand.hasUpdateChannel("HTTPS://host/a.zip"))
    }
}

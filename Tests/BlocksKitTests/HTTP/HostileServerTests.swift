import Foundation
import Testing

@testable import BlocksKit

/// Issue 32: secrets stay with their origin, and no server can make the tool wait, fill
/// the disk, or hide where a redirect went. Each test runs against the fault server on
/// loopback and asserts on what the server received, what was printed and what was written.
@Suite struct HostileServerTests {
    static let token = "tok-9d1c-SECRET"

    /// The `Authorization` value of every request the server had whose path starts with
    /// `prefix` ("-" for none).
    static func authorizations(_ server: FaultServer, prefix: String) throws -> [String] {
        let log = try CurlTransport(settings: fastTransferSettings).get(HTTPRequest(url: server.url("/requests/log")))
        return String(decoding: log.body, as: UTF8.self).split(separator: "\n").compactMap { line in
            let fields = line.split(separator: "\t", maxSplits: 1).map(String.init)
            guard fields.count == 2, fields[0].hasPrefix(prefix) else { return nil }
            return fields[1]
        }
    }

    // MARK: 1. BLOCKS_TOKEN goes to its own origin only

    @Test func theTokenGoesOnlyToTheOriginItIsBoundTo() throws {
        let registry = try FaultServer()
        let other = try FaultServer()
        defer {
            registry.stop()
            other.stop()
        }
        let transport = CurlTransport(token: Self.token, settings: fastTransferSettings)
            .sendingDefaultToken(to: HTTPOrigin(registry.baseURL))
        #expect(try transport.get(HTTPRequest(url: registry.url("/auth/a"))).body == Data("Bearer \(Self.token)".utf8))
        #expect(try transport.get(HTTPRequest(url: other.url("/auth/b"))).body == Data("absent".utf8))
        // The same host on another port is another origin.
        #expect(try transport.get(HTTPRequest(url: "http://localhost:\(registry.port)/auth/c")).body == Data("absent".utf8))
        // Unbound, the token goes nowhere.
        let unbound = CurlTransport(token: Self.token, settings: fastTransferSettings)
        #expect(try unbound.get(HTTPRequest(url: registry.url("/auth/d"))).body == Data("absent".utf8))
        // A redirect from the registry to another origin leaves the token behind.
        let hop = try transport.get(HTTPRequest(url: registry.url("/redirect/e?to=\(other.url("/auth/f"))")))
        #expect(hop.body == Data("absent".utf8))
        #expect(try Self.authorizations(other, prefix: "/auth/") == ["-", "-"])
    }

    @Test func addFromAnArchiveURLOnAnotherHostSendsNoToken() throws {
        let registry = try FaultServer()
        let other = try FaultServer()
        defer {
            registry.stop()
            other.stop()
        }
        let project = try TestProject.make()
        defer { project.delete() }
        try project.write("blocks.json", #"{"registry": "\#(registry.baseURL)/reg/"}"#)
        let result = runBlocks(
            ["add", other.url("/bytes/x.tar.gz?size=100"), "--sha256", String(repeating: "0", count: 64)], in: project.root,
            environment: ["BLOCKS_TOKEN": Self.token, "XDG_CACHE_HOME": project.url("cache").path],
            transport: CurlTransport(token: Self.token, settings: fastTransferSettings))
        #expect(result.code != 0)
        let seen = try Self.authorizations(other, prefix: "/bytes/")
        #expect(!seen.isEmpty && seen.allSatisfy { $0 == "-" }, "\(seen)")
        #expect(!(result.out + result.err).contains(Self.token))
    }

    /// A committed lock naming another server cannot collect the token, even when the
    /// project's registry is the built-in catalog.
    @Test func aLockNamingAnotherServerGetsNoToken() throws {
        let attacker = try FaultServer()
        defer { attacker.stop() }
        let project = try TestProject.make()
        defer { project.delete() }
        let environment = ["BLOCKS_TOKEN": Self.token, "XDG_CACHE_HOME": project.url("cache").path]
        let transport = CurlTransport(token: Self.token, settings: fastTransferSettings)
        #expect(runBlocks(["add", "top-tabs", "--yes"], in: project.root, environment: environment, transport: transport).code == 0)
        let lock = try #require(project.read("blocks.lock"))
        try project.write("blocks.lock", lock.replacingOccurrences(of: #""registry" : "embedded""#, with: #""registry" : "\#(attacker.url("/status/reg"))/""#)
            .replacingOccurrences(of: #""registry": "embedded""#, with: #""registry": "\#(attacker.url("/status/reg"))/""#))
        #expect(project.read("blocks.lock")?.contains(attacker.baseURL) == true, "\(project.read("blocks.lock") ?? "")")
        for command in [["status"], ["update", "--all", "--dry-run"]] {
            _ = runBlocks(command, in: project.root, environment: environment, transport: transport)
        }
        let seen = try Self.authorizations(attacker, prefix: "/status/")
        #expect(!seen.isEmpty && seen.allSatisfy { $0 == "-" }, "\(seen)")
    }

    // MARK: 2. A URL's user information is used, never printed or stored

    @Test func userinfoIsSentAsBasicAuthAndNeverPrintedOrStored() throws {
        let server = try FaultServer()
        defer { server.stop() }
        let project = try TestProject.make()
        defer { project.delete() }
        let base = server.baseURL.replacingOccurrences(of: "http://", with: "http://ada:hunter2-pw@")
        let environment = ["XDG_CACHE_HOME": project.url("cache").path]
        let transport = CurlTransport(settings: fastTransferSettings)
        var printed = ""
        for arguments in [
            ["--registry", "\(base)/status/reg?code=500/", "info", "top-tabs"],
            ["--registry", "\(base)/status/reg?code=500/", "info", "top-tabs", "--json"],
            ["--registry", "\(base)/status/reg?code=401/", "list"],
            ["init", "--registry", "\(base)/status/reg?code=404/"],
            ["status", "--registry", "\(base)/status/reg?code=404/"],
        ] {
            let result = runBlocks(arguments, in: project.root, environment: environment, transport: transport)
            printed += result.out + result.err
        }
        #expect(!printed.contains("hunter2"), "\(printed)")
        #expect(printed.contains("ada:***@") || !printed.contains("ada:"), "\(printed)")
        for (path, data) in fileContents(under: project.root) {
            #expect(!String(decoding: data, as: UTF8.self).contains("hunter2"), "\(path)")
        }
        let seen = try Self.authorizations(server, prefix: "/status/reg")
        let basic = "Basic " + Data("ada:hunter2-pw".utf8).base64EncodedString()
        #expect(!seen.isEmpty && seen.allSatisfy { $0 == basic }, "\(seen)")
    }

    /// A successful add from a registry behind a URL with user information (nginx serves a
    /// built registry): the request authenticates, and the password is in no file the
    /// tool wrote (project, lock, cache) and in nothing it printed. An error that quotes
    /// the typed URL (an unsupported scheme) masks it too.
    @Test func aRegistryURLsPasswordIsUsedButNeverStored() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let served = folder.url.appendingPathComponent("served")
        let built = runBlocks(["build", "--catalog", repositoryRoot.appendingPathComponent("Catalog").path, "--out", served.path])
        #expect(built.code == 0, "\(built.err)")
        let nginx = try Nginx(
            root: served, serverConfig: "access_log \(folder.url.appendingPathComponent("auth.log").path) withauth;",
            httpConfig: "log_format withauth '$request_uri $http_authorization';")
        defer { nginx.stop() }
        let project = try TestProject.make()
        defer { project.delete() }
        let cache = folder.url.appendingPathComponent("cache")
        let registry = nginx.baseURL.replacingOccurrences(of: "http://", with: "http://ada:hunter2-pw@") + "/"
        let environment = ["XDG_CACHE_HOME": cache.path]
        let transport = CurlTransport(settings: fastTransferSettings)
        var printed = ""
        for arguments in [["init", "--registry", registry], ["add", "top-tabs", "--registry", registry], ["status", "--registry", registry, "--json"]] {
            let result = runBlocks(arguments, in: project.root, environment: environment, transport: transport)
            #expect(result.code == 0, "\(arguments): \(result.err)")
            printed += result.out + result.err
        }
        #expect(project.exists("Sources/App/Blocks/top-tabs/TopTabs.swift"))
        let failed = runBlocks(["info", "top-tabs", "--registry", "ftp://ada:hunter2-pw@host/"], in: project.root, environment: environment, transport: transport)
        #expect(failed.code != 0)
        printed += failed.out + failed.err
        #expect(!printed.contains("hunter2"), "\(printed)")
        for base in [project.root, cache] {
            for (path, data) in fileContents(under: base) {
                #expect(!String(decoding: data, as: UTF8.self).contains("hunter2"), "\(base.lastPathComponent)/\(path)")
            }
        }
        let log = Nginx.logText(folder.url.appendingPathComponent("auth.log"))
        #expect(log.contains("Basic " + Data("ada:hunter2-pw".utf8).base64EncodedString()), "\(log)")
    }

    @Test func maskingHidesPasswordsAndLoneUserNames() {
        #expect(URLUserinfo.masked(in: "GET http://ada:pw@host:8/x failed") == "GET http://ada:***@host:8/x failed")
        #expect(URLUserinfo.masked(in: "https://ghp_abc@host/ and http://h/a@b") == "https://***@host/ and http://h/a@b")
        #expect(URLUserinfo.masked(in: "no url here: a@b") == "no url here: a@b")
        #expect(URLUserinfo.split("http://a:b@h/x")?.url == "http://h/x")
        #expect(URLUserinfo.split("http://h/x@y") == nil)
    }

    // MARK: 3. Every transfer has a deadline

    @Test func aServerThatDripsBytesIsStoppedAndNamed() throws {
        let server = try FaultServer()
        defer { server.stop() }
        var settings = fastTransferSettings
        settings.lowSpeedTime = 30
        settings.rateGracePeriod = 2
        let started = Date()
        #expect {
            try CurlTransport(settings: settings).get(HTTPRequest(url: server.url("/drip/a?rate=3&seconds=20")))
        } throws: { error in
            guard case .tooSlow(_, let reason) = error as? HTTPError else { return false }
            return reason.contains("the server at \(HTTPOrigin(server.baseURL)!.description) sent")
        }
        let elapsed = Date().timeIntervalSince(started)
        #expect(elapsed < 8, "\(elapsed) s")
        // Not retried: one request reached the server.
        #expect(try Self.authorizations(server, prefix: "/drip/").count == 1)
    }

    @Test func retriesStayWithinOneDeadline() throws {
        let server = try FaultServer()
        defer { server.stop() }
        var settings = fastTransferSettings
        settings.lowSpeedTime = 30
        settings.baseDeadline = 2
        settings.deadlineRate = 1 << 30
        settings.retries = 5
        let started = Date()
        #expect {
            try CurlTransport(settings: settings).get(HTTPRequest(url: server.url("/slow/b?size=100&stall=20")))
        } throws: { error in
            "\(error)".contains("did not finish within")
        }
        #expect(Date().timeIntervalSince(started) < 6)
    }

    @Test func theDefaultDeadlineScalesWithTheCap() {
        let settings = TransferSettings()
        #expect(settings.deadline(forBodyCap: 10_000) < 61)
        #expect(settings.deadline(forBodyCap: TransferLimits.maximumArchiveBytes) > settings.deadline(forBodyCap: 10_000))
        #expect(settings.minimumAverageRate >= 1024 && settings.rateGracePeriod <= 30)
    }

    // MARK: 4. No server fills the disk

    /// An index may declare any size: the download still stops at the one absolute cap,
    /// counted in decoded bytes, and leaves nothing behind.
    @Test func aGzipBombStopsAtTheAbsoluteCap() throws {
        let server = try FaultServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let destination = folder.url.appendingPathComponent("a.tar.gz")
        var settings = fastTransferSettings
        settings.lowSpeedTime = 30  // the server takes a while to compress 300 MB
        let results = CurlTransport(settings: settings).download(
            [
                HTTPDownload(
                    request: HTTPRequest(url: server.url("/gzip/c?size=\(300 * 1024 * 1024)"), maxBodyBytes: 4 * 1024 * 1024 * 1024),
                    destination: destination)
            ], maxParallel: 1, progress: nil)
        guard case .failure(.tooLarge(_, let limit)) = results[0] else {
            Issue.record("\(results)")
            return
        }
        #expect(limit == TransferLimits.maximumArchiveBytes)
        #expect(filesUnder(folder.url) == [])
        #expect(Mirror.maximumArchiveBytes == TransferLimits.maximumArchiveBytes)
    }

    @Test func aDownloadLeavesTheReservedFreeSpace() throws {
        let server = try FaultServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let free = try #require(FileSystemSpace.availableBytes(atPath: folder.url.path))
        var settings = fastTransferSettings
        settings.reservedFreeBytes = free + 1024 * 1024 * 1024
        let results = CurlTransport(settings: settings).download(
            [HTTPDownload(request: HTTPRequest(url: server.url("/bytes/d?size=1000")), destination: folder.url.appendingPathComponent("x"))],
            maxParallel: 1, progress: nil)
        guard case .failure(.file(_, let reason)) = results[0] else {
            Issue.record("\(results)")
            return
        }
        #expect(reason.contains("MB free"))
        #expect(filesUnder(folder.url) == [])
        #expect(try Self.authorizations(server, prefix: "/bytes/d") == [])
    }

    // MARK: The smaller items

    @Test func aHugeHeaderIsNamedAsSuch() throws {
        let server = try FaultServer()
        defer { server.stop() }
        #expect {
            try CurlTransport(settings: fastTransferSettings).get(HTTPRequest(url: server.url("/bigheader/e?size=\(10 * 1024 * 1024)")))
        } throws: { error in
            "\(error)".contains("headers are over \(TransferLimits.maximumHeaderBytes) bytes") && !"\(error)".contains("memory")
        }
    }

    @Test func aHeaderWithALineBreakIsNotBlamedOnTheNetwork() throws {
        let server = try FaultServer()
        defer { server.stop() }
        let request = HTTPRequest(url: server.url("/auth/g"), headers: [HTTPHeader(name: "X-Team", value: "a\r\nInjected: yes")])
        #expect {
            try CurlTransport(settings: fastTransferSettings).get(request)
        } throws: { error in
            let text = "\(error)"
            return text.contains("was not sent") && !text.contains("network")
        }
        #expect(try Self.authorizations(server, prefix: "/auth/g") == [])
    }

    @Test func aFailureAfterARedirectNamesWhereItWent() throws {
        let server = try FaultServer()
        defer { server.stop() }
        let target = server.url("/status/h?code=404")
        let escaped = target.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? target
        #expect {
            try CurlTransport(settings: fastTransferSettings).get(HTTPRequest(url: server.url("/redirect/h?to=\(escaped)")))
        } throws: { error in
            "\(error)".contains("redirected to \(target)")
        }
    }
}

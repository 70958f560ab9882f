import Foundation
import Testing

@testable import BlocksKit

/// `Authorization: Bearer $BLOCKS_TOKEN` is sent, and the token never shows up in an
/// error or a log line.
@Suite struct HTTPAuthTests {
    let token = "s3cret-Token-8f2a"

    @Test func bearerTokenIsSent() throws {
        let server = try FaultServer()
        defer { server.stop() }
        let origin = HTTPOrigin(server.baseURL)
        let withToken = try CurlTransport(token: token, tokenOrigin: origin, settings: fastTransferSettings)
            .get(HTTPRequest(url: server.url("/auth/one")))
        #expect(String(decoding: withToken.body, as: UTF8.self) == "Bearer \(token)")
        let fromEnvironment = try CurlTransport(environment: ["BLOCKS_TOKEN": token], settings: fastTransferSettings)
            .sendingDefaultToken(to: origin).get(HTTPRequest(url: server.url("/auth/two")))
        #expect(String(decoding: fromEnvironment.body, as: UTF8.self) == "Bearer \(token)")
        for transport in [
            CurlTransport(settings: fastTransferSettings), CurlTransport(environment: ["BLOCKS_TOKEN": ""]),
        ] {
            let without = try transport.get(HTTPRequest(url: server.url("/auth/three")))
            #expect(String(decoding: without.body, as: UTF8.self) == "absent")
        }
    }

    @Test func userAgentNamesTheTool() throws {
        let server = try FaultServer()
        defer { server.stop() }
        let response = try CurlTransport(token: token, settings: fastTransferSettings)
            .get(HTTPRequest(url: server.url("/header/agent?name=User-Agent")))
        #expect(String(decoding: response.body, as: UTF8.self) == "blocks/\(BlocksCLI.version)")
    }

    @Test func tokenFollowsRedirectsOnlyOnTheSameHost() throws {
        let server = try FaultServer()
        defer { server.stop() }
        let transport = CurlTransport(token: token, tokenOrigin: HTTPOrigin(server.baseURL), settings: fastTransferSettings)
        let sameHost = try transport.get(HTTPRequest(url: server.url("/redirect/same?to=/auth/here")))
        #expect(String(decoding: sameHost.body, as: UTF8.self) == "Bearer \(token)")
        let elsewhere = "http://localhost:\(server.port)/auth/there"
        let otherHost = try transport.get(HTTPRequest(url: server.url("/redirect/other?to=\(elsewhere)")))
        #expect(String(decoding: otherHost.body, as: UTF8.self) == "absent")
    }

    @Test func tokenNeverAppearsInErrorsOrLogs() throws {
        let server = try FaultServer()
        defer { server.stop() }
        let log = LogLines()
        let transport = fastTransport(token: token, log: log)
        var messages: [String] = []
        for path in [
            "/status/denied?code=401", "/status/down?code=500", "/reset/gone?size=100000", "/short/cut?size=1000",
            "/redirect/away?to=ftp://127.0.0.1/x", "/bytes/huge?size=100000", "/status/\(token)?code=404",
        ] {
            do {
                _ = try transport.get(HTTPRequest(url: server.url(path), maxBodyBytes: 50_000))
                messages.append("\(path) did not fail")
            } catch {
                messages.append(String(describing: error))
            }
        }
        let target = try Loopback.temporaryFolder("auth")
        defer { try? FileManager.default.removeItem(at: target) }
        let results = transport.download(
            [
                HTTPDownload(
                    request: HTTPRequest(url: server.url("/corrupt/bad?size=100")),
                    destination: target.appendingPathComponent("bad"), expectedSHA256: String(repeating: "a", count: 64)
                ),
                HTTPDownload(
                    request: HTTPRequest(url: "http://127.0.0.1:\(try Loopback.freePort())/?token=\(token)"),
                    destination: target.appendingPathComponent("refused")),
            ], maxParallel: 2, progress: nil)
        messages += results.compactMap { failure($0).map(String.init(describing:)) }

        #expect(messages.count == 9)
        #expect(log.all.count > 9)
        for message in messages + log.all {
            #expect(!message.contains(token), "\(message)")
        }
        #expect(messages.contains { $0.contains("HTTP 401") && $0.contains("check BLOCKS_TOKEN") })
        #expect(messages.contains { $0.contains("<BLOCKS_TOKEN>") })
        #expect(filesUnder(target).isEmpty)
    }

    @Test func aTokenWithALineBreakIsRefusedBeforeSending() throws {
        let server = try FaultServer()
        defer { server.stop() }
        let url = server.url("/auth/injected")
        #expect {
            try CurlTransport(token: "abc\r\nX-Evil: 1", tokenOrigin: HTTPOrigin(server.baseURL), settings: fastTransferSettings).get(HTTPRequest(url: url))
        } throws: { error in
            let text = String(describing: error)
            return text.contains("BLOCKS_TOKEN holds a control character") && !text.contains("abc")
        }
        let count = try CurlTransport(settings: fastTransferSettings).get(
            HTTPRequest(url: server.url("/count/injected")))
        #expect(String(decoding: count.body, as: UTF8.self) == "1")
    }
}

/// libcurl reads proxies from the environment; nothing in the transport turns that off.
///
/// This changes the process environment for a moment. `no_proxy` is set first and
/// covers 127.0.0.1 and localhost, so other tests running at the same time, which
/// all use loopback, keep going direct.
@Suite struct HTTPProxyTests {
    @Test func proxyFromTheEnvironmentWithNoProxyForLoopback() throws {
        let server = try FaultServer()
        defer { server.stop() }
        let saved = ["http_proxy", "no_proxy"].map { ($0, ProcessInfo.processInfo.environment[$0]) }
        let keptNoProxy = saved[1].1.map { "," + $0 } ?? ""
        setenv("no_proxy", "127.0.0.1,localhost" + keptNoProxy, 1)
        setenv("http_proxy", server.baseURL, 1)
        defer {
            for (name, value) in saved.reversed() {
                if let value { setenv(name, value, 1) } else { unsetenv(name) }
            }
        }
        let transport = CurlTransport(settings: fastTransferSettings)
        let proxied = try transport.get(HTTPRequest(url: "http://registry.invalid/index.json"))
        #expect(String(decoding: proxied.body, as: UTF8.self) == "proxied http://registry.invalid/index.json")
        let direct = try transport.get(HTTPRequest(url: server.url("/count/direct")))
        #expect(String(decoding: direct.body, as: UTF8.self) == "1")
    }
}

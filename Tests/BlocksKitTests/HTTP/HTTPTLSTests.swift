import Foundation
import Testing

@testable import BlocksKit

/// https against nginx with a self-signed certificate: the transport trusts it only
/// when told to, and never follows a redirect from https down to http.
@Suite struct HTTPTLSTests {
    private func makeRoot() throws -> URL {
        let root = try Loopback.temporaryFolder("root")
        try Data("{\"blocks\":[]}\n".utf8).write(to: root.appendingPathComponent("index.json"))
        return root
    }

    private func settings(trusting nginx: Nginx) -> TransferSettings {
        var settings = fastTransferSettings
        settings.certificateAuthorityFile = nginx.certificateFile?.path
        return settings
    }

    @Test func getsOverHTTPSWhenTheCertificateIsTrusted() throws {
        let root = try makeRoot()
        defer { try? FileManager.default.removeItem(at: root) }
        let nginx = try Nginx(root: root, serverConfig: "location = /moved { return 302 /index.json; }", tls: true)
        defer { nginx.stop() }
        #expect(nginx.baseURL.hasPrefix("https://"))
        let transport = CurlTransport(settings: settings(trusting: nginx))
        let response = try transport.get(HTTPRequest(url: nginx.url("index.json")))
        #expect(String(decoding: response.body, as: UTF8.self) == "{\"blocks\":[]}\n")
        // https to https is followed.
        let moved = try transport.get(HTTPRequest(url: nginx.url("moved")))
        #expect(moved.body == response.body)
    }

    @Test func anUntrustedCertificateIsOneErrorWithoutRetries() throws {
        let root = try makeRoot()
        defer { try? FileManager.default.removeItem(at: root) }
        let nginx = try Nginx(root: root, tls: true)
        defer { nginx.stop() }
        let log = LogLines()
        let url = nginx.url("index.json")
        #expect {
            try fastTransport(log: log).get(HTTPRequest(url: url))
        } throws: { error in
            guard case .transport(let errorURL, let reason) = error as? HTTPError else { return false }
            return errorURL == url && reason.lowercased().contains("certificate")
        }
        #expect(log.retryCount == 0)
    }

    @Test func httpsNeverRedirectsToHTTP() throws {
        let root = try makeRoot()
        defer { try? FileManager.default.removeItem(at: root) }
        let plain = try Nginx(root: root)
        defer { plain.stop() }
        let secure = try Nginx(
            root: root, serverConfig: "location = /down { return 302 \(plain.url("index.json")); }", tls: true)
        defer { secure.stop() }
        let transport = CurlTransport(settings: settings(trusting: secure))
        let url = secure.url("down")
        // The error names where the redirect went (issue 32).
        let shown = "\(url) (redirected to \(plain.url("index.json")))"
        #expect(throws: HTTPError.insecureRedirect(url: shown)) {
            try transport.get(HTTPRequest(url: url))
        }
        let target = try Loopback.temporaryFolder("downloads")
        defer { try? FileManager.default.removeItem(at: target) }
        let result = transport.download(
            [HTTPDownload(request: HTTPRequest(url: url), destination: target.appendingPathComponent("index.json"))],
            maxParallel: 1, progress: nil)[0]
        #expect(failure(result) == .insecureRedirect(url: shown))
        #expect(filesUnder(target).isEmpty)
        // The plain server itself answers, so only the downgrade was refused.
        #expect(try transport.get(HTTPRequest(url: plain.url("index.json"))).status == 200)
    }

    @Test func httpMayRedirectUpToHTTPS() throws {
        let root = try makeRoot()
        defer { try? FileManager.default.removeItem(at: root) }
        let secure = try Nginx(root: root, tls: true)
        defer { secure.stop() }
        let server = try FaultServer()
        defer { server.stop() }
        let target = secure.url("index.json").addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        let response = try CurlTransport(settings: settings(trusting: secure)).get(
            HTTPRequest(url: server.url("/redirect/up?to=\(target)")))
        #expect(String(decoding: response.body, as: UTF8.self) == "{\"blocks\":[]}\n")
    }
}

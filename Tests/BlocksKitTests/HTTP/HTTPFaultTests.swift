import Foundation
import Testing

@testable import BlocksKit

/// Every fault the fault server produces ends in success after retries, or in one
/// clear error, and never leaves a `.part` or a partial destination behind.
@Suite struct HTTPFaultTests {
    /// One download into a fresh folder; returns the result and the files left there.
    private func downloadOne(
        _ url: String, transport: CurlTransport, expectedSHA256: String? = nil, maxBodyBytes: Int64 = 1 << 20
    ) throws -> (result: Result<HTTPResponse, HTTPError>, files: [String], data: Data?) {
        let target = try Loopback.temporaryFolder("faults")
        defer { try? FileManager.default.removeItem(at: target) }
        let destination = target.appendingPathComponent("block.tar.gz")
        let download = HTTPDownload(
            request: HTTPRequest(url: url, maxBodyBytes: maxBodyBytes), destination: destination,
            expectedSHA256: expectedSHA256)
        let result = transport.download([download], maxParallel: 1, progress: nil)[0]
        return (result, filesUnder(target), try? Data(contentsOf: destination))
    }

    @Test func resetMidBodyOnceThenSuccess() throws {
        let server = try FaultServer()
        defer { server.stop() }
        let log = LogLines()
        let body = FaultServer.pattern(size: 300_000)
        let outcome = try downloadOne(
            server.url("/reset/once?size=300000&fail=1"), transport: fastTransport(log: log),
            expectedSHA256: SHA256.hex(body))
        #expect(try outcome.result.get().status == 200)
        #expect(outcome.data == body)
        #expect(outcome.files == ["block.tar.gz"])
        #expect(log.retryCount == 1)
    }

    @Test func resetEveryTimeIsOneErrorAndNoFile() throws {
        let server = try FaultServer()
        defer { server.stop() }
        let log = LogLines()
        let url = server.url("/reset/always?size=300000")
        let outcome = try downloadOne(url, transport: fastTransport(log: log))
        let error = try #require(failure(outcome.result))
        guard case .transport(let errorURL, let reason) = error else {
            Issue.record("expected a transport error, got \(error)")
            return
        }
        #expect(errorURL == url)
        #expect(reason.contains("after 4 attempts"))
        #expect(error.description.contains(url) && error.description.contains("check the network"))
        #expect(outcome.files.isEmpty)
        #expect(log.retryCount == 3)
    }

    @Test func shortBodyTwiceThenSuccess() throws {
        let server = try FaultServer()
        defer { server.stop() }
        let log = LogLines()
        let response = try fastTransport(log: log).get(HTTPRequest(url: server.url("/short/get?size=5000&fail=2")))
        #expect(response.body == FaultServer.pattern(size: 5000))
        #expect(log.retryCount == 2)
    }

    @Test func shortBodyWithoutRetriesLeft() throws {
        let server = try FaultServer()
        defer { server.stop() }
        var settings = fastTransferSettings
        settings.retries = 1
        let log = LogLines()
        let outcome = try downloadOne(
            server.url("/short/always?size=5000"), transport: fastTransport(log: log, settings: settings))
        let error = try #require(failure(outcome.result))
        #expect(error.description.contains("after 2 attempts"))
        #expect(outcome.files.isEmpty)
    }

    @Test func corruptBodyIsAChecksumErrorWithoutRetry() throws {
        let server = try FaultServer()
        defer { server.stop() }
        let log = LogLines()
        let expected = SHA256.hex(FaultServer.pattern(size: 4096))
        let url = server.url("/corrupt/one?size=4096")
        let outcome = try downloadOne(url, transport: fastTransport(log: log), expectedSHA256: expected.uppercased())
        var corrupt = FaultServer.pattern(size: 4096)
        corrupt[0] ^= 0xFF
        #expect(failure(outcome.result) == .checksumMismatch(url: url, expected: expected, actual: SHA256.hex(corrupt)))
        #expect(outcome.files.isEmpty)
        #expect(log.retryCount == 0)
    }

    @Test func serverErrorTwiceThenSuccess() throws {
        let server = try FaultServer()
        defer { server.stop() }
        let log = LogLines()
        let response = try fastTransport(log: log).get(
            HTTPRequest(url: server.url("/status/get?code=500&fail=2&size=10")))
        #expect(response.status == 200)
        #expect(response.body == FaultServer.pattern(size: 10))
        #expect(log.retryCount == 2)

        let body = FaultServer.pattern(size: 70_000)
        let outcome = try downloadOne(
            server.url("/status/download?code=503&fail=2&size=70000"), transport: fastTransport(log: log),
            expectedSHA256: SHA256.hex(body))
        #expect(outcome.data == body)
        #expect(outcome.files == ["block.tar.gz"])
    }

    @Test func persistentServerErrorNamesTheStatus() throws {
        let server = try FaultServer()
        defer { server.stop() }
        let log = LogLines()
        let url = server.url("/status/always?code=502")
        let outcome = try downloadOne(url, transport: fastTransport(log: log))
        let error = try #require(failure(outcome.result))
        #expect(error == .status(url: url, code: 502))
        #expect(error.description.contains("HTTP 502") && error.description.contains("try again later"))
        #expect(outcome.files.isEmpty)
        #expect(log.retryCount == 3)
    }

    @Test func clientErrorsAreNotRetried() throws {
        let server = try FaultServer()
        defer { server.stop() }
        let log = LogLines()
        let url = server.url("/status/forbidden?code=403")
        #expect(throws: HTTPError.status(url: url, code: 403)) {
            try fastTransport(log: log).get(HTTPRequest(url: url))
        }
        #expect(log.retryCount == 0)
        // 408 is the one 4xx worth retrying.
        let timeout = try fastTransport(log: log).get(HTTPRequest(url: server.url("/status/timeout?code=408&fail=1")))
        #expect(timeout.status == 200)
        #expect(log.retryCount == 1)
    }

    @Test func rateLimitHonorsRetryAfter() throws {
        let server = try FaultServer()
        defer { server.stop() }
        let log = LogLines()
        let response = try fastTransport(log: log).get(
            HTTPRequest(url: server.url("/retry-after/once?seconds=1&size=32")))
        #expect(response.body == FaultServer.pattern(size: 32))
        #expect(log.retryCount == 1)
        #expect(log.text.contains("HTTP 429; retrying in 1.00 s"))
    }

    @Test func stalledBodyTimesOutThenSucceeds() throws {
        let server = try FaultServer()
        defer { server.stop() }
        let log = LogLines()
        let body = FaultServer.pattern(size: 2000)
        let outcome = try downloadOne(
            server.url("/slow/once?size=2000&stall=4&fail=1"), transport: fastTransport(log: log),
            expectedSHA256: SHA256.hex(body))
        #expect(outcome.data == body)
        #expect(log.retryCount == 1)
        #expect(log.text.contains("too slow"))
    }

    @Test func stalledBodyWithoutRetriesIsATimeout() throws {
        let server = try FaultServer()
        defer { server.stop() }
        var settings = fastTransferSettings
        settings.retries = 0
        let outcome = try downloadOne(
            server.url("/slow/always?size=2000&stall=4"), transport: fastTransport(log: LogLines(), settings: settings))
        let error = try #require(failure(outcome.result))
        #expect(error.description.contains("too slow"))
        #expect(error.description.contains("after 1 attempt)"))
        #expect(outcome.files.isEmpty)
    }

    @Test(arguments: ["ftp://127.0.0.1/archive.tar.gz", "file:///etc/passwd", "gopher://127.0.0.1/x"])
    func redirectToAnotherSchemeIsRefused(target: String) throws {
        let server = try FaultServer()
        defer { server.stop() }
        let log = LogLines()
        let url = server.url("/redirect/away?to=\(target)")
        // The error names where the redirect went (issue 32).
        let shown = "\(url) (redirected to \(target))"
        #expect(throws: HTTPError.insecureRedirect(url: shown)) {
            try fastTransport(log: log).get(HTTPRequest(url: url))
        }
        let outcome = try downloadOne(url, transport: fastTransport(log: log))
        #expect(failure(outcome.result) == .insecureRedirect(url: shown))
        #expect(outcome.files.isEmpty)
        #expect(log.retryCount == 0)
    }

    @Test func redirectWithinHTTPIsFollowed() throws {
        let server = try FaultServer()
        defer { server.stop() }
        let response = try CurlTransport(settings: fastTransferSettings).get(
            HTTPRequest(url: server.url("/redirect/inside?to=/bytes/target%3Fsize%3D100")))
        #expect(response.body == FaultServer.pattern(size: 100))
    }

    @Test func notAnHTTPURLIsRefused() throws {
        let url = "file:///etc/passwd"
        #expect {
            try CurlTransport(settings: fastTransferSettings).get(HTTPRequest(url: url))
        } throws: { error in
            guard case .transport(let errorURL, let reason) = error as? HTTPError else { return false }
            return errorURL == url && reason.contains("use an http:// or https:// URL")
        }
    }

    @Test func bodyOverTheCapIsRefused() throws {
        let server = try FaultServer()
        defer { server.stop() }
        let log = LogLines()
        // Announced by Content-Length, and found only while counting.
        for path in ["/bytes/big?size=100000", "/bytes/unannounced?size=100000&nolength=1"] {
            let url = server.url(path)
            #expect(throws: HTTPError.tooLarge(url: url, limit: 50_000)) {
                try fastTransport(log: log).get(HTTPRequest(url: url, maxBodyBytes: 50_000))
            }
            let outcome = try downloadOne(url, transport: fastTransport(log: log), maxBodyBytes: 50_000)
            #expect(failure(outcome.result) == .tooLarge(url: url, limit: 50_000))
            #expect(outcome.files.isEmpty)
        }
        #expect(log.retryCount == 0)
        let exact = try fastTransport(log: log).get(
            HTTPRequest(url: server.url("/bytes/exact?size=50000&nolength=1"), maxBodyBytes: 50_000))
        #expect(exact.body.count == 50_000)
    }

    @Test func etagOnTheFaultServer() throws {
        let server = try FaultServer()
        defer { server.stop() }
        let transport = CurlTransport(settings: fastTransferSettings)
        let first = try transport.get(HTTPRequest(url: server.url("/etag/index?tag=v7")))
        #expect(first.etag == "\"v7\"")
        let second = try transport.get(HTTPRequest(url: server.url("/etag/index?tag=v7"), ifNoneMatch: "\"v7\""))
        #expect(second.status == 304 && second.body.isEmpty)
    }

    @Test func connectionRefusedIsOneErrorAfterRetries() throws {
        let port = try Loopback.freePort()
        let url = "http://127.0.0.1:\(port)/index.json"
        let log = LogLines()
        #expect {
            try fastTransport(log: log).get(HTTPRequest(url: url))
        } throws: { error in
            guard case .transport(let errorURL, let reason) = error as? HTTPError else { return false }
            return errorURL == url && reason.contains("after 4 attempts")
        }
        #expect(log.retryCount == 3)
    }

    @Test func unwritableDestinationIsAFileError() throws {
        let server = try FaultServer()
        defer { server.stop() }
        let folder = try Loopback.temporaryFolder("faults")
        defer { try? FileManager.default.removeItem(at: folder) }
        let blocker = folder.appendingPathComponent("not-a-folder")
        try Data("x".utf8).write(to: blocker)
        let result = CurlTransport(settings: fastTransferSettings).download(
            [
                HTTPDownload(
                    request: HTTPRequest(url: server.url("/bytes/x?size=10")),
                    destination: blocker.appendingPathComponent("a.zip"))
            ],
            maxParallel: 1, progress: nil)[0]
        guard case .file = failure(result) else {
            Issue.record("expected a file error, got \(result)")
            return
        }
        #expect(filesUnder(folder) == ["not-a-folder"])
    }
}

import Foundation
import Testing

@testable import BlocksKit

/// Issue 12 item 17: waiting is said, on a terminal, and bounded. A `Retry-After` beyond
/// what one retry may wait fails at once saying so; a shorter one is waited for and
/// announced; a server that says nothing is announced before it is given up.
@Suite struct TransferNoticeTests {
    /// The policy's numbers, without waiting for any of them.
    @Test func theWaitPolicy() {
        let defaults = TransferSettings()
        #expect(defaults.maxRetryDelay == 60)
        #expect(RetryPolicy.waitIsTooLong(retryAfter: 3600, settings: defaults))
        #expect(RetryPolicy.waitIsTooLong(retryAfter: 61, settings: defaults))
        #expect(!RetryPolicy.waitIsTooLong(retryAfter: 60, settings: defaults))
        #expect(!RetryPolicy.waitIsTooLong(retryAfter: nil, settings: defaults))
        #expect(RetryPolicy.delay(beforeRetry: 1, retryAfter: 30, settings: defaults) == 30)
        // The backoff of every retry stays far below the cap, so the longest a request
        // can wait in all is three capped Retry-After waits.
        for retry in 1...defaults.retries {
            #expect(RetryPolicy.delay(beforeRetry: retry, retryAfter: nil, settings: defaults) <= 2)
        }
        #expect(RetryPolicy.spoken(0.5) == "0.5 s")
        #expect(RetryPolicy.spoken(30) == "30 s")
        #expect(RetryPolicy.spoken(600) == "10 min")
        #expect(RetryPolicy.spoken(3600) == "60 min")
        #expect(RetryPolicy.spoken(86400) == "24 h")
        let error = HTTPError.retryLater(url: "http://h/index.json", code: 503, seconds: 3600, limit: 60)
        #expect(
            error.description
                == "GET http://h/index.json failed with HTTP 503, and the server asks to be retried in 60 min, longer than blocks waits (60 s); try again later"
        )
    }

    /// `Retry-After: 3600` is not waited for, three times over: the request fails at once.
    @Test func aRetryAfterBeyondTheCapFailsAtOnce() throws {
        let server = try FaultServer()
        defer { server.stop() }
        let notices = LogLines()
        let transport = fastTransport(log: LogLines()).announcing { notices.append($0) }
        let started = Date()
        #expect(throws: HTTPError.retryLater(url: server.url("/retry-after/long?seconds=3600&fail=9"), code: 429, seconds: 3600, limit: 2)) {
            try transport.get(HTTPRequest(url: server.url("/retry-after/long?seconds=3600&fail=9")))
        }
        #expect(Date().timeIntervalSince(started) < 1.5)
        #expect(notices.all.isEmpty)
    }

    /// A short `Retry-After` is waited for (one real, one-second retry) and announced.
    @Test func aShortRetryAfterIsWaitedForAndSaid() throws {
        let server = try FaultServer()
        defer { server.stop() }
        let notices = LogLines()
        let transport = fastTransport(log: LogLines()).announcing { notices.append($0) }
        let url = server.url("/retry-after/short?seconds=1&size=32")
        let response = try transport.get(HTTPRequest(url: url))
        #expect(response.body == FaultServer.pattern(size: 32))
        #expect(notices.all == ["GET \(url): retrying in 1.0 s after HTTP 429, as the server asked (attempt 2 of 4)"])
    }

    /// Many transfers retrying at once make one note, counting the rest, not one each:
    /// a server failing under a mirror must not flood the terminal.
    @Test func aBatchOfRetriesIsOneNote() throws {
        let server = try FaultServer()
        defer { server.stop() }
        let notices = LogLines()
        let transport = fastTransport(log: LogLines()).announcing { notices.append($0) }
        let requests = (0..<20).map { HTTPRequest(url: server.url("/status/batch\($0)?code=503&fail=1&size=8")) }
        let results = transport.fetch(requests, maxParallel: 8)
        #expect(results.allSatisfy { (try? $0.get())?.body == FaultServer.pattern(size: 8) })
        #expect((1...2).contains(notices.all.count), "\(notices.all)")
        #expect(notices.all.first?.contains("retrying in") == true)
    }

    /// A server that accepts and never answers is named while it is waited for.
    @Test func aSilentServerIsSaidBeforeItIsGivenUp() throws {
        let server = try FaultServer()
        defer { server.stop() }
        let notices = LogLines()
        var settings = fastTransferSettings
        settings.retries = 0
        settings.lowSpeedTime = 2
        settings.stallNotice = 0.5
        let transport = fastTransport(log: LogLines(), settings: settings).announcing { notices.append($0) }
        let url = server.url("/silent/one?seconds=10")
        #expect(throws: HTTPError.self) { try transport.get(HTTPRequest(url: url)) }
        #expect(notices.all.count == 1, "\(notices.all)")
        #expect(notices.text.hasPrefix("GET \(url): no answer for "), "\(notices.text)")
        #expect(notices.text.hasSuffix("the attempt ends after 2 s without data, then blocks gives up (attempt 1 of 1)"), "\(notices.text)")
    }

    /// A command on a terminal says what it waits for on stderr; in a pipe, or with
    /// `--quiet`, it stays silent. The real binary fails at once on `Retry-After: 3600`.
    @Test func commandsSayWhatTheyWaitForOnlyOnATerminal() throws {
        let server = try FaultServer()
        defer { server.stop() }
        let folder = try TemporaryFolder("notices")
        defer { folder.cleanUp() }
        for (terminal, quiet, key) in [(true, false, "a"), (false, false, "b"), (true, true, "c")] {
            var (context, output, errors) = makeContext(
                directory: folder.url, environment: ["XDG_CACHE_HOME": folder.path("cache").path], terminal: terminal,
                transport: fastTransport(log: LogLines()))
            let code = BlocksCLI.run(["--registry", server.url("/busy-index/1/\(key)/"), "list"] + (quiet ? ["-q"] : []), context: &context)
            #expect(code == 0, "\(errors.text)")
            #expect(!output.text.contains("error"))
            let said = errors.text.contains("note: GET \(server.url("/busy-index/1/\(key)/index.json")): retrying in 1.0 s after HTTP 503, as the server asked")
            #expect(said == (terminal && !quiet), "\(errors.text)")
        }
        let started = Date()
        let result = try runBinary(
            ["--registry", server.url("/busy-index/3600/d/"), "list"], in: folder.url,
            environment: ["PATH": "/usr/bin:/bin", "XDG_CACHE_HOME": folder.path("cache").path])
        #expect(result.code == 1)
        #expect(result.err.contains("failed with HTTP 503, and the server asks to be retried in 60 min, longer than blocks waits (60 s)"), "\(result.err)")
        #expect(Date().timeIntervalSince(started) < 10)
    }
}

import Foundation
import Testing

@testable import BlocksKit

/// The retry and redirect rules, without a network.
@Suite struct HTTPPolicyTests {
    @Test func retryableStatuses() {
        for status in [408, 429, 500, 502, 503, 504, 599] {
            #expect(RetryPolicy.isRetryable(status: status), "\(status)")
        }
        for status in [200, 304, 400, 401, 403, 404, 410, 451] {
            #expect(!RetryPolicy.isRetryable(status: status), "\(status)")
        }
    }

    @Test func backoffGrowsWithJitterAndStaysUnderTheCap() {
        let settings = TransferSettings(backoffBase: 0.5, maxRetryDelay: 30)
        for retry in 1...3 {
            let full = 0.5 * pow(2, Double(retry - 1))
            var delays: Set<Double> = []
            for _ in 0..<50 {
                let delay = RetryPolicy.delay(beforeRetry: retry, retryAfter: nil, settings: settings)
                #expect(delay >= full / 2 && delay <= full, "retry \(retry): \(delay)")
                delays.insert(delay)
            }
            #expect(delays.count > 1, "the delay has jitter")
        }
        let capped = TransferSettings(backoffBase: 10, maxRetryDelay: 3)
        #expect(RetryPolicy.delay(beforeRetry: 5, retryAfter: nil, settings: capped) <= 3)
    }

    @Test func retryAfterRaisesTheDelayUpToTheCap() {
        let settings = TransferSettings(backoffBase: 0.05, maxRetryDelay: 30)
        #expect(RetryPolicy.delay(beforeRetry: 1, retryAfter: 7, settings: settings) == 7)
        #expect(RetryPolicy.delay(beforeRetry: 1, retryAfter: 3600, settings: settings) == 30)
    }

    @Test func retryAfterParsesSecondsAndDates() {
        #expect(RetryPolicy.retryAfterSeconds("1") == 1)
        #expect(RetryPolicy.retryAfterSeconds(" 120 ") == 120)
        #expect(RetryPolicy.retryAfterSeconds("-3") == nil)
        #expect(RetryPolicy.retryAfterSeconds("soon") == nil)
        let now = Date(timeIntervalSince1970: 1_445_412_480)  // Wed, 21 Oct 2015 07:28:00 GMT
        #expect(RetryPolicy.retryAfterSeconds("Wed, 21 Oct 2015 07:28:10 GMT", now: now) == 10)
        #expect(RetryPolicy.retryAfterSeconds("Wed, 21 Oct 2015 07:27:00 GMT", now: now) == 0)
    }

    @Test func httpsMayOnlyRedirectToHTTPS() {
        #expect(RedirectPolicy.allowedRedirectProtocols(for: "https://registry.example/index.json") == "https")
        #expect(RedirectPolicy.allowedRedirectProtocols(for: "HTTPS://registry.example/") == "https")
        #expect(RedirectPolicy.allowedRedirectProtocols(for: "http://registry.example/") == "http,https")
        #expect(RedirectPolicy.allowedProtocols == "http,https")
    }

    @Test func defaultsMatchTheProductRules() {
        let settings = TransferSettings()
        #expect(settings.retries == 3)
        #expect(settings.connectTimeout == 10)
        #expect(settings.maxRedirects == 5)
        #expect(settings.userAgent == "blocks/\(BlocksCLI.version)")
    }

    @Test func errorsNameTheURLTheStatusAndWhatToTry() {
        let notFound = HTTPError.status(url: "http://h/index.json", code: 404).description
        #expect(notFound.contains("http://h/index.json") && notFound.contains("404") && notFound.contains("check"))
        let unauthorized = HTTPError.status(url: "http://h/x", code: 401).description
        #expect(unauthorized.contains("BLOCKS_TOKEN"))
    }

    @Test func redactionHidesTheToken() {
        let transport = CurlTransport(token: "s3cret-token")
        let error = transport.redact(HTTPError.transport(url: "http://h/?t=s3cret-token", reason: "saw s3cret-token"))
        #expect(!error.description.contains("s3cret-token"))
        #expect(error.description.contains("<BLOCKS_TOKEN>"))
    }

    @Test func emptyTokenSendsNothing() throws {
        #expect(CurlTransport(token: "").redact("abc") == "abc")
        #expect(CurlTransport(environment: ["BLOCKS_TOKEN": "  "]).redact("  ") == "  ")
    }
}

/// Which failures are worth another attempt, and how long to wait before it.
/// Kept apart from libcurl so the rules can be tested without a network.
public enum RetryPolicy {
    /// Statuses that say "try again later": request timeout, rate limiting, server errors.
    public static func isRetryable(status: Int) -> Bool {
        status == 408 || status == 429 || (500...599).contains(status)
    }

    /// The wait before retry number `retry` (1 for the first retry): exponential
    /// backoff with "equal jitter" (half fixed, half random), raised to what
    /// `Retry-After` asked for, and never above `settings.maxRetryDelay`.
    public static func delay(
        beforeRetry retry: Int, retryAfter: TimeInterval?, settings: TransferSettings,
        using generator: inout some RandomNumberGenerator
    ) -> TimeInterval {
        let exponent = Double(max(0, min(retry - 1, 30)))
        let backoff = min(settings.backoffBase * pow(2, exponent), settings.maxRetryDelay)
        let jittered = backoff / 2 + Double.random(in: 0...(backoff / 2), using: &generator)
        let wanted = max(jittered, retryAfter ?? 0)
        return min(max(wanted, 0), settings.maxRetryDelay)
    }

    public static func delay(
        beforeRetry retry: Int, retryAfter: TimeInterval?, settings: TransferSettings
    )
        -> TimeInterval
    {
        var generator = SystemRandomNumberGenerator()
        return delay(beforeRetry: retry, retryAfter: retryAfter, settings: settings, using: &generator)
    }

    /// True when a server's `Retry-After` asks for a longer wait than one retry may take
    /// (`settings.maxRetryDelay`). Such a retry is not made: the request fails at once,
    /// saying when the server expects to be back, instead of waiting out the cap again
    /// and again for an answer the server said would not come.
    public static func waitIsTooLong(retryAfter: TimeInterval?, settings: TransferSettings) -> Bool {
        (retryAfter ?? 0) > settings.maxRetryDelay
    }

    /// A wait as a person reads it: "0.5 s", "30 s", "2 min", "1 h".
    public static func spoken(_ seconds: TimeInterval) -> String {
        if seconds < 10 { return "\(seconds.fixedPoint(places: 1)) s" }
        if seconds < 120 { return "\(Int(seconds.rounded())) s" }
        if seconds < 7200 { return "\(Int((seconds / 60).rounded())) min" }
        return "\(Int((seconds / 3600).rounded())) h"
    }

    /// Seconds to wait from a `Retry-After` value: either a number of seconds or an
    /// HTTP date. Nil when the value is neither.
    public static func retryAfterSeconds(_ value: String, now: Date = Date()) -> TimeInterval? {
        let trimmed = value.trimmingWhitespace()
        if let seconds = Int(trimmed) { return seconds >= 0 ? TimeInterval(seconds) : nil }
        guard let date = httpDate(trimmed) else { return nil }
        return max(0, date.timeIntervalSince(now))
    }

    /// An IMF-fixdate such as `Wed, 21 Oct 2015 07:28:00 GMT`, the one date form RFC 9110
    /// lets servers send; nil for anything else.
    static func httpDate(_ text: String) -> Date? {
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let parts = text.split(separator: " ")
        guard parts.count == 6, parts[0].count == 4, parts[0].hasSuffix(","), parts[5] == "GMT",
            let day = Int(parts[1]), (1...31).contains(day),
            let month = months.firstIndex(of: String(parts[2])),
            let year = Int(parts[3]), parts[3].count == 4
        else { return nil }
        let clock = parts[4].split(separator: ":").compactMap { Int($0) }
        guard clock.count == 3, (0...23).contains(clock[0]), (0...59).contains(clock[1]), (0...60).contains(clock[2]) else {
            return nil
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        let components = DateComponents(year: year, month: month + 1, day: day, hour: clock[0], minute: clock[1], second: clock[2])
        guard let date = calendar.date(from: components), calendar.component(.day, from: date) == day else { return nil }
        return date
    }
}

/// Where a redirect may lead. An https request must stay on https, so a redirect can
/// never downgrade it to cleartext; an http request may upgrade to https. Nothing
/// else (ftp, file, …) is ever followed.
public enum RedirectPolicy {
    /// The protocols libcurl may use at all.
    public static let allowedProtocols = "http,https"

    /// A status that sends the client elsewhere with a `Location` (304 is no redirect).
    public static func isRedirect(_ status: Int) -> Bool {
        [301, 302, 303, 307, 308].contains(status)
    }

    /// The protocols a redirect from `url` may lead to, in libcurl's list syntax.
    public static func allowedRedirectProtocols(for url: String) -> String {
        url.lowercased().hasPrefix("https:") ? "https" : "http,https"
    }
}

import Foundation

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

    public static func delay(beforeRetry retry: Int, retryAfter: TimeInterval?, settings: TransferSettings)
        -> TimeInterval
    {
        var generator = SystemRandomNumberGenerator()
        return delay(beforeRetry: retry, retryAfter: retryAfter, settings: settings, using: &generator)
    }

    /// Seconds to wait from a `Retry-After` value: either a number of seconds or an
    /// HTTP date. Nil when the value is neither.
    public static func retryAfterSeconds(_ value: String, now: Date = Date()) -> TimeInterval? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if let seconds = Int(trimmed) { return seconds >= 0 ? TimeInterval(seconds) : nil }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: trimmed) else { return nil }
        return max(0, date.timeIntervalSince(now))
    }
}

/// Where a redirect may lead. An https request must stay on https, so a redirect can
/// never downgrade it to cleartext; an http request may upgrade to https. Nothing
/// else (ftp, file, …) is ever followed.
public enum RedirectPolicy {
    /// The protocols libcurl may use at all.
    public static let allowedProtocols = "http,https"

    /// The protocols a redirect from `url` may lead to, in libcurl's list syntax.
    public static func allowedRedirectProtocols(for url: String) -> String {
        url.lowercased().hasPrefix("https:") ? "https" : "http,https"
    }
}

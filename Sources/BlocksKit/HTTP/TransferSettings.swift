/// The knobs of every transfer: timeouts, retries and redirects. The defaults suit a
/// person on a slow network; tests shrink them so that faults resolve in about a second.
public struct TransferSettings: Sendable, Equatable {
    /// Seconds to wait for a TCP (and TLS) connection before the attempt fails.
    public var connectTimeout: TimeInterval
    /// A transfer slower than `lowSpeedLimit` bytes per second for `lowSpeedTime`
    /// seconds is aborted, so a stalled server cannot hang the tool.
    public var lowSpeedLimit: Int
    public var lowSpeedTime: Int
    /// How many redirects one request may follow.
    public var maxRedirects: Int
    /// Retries after the first attempt, for transport errors, 408, 429 and 5xx.
    public var retries: Int
    /// The first backoff delay in seconds; each retry doubles it, with jitter.
    public var backoffBase: TimeInterval
    /// The longest delay a `Retry-After` header (or the backoff) may impose on one retry.
    /// A server asking for more is not waited for (`RetryPolicy.waitIsTooLong`).
    public var maxRetryDelay: TimeInterval
    /// After this many seconds with no answer, or no new bytes, a transfer says on the
    /// terminal what it is waiting for (see `CurlTransport.announcing`).
    public var stallNotice: TimeInterval
    /// Sent as `User-Agent`.
    public var userAgent: String
    /// A PEM file of certificate authorities to trust instead of the system's, for a
    /// private registry behind its own CA. Nil uses libcurl's default bundle.
    public var certificateAuthorityFile: String?
    /// An attempt that has averaged under this many bytes a second once
    /// `rateGracePeriod` seconds have passed is stopped, and not retried: a server that
    /// drips a few bytes a second stays above libcurl's low-speed limit forever.
    public var minimumAverageRate: Int = 1024
    public var rateGracePeriod: TimeInterval = 20
    /// Every request, its retries and their waits included, ends within
    /// `deadline(forBodyCap:)`: `baseDeadline` seconds plus the body cap at
    /// `deadlineRate` bytes a second.
    public var baseDeadline: TimeInterval = 60
    public var deadlineRate: Int = 64 * 1024
    /// A download stops when the disk it writes to has less than this many bytes free,
    /// so a registry can never fill the user's disk; checked before the first byte and
    /// every few megabytes after.
    public var reservedFreeBytes: Int64 = 64 * 1024 * 1024

    /// The time one request may take in all, for a body of at most `cap` bytes.
    public func deadline(forBodyCap cap: Int64) -> TimeInterval {
        baseDeadline + Double(max(cap, 0)) / Double(max(deadlineRate, 1))
    }

    public init(
        connectTimeout: TimeInterval = 10,
        lowSpeedLimit: Int = 1,
        lowSpeedTime: Int = 15,
        maxRedirects: Int = 5,
        retries: Int = 3,
        backoffBase: TimeInterval = 0.5,
        maxRetryDelay: TimeInterval = 60,
        stallNotice: TimeInterval = 5,
        userAgent: String = "blocks/\(ToolVersion.current)",
        certificateAuthorityFile: String? = nil
    ) {
        self.connectTimeout = connectTimeout
        self.lowSpeedLimit = lowSpeedLimit
        self.lowSpeedTime = lowSpeedTime
        self.maxRedirects = maxRedirects
        self.retries = retries
        self.backoffBase = backoffBase
        self.maxRetryDelay = maxRetryDelay
        self.stallNotice = stallNotice
        self.userAgent = userAgent
        self.certificateAuthorityFile = certificateAuthorityFile
    }
}

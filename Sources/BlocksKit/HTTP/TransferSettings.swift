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

    public init(
        connectTimeout: TimeInterval = 10,
        lowSpeedLimit: Int = 1,
        lowSpeedTime: Int = 15,
        maxRedirects: Int = 5,
        retries: Int = 3,
        backoffBase: TimeInterval = 0.5,
        maxRetryDelay: TimeInterval = 60,
        stallNotice: TimeInterval = 5,
        userAgent: String = "blocks/\(BlocksCLI.version)",
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

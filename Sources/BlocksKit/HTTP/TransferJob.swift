/// One request of a batch and its outcome across attempts: what a retry re-queues.
final class TransferJob {
    let request: HTTPRequest
    let destination: URL?
    let expectedSHA256: String?
    /// A download whose bytes are kept in memory as well as written.
    var keepsBody = false
    var attempts = 0
    /// Attempts that ended with no answer at all (`CurlTransport.silentAttempts`).
    var silentAttempts = 0
    var notBefore = Date.distantPast
    var lastError: HTTPError?
    var result: Result<HTTPResponse, HTTPError>?
    /// Where the next attempt goes: the request's URL, or the hop a redirect named.
    var url: String
    /// Hops followed so far, when the transport follows them itself.
    var redirects = 0
    /// False once a redirect has led away from the request URL's origin: from then on
    /// the request's headers and the token stay behind.
    var staysOnOrigin = true

    /// A request with headers of its own follows redirects in the transport, hop by hop,
    /// so that they never reach another origin.
    var followsRedirectsItself: Bool { !request.headers.isEmpty || carriesCredentials }
    /// When the request, retries and waits included, runs out of time: set when its first
    /// attempt starts, so a job queued behind thousands of others is not charged the wait.
    var deadline = Date.distantFuture
    /// Set when an attempt attaches the token: its redirects are followed here too.
    var carriesCredentials = false

    init(request: HTTPRequest, destination: URL?, expectedSHA256: String?) {
        self.request = request
        url = request.url
        self.destination = destination
        self.expectedSHA256 = expectedSHA256
    }

    /// `<destination>.part`, next to the destination so the final rename is atomic.
    var partFile: URL? {
        destination.map { URL(fileURLWithPath: $0.path + ".part", isDirectory: false) }
    }
}

/// Counts files and bytes for the progress callback, at most ten reports a second.
struct ProgressTracker {
    let total: Int
    let callback: (@Sendable (TransferProgress) -> Void)?
    var filesDone = 0
    var settledBytes: Int64 = 0
    var lastReport = Date.distantPast
    var lastBytes: Int64 = -1

    init(total: Int, callback: (@Sendable (TransferProgress) -> Void)?) {
        self.total = total
        self.callback = callback
    }

    mutating func fileDone() {
        filesDone += 1
        lastReport = .distantPast
    }

    /// Keeps the bytes of a successful attempt; a failed attempt's bytes are dropped.
    mutating func settle(bytes: Int64) {
        settledBytes += bytes
    }

    /// Reports, unless the last report was under 0.1 s ago or nothing changed.
    mutating func report(activeBytes: Int64, force: Bool) {
        guard let callback else { return }
        let bytes = settledBytes + activeBytes
        let now = Date()
        guard force || (bytes != lastBytes && now.timeIntervalSince(lastReport) >= 0.1) || lastReport == .distantPast
        else { return }
        lastReport = now
        lastBytes = bytes
        callback(TransferProgress(filesDone: filesDone, filesTotal: total, bytesDone: bytes))
    }
}

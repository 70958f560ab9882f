import Dispatch

/// A one-line spinner for a network wait: `⠋ Waiting for registry.example.com (index.json)… 3s`.
///
/// It appears only once the wait has lasted `delay` seconds (a fast answer shows
/// nothing), turns ten times a second, always fits in `columns - 1` characters like the
/// progress bar, and is cleared when the wait ends. It draws on standard error only when
/// that is a terminal (`SpinningTransport` decides) and never in color.
public final class Spinner: @unchecked Sendable {
    private let sink: TextSink
    private let label: String
    private let delay: TimeInterval
    private let interval: TimeInterval
    private let started = Date()
    private let lock = Lock()
    private var stopped = false
    private var drew = false

    static let frames: [Character] = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]

    public init(sink: TextSink, label: String, delay: TimeInterval = 0.5, interval: TimeInterval = 0.1) {
        self.sink = sink
        self.label = label
        self.delay = delay
        self.interval = interval
    }

    /// Starts turning on a thread of its own; the first frame comes after `delay`.
    public func start() {
        DispatchQueue.global().async { [self] in
            var frame = 0
            usleep(UInt32(delay * 1_000_000))
            while true {
                let running = lock.withLock { () -> Bool in
                    guard !stopped else { return false }
                    let columns = sink.columns ?? TerminalWidth.fallback
                    StatusLine.draw(
                        Self.line(frame: frame, label: label, elapsed: Date().timeIntervalSince(started), columns: columns), on: sink)
                    drew = true
                    return true
                }
                guard running else { return }
                frame += 1
                usleep(UInt32(interval * 1_000_000))
            }
        }
    }

    /// Stops it and clears its line; nothing is drawn after this returns.
    public func stop() {
        lock.withLock {
            stopped = true
            if drew { StatusLine.clear(sink) }
            drew = false
        }
    }

    /// The spinner's text, separate from drawing so it can be tested: the frame, the
    /// label, an ellipsis and the whole seconds waited. A label too long for the width
    /// loses its middle (`…`), the seconds go last, and the line never passes
    /// `columns - 1` characters, so it never wraps.
    static func line(frame: Int, label: String, elapsed: TimeInterval, columns: Int) -> String {
        let room = max(columns - 1, 1)
        let symbol = String(frames[((frame % frames.count) + frames.count) % frames.count])
        let seconds = " \(Int(elapsed.rounded(.down)))s"
        for suffix in [seconds, ""] {
            let fixed = symbol.count + 1 + 1 + suffix.count  // "⠋ " + "…" + " 3s"
            let space = room - fixed
            guard space >= 8 || (suffix.isEmpty && space >= 1) else { continue }
            return symbol + " " + shortened(label, to: space) + "…" + suffix
        }
        return String(symbol.prefix(room))
    }

    /// `text` in at most `limit` characters, its middle replaced by `…` when it is longer.
    static func shortened(_ text: String, to limit: Int) -> String {
        guard text.count > limit else { return text }
        guard limit > 1 else { return String(text.prefix(max(limit, 0))) }
        let head = (limit - 1) / 2
        let tail = limit - 1 - head
        return String(text.prefix(head)) + "…" + String(text.suffix(tail))
    }
}

/// A transport that shows a `Spinner` on `sink` while a request waits, when no progress
/// bar shows the transfer: `index.json`, metadata, a single archive. Downloads with a
/// progress callback are left to the bar.
public struct SpinningTransport: HTTPTransport {
    let inner: HTTPTransport
    let sink: TextSink
    let delay: TimeInterval

    public init(_ inner: HTTPTransport, sink: TextSink, delay: TimeInterval = 0.5) {
        self.inner = inner
        self.sink = sink
        self.delay = delay
    }

    public func get(_ request: HTTPRequest) throws -> HTTPResponse {
        try spinning(for: [request.url]) { try inner.get(request) }
    }

    public func download(
        _ downloads: [HTTPDownload], maxParallel: Int, progress: (@Sendable (TransferProgress) -> Void)?
    ) -> [Result<HTTPResponse, HTTPError>] {
        guard progress == nil else { return inner.download(downloads, maxParallel: maxParallel, progress: progress) }
        return spinning(for: downloads.map(\.request.url)) { inner.download(downloads, maxParallel: maxParallel, progress: nil) }
    }

    public func fetch(_ requests: [HTTPRequest], maxParallel: Int) -> [Result<HTTPResponse, HTTPError>] {
        spinning(for: requests.map(\.url)) { inner.fetch(requests, maxParallel: maxParallel) }
    }

    public func sendingDefaultToken(to origin: HTTPOrigin?) -> HTTPTransport {
        SpinningTransport(inner.sendingDefaultToken(to: origin), sink: sink, delay: delay)
    }

    public func prepare() { inner.prepare() }

    private func spinning<Result>(for urls: [String], _ body: () throws -> Result) rethrows -> Result {
        guard !urls.isEmpty else { return try body() }
        let spinner = Spinner(sink: sink, label: Self.label(for: urls), delay: delay)
        spinner.start()
        defer { spinner.stop() }
        return try body()
    }

    /// `Waiting for HOST (FILE)`, or `(N files)` for several; the host without its
    /// scheme, user information or the scheme's own port, escaped for the terminal.
    static func label(for urls: [String]) -> String {
        let first = urls[0]
        let host: String
        if let origin = HTTPOrigin(first) {
            let standard = (origin.scheme == "https" && origin.port == 443) || (origin.scheme == "http" && origin.port == 80)
            host = standard ? origin.host : "\(origin.host):\(origin.port)"
        } else {
            host = "the server"
        }
        let what: String
        if urls.count == 1 {
            let path = first.split(separator: "?", maxSplits: 1).first.map(String.init) ?? first
            let name = path.split(separator: "/").last.map(String.init) ?? path
            what = name
        } else {
            what = "\(urls.count) files"
        }
        return TerminalText.escaped("Waiting for \(host) (\(what))")
    }
}

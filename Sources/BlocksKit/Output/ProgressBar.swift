/// A one-line progress bar for long transfers: files, bytes, rate and ETA. It draws on
/// stderr only when stderr is a terminal, at most ten times a second, and always within
/// the terminal's width, asked at every draw so a resized window is followed.
public final class ProgressBar: @unchecked Sendable {
    private let sink: TextSink
    private let label: String
    private let totalBytes: Int64?
    private let started = Date()
    private var redraws = Throttle(interval: 0.1)
    private let lock = Lock()
    private var drewSomething = false

    public init(sink: TextSink, label: String, totalBytes: Int64? = nil) {
        self.sink = sink
        self.label = label
        self.totalBytes = totalBytes
    }

    public func update(_ progress: TransferProgress) {
        guard sink.isTerminal else { return }
        lock.lock()
        defer { lock.unlock() }
        let now = Date()
        guard redraws.allows(at: now, force: progress.filesDone == progress.filesTotal) else { return }
        drewSomething = true
        let columns = sink.columns ?? TerminalWidth.fallback
        StatusLine.draw(
            Self.line(label: label, progress: progress, totalBytes: totalBytes, elapsed: now.timeIntervalSince(started), columns: columns),
            on: sink)
    }

    /// Clears the line so the summary that follows starts clean.
    public func finish() {
        lock.lock()
        defer { lock.unlock() }
        if drewSomething { StatusLine.clear(sink) }
    }

    /// The text of the bar, separate from drawing so it can be tested.
    ///
    /// It always fits in `columns - 1` characters: a line as wide as the terminal, or
    /// wider, wraps, and the next `\r` then redraws only its last row, which leaves a new
    /// line on screen per update. On a narrow terminal the ETA, the rate and the byte
    /// count go first, then the bar narrows.
    static func line(label: String, progress: TransferProgress, totalBytes: Int64?, elapsed: TimeInterval, columns: Int = TerminalWidth.fallback) -> String {
        let fraction = progress.filesTotal == 0 ? 1 : Double(progress.filesDone) / Double(progress.filesTotal)
        let rate = elapsed > 0 ? Double(progress.bytesDone) / elapsed : 0
        let files = "\(progress.filesDone)/\(progress.filesTotal) files"
        let bytes = formatBytes(progress.bytesDone)
        let speed = "\(formatBytes(Int64(rate)))/s"
        var details = [files, bytes, speed]
        if Self.etaIsMeaningful(progress: progress, elapsed: elapsed) {
            details.append("ETA \(Int((elapsed / fraction - elapsed).rounded()))s")
        }
        let room = max(columns - 1, 1)
        for kept in stride(from: details.count, through: 1, by: -1) {
            for barWidth in [24, 16, 10, 6] {
                let filled = Int((fraction * Double(barWidth)).rounded(.down))
                let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: barWidth - filled)
                let text = "\(label) \(bar) " + details.prefix(kept).joined(separator: ", ")
                if text.count <= room { return text }
            }
        }
        return String("\(label) \(files)".prefix(room))
    }

    /// Whether an estimate of the time left means anything yet: after `etaMinimumSeconds`
    /// and once a tenth of the files, or `etaMinimumFiles` of them, are done. Before that the
    /// first slow file (a server that takes seconds to answer) makes the estimate minutes
    /// long for a run that ends seconds later.
    static func etaIsMeaningful(progress: TransferProgress, elapsed: TimeInterval) -> Bool {
        guard progress.filesTotal > 0, progress.filesDone > 0, progress.filesDone < progress.filesTotal else { return false }
        guard elapsed >= etaMinimumSeconds else { return false }
        return progress.filesDone >= etaMinimumFiles || Double(progress.filesDone) / Double(progress.filesTotal) >= 0.1
    }

    static let etaMinimumSeconds: TimeInterval = 3
    static let etaMinimumFiles = 3

    static func formatBytes(_ bytes: Int64) -> String {
        let units = ["B", "KB", "MB", "GB"]
        var value = Double(bytes)
        var unit = 0
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        return unit == 0 ? "\(bytes) B" : value.fixedPoint(places: 1) + " " + units[unit]
    }
}

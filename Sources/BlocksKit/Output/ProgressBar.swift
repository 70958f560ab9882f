#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A one-line progress bar for long transfers: files, bytes, rate and ETA. It draws on
/// stderr only when stderr is a terminal, and at most ten times a second.
public final class ProgressBar: @unchecked Sendable {
    private let sink: TextSink
    private let label: String
    private let totalBytes: Int64?
    private let started = Date()
    private var lastDraw = Date.distantPast
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
        guard now.timeIntervalSince(lastDraw) >= 0.1 || progress.filesDone == progress.filesTotal else { return }
        lastDraw = now
        drewSomething = true
        sink.write("\r\u{1B}[K" + Self.line(label: label, progress: progress, totalBytes: totalBytes, elapsed: now.timeIntervalSince(started)))
    }

    /// Clears the line so the summary that follows starts clean.
    public func finish() {
        lock.lock()
        defer { lock.unlock() }
        if drewSomething { sink.write("\r\u{1B}[K") }
    }

    /// The text of the bar, separate from drawing so it can be tested.
    static func line(label: String, progress: TransferProgress, totalBytes: Int64?, elapsed: TimeInterval, width: Int = 24) -> String {
        let fraction = progress.filesTotal == 0 ? 1 : Double(progress.filesDone) / Double(progress.filesTotal)
        let filled = Int((fraction * Double(width)).rounded(.down))
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        let rate = elapsed > 0 ? Double(progress.bytesDone) / elapsed : 0
        var text = "\(label) \(bar) \(progress.filesDone)/\(progress.filesTotal) files, \(formatBytes(progress.bytesDone)), \(formatBytes(Int64(rate)))/s"
        if fraction > 0, fraction < 1, elapsed > 0 {
            text += ", ETA \(Int((elapsed / fraction - elapsed).rounded()))s"
        }
        return text
    }

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

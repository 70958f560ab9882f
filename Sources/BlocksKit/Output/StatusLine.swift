/// Standard error on a terminal, with one transient line at the bottom: the progress bar
/// or the spinner. Every ordinary write clears that line first (`\r\e[K`), so a note, a
/// warning or an error never lands after a half-drawn bar; the bar or spinner redraws on
/// its next tick, under the note.
public final class StatusLine: TextSink, @unchecked Sendable {
    private let inner: TextSink
    private let lock = Lock()
    private var shown = false
    private var abandoned = false

    public init(_ inner: TextSink) { self.inner = inner }

    public var isTerminal: Bool { inner.isTerminal }
    public var columns: Int? { inner.columns }

    /// Writes `text` after clearing the transient line.
    public func write(_ text: String) {
        lock.withLock {
            if shown { inner.write(Self.clear) }
            shown = false
            inner.write(text)
        }
    }

    /// Replaces the transient line with `text`, which must fit the width (no newline).
    public func draw(_ text: String) {
        lock.withLock {
            guard !abandoned else { return }
            inner.write(Self.clear + text)
            shown = true
        }
    }

    /// Clears the transient line, if one is drawn.
    public func clear() {
        lock.withLock {
            if shown { inner.write(Self.clear) }
            shown = false
        }
    }

    /// Clears the line for good: an interrupted command's last words follow, and nothing
    /// redraws after them. The terminal echoes `^C` where the cursor is, so the line is
    /// cleared even when nothing was drawn.
    public func abandon() {
        lock.withLock {
            abandoned = true
            if inner.isTerminal { inner.write(Self.clear) }
            shown = false
        }
    }

    static let clear = "\r\u{1B}[K"

    /// Draws `text` as the transient line of `sink`: through its `StatusLine` when it is
    /// one, else straight on the sink.
    static func draw(_ text: String, on sink: TextSink) {
        if let line = sink as? StatusLine { line.draw(text) } else { sink.write(clear + text) }
    }

    static func clear(_ sink: TextSink) {
        if let line = sink as? StatusLine { line.clear() } else { sink.write(clear) }
    }
}

/// Lets something happen at most once every `interval` seconds: a progress bar's redraw,
/// a batch's notices. One rule, so every throttled line on a terminal behaves alike.
struct Throttle {
    let interval: TimeInterval
    private var last = Date.distantPast

    init(interval: TimeInterval) {
        self.interval = interval
    }

    /// Whether the thing may happen at `now` (or must, with `force`); when it may, the
    /// interval starts again from `now`.
    mutating func allows(at now: Date = Date(), force: Bool = false) -> Bool {
        guard force || now.timeIntervalSince(last) >= interval else { return false }
        last = now
        return true
    }
}

import Dispatch

/// Cache writes that need not hold up a command: each runs on another thread, and the
/// command waits for all of them before it ends, so none is cut off by the exit.
final class BackgroundWrites: @unchecked Sendable {
    private let group = DispatchGroup()

    /// Up to this many files (or cache entries), a write is done on the calling thread:
    /// for one block's few files, starting the thread pool cost more than the writes
    /// (`add scrolling-strip` and `add 1 block over nginx`, docs/BENCHMARKS.md).
    static let smallBatch = 8

    /// Runs `write` on another thread, or right away on this one when `inline`.
    func start(inline: Bool = false, _ write: @escaping @Sendable () -> Void) {
        if inline { return write() }
        DispatchQueue.global(qos: .utility).async(group: group, execute: write)
    }

    func wait() { group.wait() }
}

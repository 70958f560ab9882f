import Dispatch

/// A parallel map over an array that keeps the order, for CPU-bound work.
///
/// Items are handed out in small batches from a shared counter rather than in one half
/// per core, so a core slowed by other work on the machine (or by a slow file system
/// call) does not leave the other idle at the end.
enum ConcurrentMap {
    /// Read once: Foundation reads two cgroup files each time it is asked, and resolving
    /// dependencies maps a few times per `add`.
    static let cores = ProcessInfo.processInfo.activeProcessorCount

    static func map<Input: Sendable, Output: Sendable>(_ items: [Input], _ transform: @escaping @Sendable (Input) -> Output) -> [Output] {
        // One item gains nothing from a second thread, and starting the pool costs more than `add` of one block.
        guard items.count > 1 else { return items.map(transform) }
        let batch = max(1, min(32, items.count / (8 * cores)))
        let batches = (items.count + batch - 1) / batch
        let results = UnsafeMutableBufferPointer<Output>.allocate(capacity: items.count)
        defer { results.deallocate() }
        // Each batch writes only its own slots, so no lock is needed.
        nonisolated(unsafe) let slots = results
        DispatchQueue.concurrentPerform(iterations: batches) { index in
            let start = index * batch
            for position in start..<min(start + batch, items.count) {
                slots.initializeElement(at: position, to: transform(items[position]))
            }
        }
        let output = Array(results)
        _ = results.deinitialize()
        return output
    }
}

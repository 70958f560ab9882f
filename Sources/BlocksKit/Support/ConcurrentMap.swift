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

extension ConcurrentMap {
    /// Makes `transform` of each item on other threads, at most `ahead` items beyond the one
    /// `body` has, and hands the results to `body` in order on the calling thread: the
    /// caller's work on one result overlaps the making of the next ones (a first search
    /// writes one range's rows while the next ranges are decoded), and no more than
    /// `ahead + 1` results are held at once. When `body` throws, the items not yet begun
    /// are skipped, and every thread has finished before the error is thrown on.
    static func forEachInOrder<Input: Sendable, Output: Sendable>(
        _ items: [Input], ahead: Int, _ transform: @escaping @Sendable (Input) -> Output, _ body: (Output) throws -> Void
    ) rethrows {
        let pipeline = Pipeline<Output>(count: items.count, ahead: max(1, ahead))
        let workers = DispatchGroup()
        let workerCount = min(cores, items.count)
        for _ in 0..<workerCount {
            DispatchQueue.global(qos: .userInitiated).async(group: workers) {
                while let index = pipeline.claim() { pipeline.fill(index, with: transform(items[index])) }
            }
        }
        defer {
            pipeline.stop(workers: workerCount)
            workers.wait()
        }
        for index in items.indices { try body(pipeline.take(index)) }
    }

    /// The results of `forEachInOrder` between the threads that make them and the one that
    /// takes them. A thread claims the next item only with a permit from `window`, so items
    /// are claimed in order and the item taken next is always made or being made.
    private final class Pipeline<Output>: @unchecked Sendable {
        private let lock = Lock()
        /// Semaphores start at zero and are signalled up: libdispatch stops a process that
        /// frees one below its starting value, as a throwing `body` would leave `window`.
        private let window = DispatchSemaphore(value: 0)
        private let made: [DispatchSemaphore]
        private var results: [Output?]
        private var next = 0
        private var stopped = false

        init(count: Int, ahead: Int) {
            results = Array(repeating: nil, count: count)
            made = (0..<count).map { _ in DispatchSemaphore(value: 0) }
            for _ in 0..<ahead { window.signal() }
        }

        /// The next item to make; nil when none is left or the pipeline stopped.
        func claim() -> Int? {
            window.wait()
            let index: Int? = lock.withLock {
                guard !stopped, next < results.count else { return nil }
                next += 1
                return next - 1
            }
            // A thread that stops passes its permit on, so that every waiting one stops too.
            if index == nil { window.signal() }
            return index
        }

        func fill(_ index: Int, with output: Output) {
            lock.withLock { results[index] = output }
            made[index].signal()
        }

        /// Waits for item `index`, hands it over and lets one more item begin.
        func take(_ index: Int) -> Output {
            made[index].wait()
            let output = lock.withLock { () -> Output in
                defer { results[index] = nil }
                return results[index]!
            }
            window.signal()
            return output
        }

        /// No item begins after this; threads waiting for a permit wake and stop.
        func stop(workers: Int) {
            lock.withLock { stopped = true }
            for _ in 0..<workers { window.signal() }
        }
    }
}

import Dispatch

/// A value being made on another thread, for the threads that need it to wait for it: a
/// search index's freshness check, made while the first query runs on the index found on
/// disk, or a split index's later ranges, fetched while the first are read. Made once;
/// every wait after the first returns at once.
final class InFlight<Value: Sendable>: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    /// Written once, before `done` is signalled; read only after waiting for it.
    private var made: Value?

    init(_ make: @escaping @Sendable () -> Value) {
        DispatchQueue.global(qos: .userInitiated).async { [self] in
            made = make()
            done.signal()
        }
    }

    /// The value, once made.
    var value: Value {
        done.wait()
        done.signal()
        return made!
    }
}

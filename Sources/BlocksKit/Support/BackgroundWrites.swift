import Dispatch

/// Cache writes that need not hold up a command: each runs on another thread, and the
/// command waits for all of them before it ends, so none is cut off by the exit.
final class BackgroundWrites: @unchecked Sendable {
    private let group = DispatchGroup()

    func start(_ write: @escaping @Sendable () -> Void) {
        DispatchQueue.global(qos: .utility).async(group: group, execute: write)
    }

    func wait() { group.wait() }
}

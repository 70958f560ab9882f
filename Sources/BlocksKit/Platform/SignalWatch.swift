import Dispatch

/// SIGINT and SIGTERM handed to an ordinary thread instead of killing the process.
///
/// The handler is the classic self-pipe: it only writes the signal's number to a pipe
/// (`write` is async-signal-safe), and a thread blocked reading that pipe calls the Swift
/// handler, where taking locks, removing files and writing to the terminal are allowed.
/// A caught signal's handler is reset to the default by `exec`, so child processes
/// (plugins, `swift`) still stop on Ctrl-C as before.
///
/// Installed once, and only by a command that has something to clean up
/// (`Interruption.protect`): every other command keeps the default action.
enum SignalWatch {
    private static let lock = Lock()
    nonisolated(unsafe) private static var installed = false

    /// Calls `handler` with the signal's number, on a thread of its own, for each SIGINT and
    /// SIGTERM from now on. A second call does nothing. False when no pipe could be made
    /// (the signals then keep their default action).
    @discardableResult
    static func watch(_ handler: @escaping @Sendable (Int32) -> Void) -> Bool {
        lock.withLock {
            guard !installed else { return true }
            var ends: [Int32] = [-1, -1]
            guard pipe(&ends) == 0 else { return false }
            _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
            _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
            signalPipeWriteEnd = ends[1]
            let readEnd = ends[0]
            DispatchQueue(label: "blocks.signals").async {
                var byte: UInt8 = 0
                while true {
                    let count = read(readEnd, &byte, 1)
                    if count == 1 { handler(Int32(byte)) } else if count < 0 && errno == EINTR { continue } else { return }
                }
            }
            for number in [SIGINT, SIGTERM] { _ = signal(number, forwardSignal) }
            // A parent may have started us with them blocked (the mask survives exec), which
            // would keep them pending for good: unblocked on this thread, they are delivered.
            var unblocked = sigset_t()
            sigemptyset(&unblocked)
            sigaddset(&unblocked, SIGINT)
            sigaddset(&unblocked, SIGTERM)
            pthread_sigmask(SIG_UNBLOCK, &unblocked, nil)
            installed = true
            return true
        }
    }

    /// The exit status a shell gives a process killed by `number`: 128 plus the number
    /// (130 for SIGINT, 143 for SIGTERM).
    static func exitStatus(for number: Int32) -> Int32 { 128 + number }

    static let interrupt = SIGINT
    static let terminate = SIGTERM
}

/// The write end of the signal pipe, read by the handler; -1 until `SignalWatch.watch`.
nonisolated(unsafe) private var signalPipeWriteEnd: Int32 = -1

/// The signal handler: one byte into the pipe, nothing else (async-signal-safe).
private func forwardSignal(_ number: Int32) {
    let saved = errno
    var byte = UInt8(truncatingIfNeeded: number)
    _ = write(signalPipeWriteEnd, &byte, 1)
    errno = saved
}

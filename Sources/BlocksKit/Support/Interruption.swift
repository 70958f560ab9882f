/// What happens on Ctrl-C (SIGINT) or SIGTERM while a command that writes files runs:
/// the progress line is cleared, one line says what was kept, the command's lock and
/// temporary files are removed, and the process exits with 130 (SIGINT) or 143 (SIGTERM).
///
/// Commands opt in with `protect(message:)`; the library registers its temporary files
/// (`.part` downloads, `AtomicFile` temporaries, staging folders, the mirror's lock) with
/// `removeOnInterrupt` while they exist, whether or not a command protected itself. A step
/// that must not be cut in half (`InstallTransaction.apply`, a mirror's commit, a build's
/// publishing renames) runs inside `deferring`: a signal that arrives meanwhile is acted on
/// when the step is over, so the project, the mirror or the registry is left old or new.
///
/// The work runs on the signal watcher's thread (`SignalWatch`), never in a signal handler.
/// It holds this registry's lock to the end, so a thread about to create a temporary file
/// (which registers it first) waits until the process has exited instead of leaving one.
public enum Interruption {
    private static let lock = Lock()
    nonisolated(unsafe) private static var paths: [Int: String] = [:]
    nonisolated(unsafe) private static var nextToken = 0
    nonisolated(unsafe) private static var message: String?
    nonisolated(unsafe) private static var beforeMessage: [@Sendable () -> Void] = []
    nonisolated(unsafe) private static var deferredDepth = 0
    nonisolated(unsafe) private static var pendingSignal: Int32?
    nonisolated(unsafe) private static var writeLine: (@Sendable (String) -> Void)?

    /// Handles SIGINT and SIGTERM from now on: `message` is printed after `interrupted: `,
    /// through `write` (standard error), once `prepare` (clearing a progress line) ran.
    public static func protect(message: String, write: @escaping @Sendable (String) -> Void, prepare: [@Sendable () -> Void] = []) {
        lock.withLock {
            self.message = message
            writeLine = write
            beforeMessage = prepare
        }
        SignalWatch.watch { number in handle(number) }
    }

    /// Replaces what the interrupted line says, for a command whose state changes midway.
    public static func update(message: String) {
        lock.withLock { self.message = message }
    }

    /// Registers a file or folder to delete if the process is interrupted; pass the token
    /// to `keep` once it was renamed or removed.
    public static func removeOnInterrupt(_ path: String) -> Int {
        lock.withLock {
            nextToken += 1
            paths[nextToken] = path
            return nextToken
        }
    }

    /// Forgets a registered path: it was renamed into place or removed.
    public static func keep(_ token: Int) {
        lock.withLock { _ = paths.removeValue(forKey: token) }
    }

    /// Runs `body` with interruption held back; a signal that came meanwhile is acted on
    /// when the outermost such step returns or throws.
    public static func deferring<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock.withLock { deferredDepth += 1 }
        defer {
            let pending = lock.withLock { () -> Int32? in
                deferredDepth -= 1
                return deferredDepth == 0 ? pendingSignal : nil
            }
            if let pending { handle(pending) }
        }
        return try body()
    }

    /// The exit status for a signal: 128 plus its number (130 for SIGINT, 143 for SIGTERM).
    public static func exitStatus(for number: Int32) -> Int32 { SignalWatch.exitStatus(for: number) }

    /// Acts on a signal: now, or at the end of the step in progress.
    private static func handle(_ number: Int32) {
        lock.lock()
        if deferredDepth > 0 {
            pendingSignal = pendingSignal ?? number
            lock.unlock()
            return
        }
        // The lock stays held until the process ends (see above).
        for hook in beforeMessage { hook() }
        if let writeLine, let message { writeLine("interrupted: " + message) }
        for path in paths.sorted(by: { $0.key > $1.key }).map(\.value) {
            if PathKind(path) == .folder { try? FileManager.default.removeItem(atPath: path) } else { unlink(path) }
        }
        exitSkippingHandlers(exitStatus(for: number))
    }
}

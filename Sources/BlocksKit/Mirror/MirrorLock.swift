/// An exclusive lock on a mirror folder: a `FolderLock` on `DEST/.blocks-mirror.lock`.
final class MirrorLock {
    private let lock: FolderLock
    private let registration: Int

    deinit { Interruption.keep(registration) }

    /// Takes the lock at once, or fails with the holder's pid, or with what kept the lock
    /// file from being made (a read-only DEST, a full disk).
    init(destination: URL) throws {
        let file = destination.appendingPathComponent(".blocks-mirror.lock").path
        do throws(FolderLock.Failure) {
            lock = try FolderLock(file: file)
        } catch {
            switch error {
            case .busy(let holder):
                throw MirrorError.locked(destination: destination.path, holder: holder.map { "pid \($0)" } ?? "another process")
            case .unavailable(let reason):
                throw MirrorError.unwritable(destination: destination.path, reason: reason)
            }
        }
        // Registered once it is ours: Ctrl-C removes it (`Interruption`), still locked, as the
        // process ends. A lock another process holds is never registered, so never removed.
        registration = Interruption.removeOnInterrupt(file)
    }
}

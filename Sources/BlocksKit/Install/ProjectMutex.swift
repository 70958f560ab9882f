/// An exclusive lock on the project root folder itself (a `FolderLock` on the folder),
/// so two `blocks` commands never change one project at once. It leaves no file
/// behind, and the system drops it when the process ends, even by `kill -9`.
public final class ProjectMutex {
    private var lock: FolderLock?

    /// Takes the lock, waiting a few seconds for another command to finish.
    public init(root: URL, notices: NoticeHandler) throws {
        var waited = false
        for _ in 0..<100 {
            do throws(FolderLock.Failure) {
                lock = try FolderLock(folder: root.path)
                return
            } catch {
                switch error {
                case .busy:
                    if !waited {
                        notices(.note("Waiting for another blocks command to finish in \(root.path)..."))
                        waited = true
                    }
                    usleep(50_000)
                case .unavailable(let reason):
                    throw InstallError.writeFailed(path: root.path, reason: reason)
                }
            }
        }
        throw InstallError.projectBusy(root: root.path)
    }

    public func release() {
        lock = nil
    }
}

/// An exclusive lock on the project root folder itself (`flock` on its descriptor),
/// so two `blocks` commands never change one project at once. It leaves no file
/// behind, and the system drops it when the process ends, even by `kill -9`.
public final class ProjectMutex {
    private var descriptor: Int32

    /// Takes the lock, waiting a few seconds for another command to finish.
    public init(root: URL, notices: NoticeHandler) throws {
        descriptor = open(root.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw InstallError.writeFailed(path: root.path, reason: String(cString: strerror(errno)))
        }
        var waited = false
        for _ in 0..<100 {
            if flock(descriptor, LOCK_EX | LOCK_NB) == 0 { return }
            guard errno == EWOULDBLOCK || errno == EINTR else { break }
            if !waited {
                notices(.note("Waiting for another blocks command to finish in \(root.path)..."))
                waited = true
            }
            usleep(50_000)
        }
        close(descriptor)
        descriptor = -1
        throw InstallError.projectBusy(root: root.path)
    }

    public func release() {
        guard descriptor >= 0 else { return }
        flock(descriptor, LOCK_UN)
        close(descriptor)
        descriptor = -1
    }

    deinit { release() }
}

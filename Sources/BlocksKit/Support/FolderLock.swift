/// An exclusive `flock`, taken at once or not at all, that the kernel drops when its holder
/// dies: a lock left by a killed run never blocks the next one. The mirror locks a file in
/// DEST (and writes its pid there, for the message); a build locks its output folder
/// itself, so a published registry holds no lock file, and `ProjectMutex` the project's
/// root folder, waiting a little for another command.
///
/// A lock file that is a symbolic link is refused, never followed: opening it would create
/// or truncate a file outside the folder. A locked folder may be a link: it is the folder
/// the user named.
final class FolderLock {
    enum Failure: Error, Equatable {
        /// Another process holds it; its pid when the lock file says.
        case busy(holder: String?)
        /// The lock could not be taken at all (a read-only folder, a full disk): what failed.
        case unavailable(reason: String)
    }

    private let descriptor: Int32

    /// Locks the folder at `folder` itself, which must exist.
    convenience init(folder: String) throws(Failure) {
        try self.init(path: folder, flags: O_RDONLY | O_DIRECTORY, recordsHolder: false)
    }

    /// Locks the file at `file`, creating it, and writes this process's pid into it.
    convenience init(file: String) throws(Failure) {
        try self.init(path: file, flags: O_RDWR | O_CREAT | O_NOFOLLOW, recordsHolder: true)
    }

    private init(path: String, flags: Int32, recordsHolder: Bool) throws(Failure) {
        descriptor = try Self.take(path: path, flags: flags, recordsHolder: recordsHolder)
    }

    /// The locked descriptor. It is taken before the object exists: a class whose init
    /// throws after setting every property runs its `deinit`, which would close the
    /// descriptor a second time, and by then its number may be another thread's file.
    private static func take(path: String, flags: Int32, recordsHolder: Bool) throws(Failure) -> Int32 {
        let descriptor = open(path, flags | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            let code = errno
            let reason = code == ELOOP ? "it is a symbolic link" : String(cString: strerror(code))
            throw .unavailable(reason: "cannot open \(path): \(reason)")
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let code = errno
            guard code == EWOULDBLOCK || code == EINTR else {
                close(descriptor)
                throw .unavailable(reason: "cannot lock \(path): \(String(cString: strerror(code)))")
            }
            var holder: String?
            if recordsHolder {
                var buffer = [UInt8](repeating: 0, count: 32)
                let count = pread(descriptor, &buffer, buffer.count, 0)
                if count > 0 { holder = String(decoding: buffer.prefix(count), as: UTF8.self).trimmingWhitespace() }
            }
            close(descriptor)
            throw .busy(holder: holder.flatMap { $0.isEmpty ? nil : $0 })
        }
        if recordsHolder {
            let pid = Array("\(getpid())\n".utf8)
            _ = ftruncate(descriptor, 0)
            _ = pwrite(descriptor, pid, pid.count, 0)
        }
        return descriptor
    }

    deinit {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// An exclusive lock on a mirror folder. It is an `flock` on a file, so the kernel drops
/// it when the holder dies: a lock left by a killed run never blocks the next one.
final class MirrorLock {
    private let descriptor: Int32

    /// Takes the lock at once or fails with the holder's pid.
    init(destination: URL) throws {
        let path = destination.appendingPathComponent(".blocks-mirror.lock").path
        descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw MirrorError.notAMirror(destination: destination.path)
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            var buffer = [UInt8](repeating: 0, count: 32)
            let count = pread(descriptor, &buffer, buffer.count, 0)
            let holder = count > 0 ? "pid " + String(decoding: buffer.prefix(count), as: UTF8.self).trimmingWhitespace() : "another process"
            close(descriptor)
            throw MirrorError.locked(destination: destination.path, holder: holder)
        }
        let pid = Array("\(getpid())\n".utf8)
        _ = ftruncate(descriptor, 0)
        _ = pwrite(descriptor, pid, pid.count, 0)
    }

    deinit {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}

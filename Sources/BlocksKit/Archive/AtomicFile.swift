import Foundation
#if canImport(Glibc)
import Glibc
private let systemWrite = Glibc.write
#elseif canImport(Darwin)
import Darwin
private let systemWrite = Darwin.write
#endif

/// Writes a file all at once or not at all: a temporary file beside the target, flushed
/// to disk, then renamed over it.
enum AtomicFile {
    static func write(_ data: Data, to url: URL, archiveName: String) throws {
        let folder = url.deletingLastPathComponent()
        let temporary = folder.appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp")
        func fail(_ step: String, code: Int32 = errno) -> ArchiveError {
            let reason = String(cString: strerror(code))
            unlink(temporary.path)
            return ArchiveError.writeFailed(archive: archiveName, message: "\(step) \(temporary.path): \(reason)")
        }
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw fail("cannot create") }
        let written: Bool = data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count, let base = buffer.baseAddress {
                let count = systemWrite(descriptor, base + offset, buffer.count - offset)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { return false }
                offset += count
            }
            return true
        }
        guard written else {
            let code = errno
            close(descriptor)
            throw fail("cannot write", code: code)
        }
        guard fsync(descriptor) == 0 else {
            let code = errno
            close(descriptor)
            throw fail("cannot flush", code: code)
        }
        guard close(descriptor) == 0 else { throw fail("cannot close") }
        guard rename(temporary.path, url.path) == 0 else { throw fail("cannot rename to \(url.path) from") }
    }
}

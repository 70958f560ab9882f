import Foundation

#if canImport(Glibc)
import Glibc
private let systemWrite = Glibc.write
#elseif canImport(Darwin)
import Darwin
private let systemWrite = Darwin.write
#endif

/// Writes a file all at once or not at all: a temporary file beside the target, then a
/// rename over it. Readers, and a process killed at any instant, see the old bytes or the
/// new ones, never a mix. Every file the tool writes goes through here.
public enum AtomicFile {
    /// Why a write failed, with the path and the system's reason.
    public struct Failure: Error, Equatable, Sendable, CustomStringConvertible {
        public var path: String
        public var reason: String

        public var description: String { "could not write \(path): \(reason)" }
    }

    /// Writes `data` to `url`, creating the folder if needed. `durable` also flushes the
    /// bytes to disk before the rename, which survives a power cut, at about a millisecond
    /// a file; bulk writers (registry builds, mirrors) skip it.
    public static func write(_ data: Data, to url: URL, durable: Bool = false, mode: mode_t = 0o644) throws {
        let folder = url.deletingLastPathComponent()
        if !FileManager.default.fileExists(atPath: folder.path) {
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            } catch {
                throw Failure(path: url.path, reason: "cannot create its folder")
            }
        }
        let temporary = folder.appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp")
        func fail(_ step: String, code: Int32 = errno) -> Failure {
            let reason = String(cString: strerror(code))
            unlink(temporary.path)
            return Failure(path: url.path, reason: "\(step): \(reason)")
        }
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard descriptor >= 0 else { throw fail("cannot create a temporary file") }
        let written: Bool = data.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return true }
            var offset = 0
            while offset < buffer.count {
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
        if durable && fsync(descriptor) != 0 {
            let code = errno
            close(descriptor)
            throw fail("cannot flush", code: code)
        }
        guard close(descriptor) == 0 else { throw fail("cannot close") }
        guard rename(temporary.path, url.path) == 0 else { throw fail("cannot rename into place") }
    }
}

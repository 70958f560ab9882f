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
        if PathKind(folder.path) != .folder, !PathKind.makeFolder(folder.path) {
            throw Failure(path: url.path, reason: "cannot create its folder")
        }
        let temporary = folder.joining(".\(url.lastPathComponent).\(UUID().uuidString).tmp")
        // Ctrl-C removes it (`Interruption`) until it is renamed or removed here.
        let registration = Interruption.removeOnInterrupt(temporary.path)
        defer { Interruption.keep(registration) }
        func fail(_ step: String, code: Int32 = errno) -> Failure {
            let reason = String(cString: strerror(code))
            unlink(temporary.path)
            return Failure(path: url.path, reason: "\(step): \(reason)")
        }
        let failure = FileDescriptorIO.writeFile(data, to: temporary.path, flags: O_CREAT | O_EXCL, mode: mode, flush: durable)
        guard failure == 0 else { throw fail("cannot write a temporary file", code: failure) }
        guard rename(temporary.path, url.path) == 0 else { throw fail("cannot rename into place") }
    }
}

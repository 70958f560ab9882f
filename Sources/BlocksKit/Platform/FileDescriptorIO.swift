/// The one loop that writes a whole buffer to a descriptor, retrying when a signal
/// interrupts it. Every writer (terminal output, downloads, staged and atomic files)
/// goes through it.
enum FileDescriptorIO {
    /// Writes every byte. Returns 0, or the `errno` that stopped it (`EIO` for a write
    /// that made no progress).
    static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32 {
        guard let base = bytes.baseAddress else { return 0 }
        var offset = 0
        while offset < bytes.count {
            let count = systemWrite(descriptor, base + offset, bytes.count - offset)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return count < 0 ? errno : EIO }
            offset += count
        }
        return 0
    }

    /// The whole contents of a regular file, or nil when it cannot be opened or read.
    /// One `open`, `fstat` and (for small files) one `read`, with no URL or
    /// FileManager work: reading a 10,000-block catalog is 20,000 of these.
    static func readFile(_ path: String) -> Data? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        var data = Data(capacity: Int(info.st_size))
        // A chunk one byte larger than the file ends the loop at the first short read.
        let failure = readChunks(descriptor: descriptor, chunkSize: max(4096, Int(info.st_size) + 1), limit: .max) {
            data.append(contentsOf: $0)
        }
        return failure == 0 ? data : nil
    }

    /// The last `count` bytes of a regular file (all of it when shorter), or nil when it
    /// cannot be opened or read.
    static func readTail(_ path: String, count: Int) -> Data? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG,
            lseek(descriptor, off_t(max(0, Int(info.st_size) - count)), SEEK_SET) >= 0
        else { return nil }
        var data = Data(capacity: count)
        let failure = readChunks(descriptor: descriptor, chunkSize: max(1, count), limit: count) { data.append(contentsOf: $0) }
        return failure == 0 ? data : nil
    }

    /// Opens `path` with `flags` (plus write-only and close-on-exec), writes `data`,
    /// optionally flushes it to disk, and closes it. Returns 0 or the `errno` of the
    /// step that failed.
    static func writeFile(_ data: Data, to path: String, flags: Int32, mode: mode_t, flush: Bool = false) -> Int32 {
        let descriptor = open(path, O_WRONLY | O_CLOEXEC | flags, mode)
        guard descriptor >= 0 else { return errno }
        var failure = data.withUnsafeBytes { writeAll(descriptor, $0) }
        if failure == 0 && flush && fsync(descriptor) != 0 { failure = errno }
        if close(descriptor) != 0 && failure == 0 { failure = errno }
        return failure
    }

    /// Reads the file at `path` from the start in chunks of up to `chunkSize` bytes,
    /// handing each to `body`, and stops after `limit` bytes. Returns 0 or the `errno`
    /// that stopped it.
    static func readChunks(
        of path: String, chunkSize: Int = 1 << 20, limit: Int = .max,
        _ body: (UnsafeRawBufferPointer) -> Void
    ) -> Int32 {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return errno }
        defer { close(descriptor) }
        return readChunks(descriptor: descriptor, chunkSize: chunkSize, limit: limit, body)
    }

    /// The one read loop: chunks of up to `chunkSize` bytes from an open descriptor until
    /// its end or `limit` bytes, retrying when a signal interrupts a read.
    private static func readChunks(
        descriptor: Int32, chunkSize: Int, limit: Int,
        _ body: (UnsafeRawBufferPointer) -> Void
    ) -> Int32 {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: min(chunkSize, limit), alignment: 16)
        defer { buffer.deallocate() }
        var total = 0
        while total < limit, let base = buffer.baseAddress {
            let count = systemRead(descriptor, base, min(buffer.count, limit - total))
            if count < 0 && errno == EINTR { continue }
            if count < 0 { return errno }
            if count == 0 { break }
            body(UnsafeRawBufferPointer(start: base, count: count))
            total += count
        }
        return 0
    }
}

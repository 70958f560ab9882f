/// Where the bytes of one response attempt go while they arrive: memory for small
/// bodies such as `index.json`, or a `.part` file hashed on the fly for downloads, so
/// a large archive never sits in memory and is never read twice.
final class BodySink {
    /// The size cap; one byte more aborts the transfer.
    let limit: Int64
    /// The `.part` file, or nil for a body kept in memory.
    let partFile: URL?
    /// Bytes received so far, including any discarded error page.
    private(set) var byteCount: Int64 = 0
    /// Bytes kept (written to the file or memory).
    private(set) var keptCount: Int64 = 0
    private(set) var body = Data()
    private(set) var exceededLimit = false
    /// Set when the file could not be written; the transfer is aborted.
    private(set) var writeError: String?
    /// Decided when the first bytes arrive: error pages are counted but not kept.
    var keepsBytes: Bool?
    private let digest: SHA256.Digest?
    private var descriptor: Int32 = -1
    /// The `.part` file's registration with `Interruption`: Ctrl-C removes it while the sink lives.
    private var registration: Int?

    /// For a file, whether `body` keeps the bytes as well.
    private let keepsBody: Bool

    /// Creates the sink; for a file, creates (or truncates) the `.part` file now.
    init(limit: Int64, partFile: URL?, keepsBody: Bool = false, reservedFreeBytes: Int64 = 0) throws(HTTPError) {
        self.limit = limit
        self.partFile = partFile
        self.keepsBody = keepsBody
        self.reservedFreeBytes = reservedFreeBytes
        // A body kept as well as written is a small part whose size the caller capped the
        // limit at: room for all of it at once, not grown (and copied) chunk by chunk.
        if keepsBody { body.reserveCapacity(Int(min(limit, Self.reservedBodyBytes))) }
        guard let partFile else {
            digest = nil
            return
        }
        digest = SHA256.Digest()
        registration = Interruption.removeOnInterrupt(partFile.path)
        descriptor = open(partFile.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        if descriptor < 0 && errno == ENOENT {
            // The folder is created only when it is missing, not checked before every file.
            let folder = partFile.deletingLastPathComponent()
            guard PathKind.makeFolder(folder.path) else { throw .file(path: folder.path, reason: "the folder could not be created") }
            descriptor = open(partFile.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        }
        if descriptor < 0 {
            throw .file(path: partFile.path, reason: String(cString: strerror(errno)))
        }
        if let shortage = diskShortage() {
            discard()
            throw .file(path: partFile.path, reason: shortage)
        }
    }

    /// The most a kept body reserves before its bytes arrive.
    static let reservedBodyBytes: Int64 = 64 * 1024 * 1024

    /// The free space a download must leave on its disk (`TransferSettings.reservedFreeBytes`).
    private let reservedFreeBytes: Int64
    /// Kept bytes at the last free-space check.
    private var checkedAt: Int64 = 0
    /// How often, in written bytes, free space is checked again.
    static let freeSpaceCheckInterval: Int64 = 4 * 1024 * 1024

    /// Why the disk cannot take more, or nil when it can.
    private func diskShortage() -> String? {
        guard reservedFreeBytes > 0, let folder = partFile?.deletingLastPathComponent(),
            let free = FileSystemSpace.availableBytes(atPath: folder.path), free < reservedFreeBytes
        else { return nil }
        return "the disk has \(free / 1024 / 1024) MB free, under the \(reservedFreeBytes / 1024 / 1024) MB blocks leaves free; make room and try again"
    }

    deinit {
        closeFile()
        if let registration { Interruption.keep(registration) }
    }

    /// Takes one chunk. Returns false to make libcurl abort the transfer.
    func receive(_ bytes: UnsafeRawBufferPointer) -> Bool {
        byteCount += Int64(bytes.count)
        if byteCount > limit {
            exceededLimit = true
            return false
        }
        guard keepsBytes ?? true, let base = bytes.baseAddress, !bytes.isEmpty else { return true }
        keptCount += Int64(bytes.count)
        guard partFile != nil else {
            body.append(base.assumingMemoryBound(to: UInt8.self), count: bytes.count)
            return true
        }
        digest?.update(bytes)
        if keepsBody { body.append(base.assumingMemoryBound(to: UInt8.self), count: bytes.count) }
        let failure = FileDescriptorIO.writeAll(descriptor, bytes)
        if failure != 0 {
            writeError = String(cString: strerror(failure))
            return false
        }
        if keptCount - checkedAt >= Self.freeSpaceCheckInterval {
            checkedAt = keptCount
            if let shortage = diskShortage() {
                writeError = shortage
                return false
            }
        }
        return true
    }

    /// The hex SHA-256 of the bytes kept. Call once, after the transfer.
    func finishDigest() -> String? { digest?.finish() }

    /// Closes the file; the sink takes no more bytes after this.
    func closeFile() {
        if descriptor >= 0 {
            close(descriptor)
            descriptor = -1
        }
    }

    /// Closes and deletes the `.part` file: nothing of a failed attempt stays on disk.
    func discard() {
        closeFile()
        if let partFile { unlink(partFile.path) }
    }
}

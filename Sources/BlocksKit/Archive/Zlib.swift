import BlocksZlib

/// The only code that talks to zlib: the gzip streams of a registry's precompressed `.gz`
/// files, which nginx's `gzip_static` serves.
///
/// A build writes one per metadata file, ten thousand small streams for a large catalog,
/// and one of 20 MB for the index, which libarchive's gzip writer deflated on one core at
/// the end of the build. Here the index is deflated in 1 MB pieces on every core, each
/// primed with the 32 KB before it as pigz does, and the pieces joined are one gzip stream;
/// the 256 KB deflate states are kept and reset rather than set up for every stream.
///
/// The output depends only on the input: the pieces are cut at fixed offsets whatever the
/// core count, and the header is written here (no name, no time, the Unix system code), so
/// every build and every mirror writes the same bytes on Linux and macOS.
enum Zlib {
    /// zlib is opened with dlopen on first use (see the shim).
    static var isLibraryAvailable: Bool { blocks_zlib_available() }

    static let missingLibraryMessage = "zlib (zlib1g) is not installed; install it, for example with `apt-get install zlib1g`"

    /// Where the input is cut: large enough that priming costs nothing measurable in size,
    /// small enough that the 20 MB index of 10,000 blocks keeps both cores busy.
    static let pieceSize = 1 << 20

    /// What each piece starts from: the end of the one before it, as much as deflate's
    /// window holds.
    static let dictionarySize = 32 * 1024

    /// Deflate's default level, the one `gzip` uses.
    static let level: Int32 = 6
    /// Deflate's smallest output, for files fetched far more often than written: a split
    /// index's parts, whose total for 100,000 blocks is held to 3 MB.
    static let smallestLevel: Int32 = 9

    /// `data` as one gzip stream, at `level` (6 or `smallestLevel`).
    static func gzip(_ data: Data, level: Int32 = Zlib.level) throws -> Data {
        let pool = level == smallestLevel ? StreamPool.smallest : StreamPool.shared
        guard isLibraryAvailable else { throw ArchiveError.writeFailed(archive: "gzip", message: missingLibraryMessage) }
        let pieces = max(1, (data.count + pieceSize - 1) / pieceSize)
        var output = Data(header)
        if pieces == 1 {
            // A metadata file: deflated straight after the header, in one buffer with room
            // for the trailer, as a build writes ten thousand of them.
            try deflatePiece(data, piece: 0, isLast: true, into: &output, room: header.count + trailerSize, pool: pool)
        } else {
            let deflated = ConcurrentMap.map(Array(0..<pieces)) { piece in
                Result { () throws -> Data in
                    var part = Data()
                    try deflatePiece(data, piece: piece, isLast: piece == pieces - 1, into: &part, pool: pool)
                    // A copy of what was produced: the buffer has room for the worst case,
                    // and the index's twenty pieces wait for each other.
                    return part.withUnsafeBytes { Data(bytes: $0.baseAddress!, count: $0.count) }
                }
            }
            for piece in deflated { output.append(try piece.get()) }
        }
        var checksum: UInt = 0
        data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count, let base = buffer.baseAddress {
                let length = min(pieceSize, buffer.count - offset)
                checksum = blocks_crc32(checksum, base.assumingMemoryBound(to: UInt8.self) + offset, UInt32(length))
                offset += length
            }
        }
        for value in [UInt32(truncatingIfNeeded: checksum), UInt32(truncatingIfNeeded: data.count)] {
            withUnsafeBytes(of: value.littleEndian) { output.append(contentsOf: $0) }
        }
        return output
    }

    /// No name, no time, the Unix system code: the same bytes on every machine.
    private static let header: [UInt8] = [0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3]
    /// The CRC-32 and the length.
    private static let trailerSize = 8

    /// One piece as raw deflate, appended to `output`: ended by a sync flush so the next
    /// can follow it, or, for the last, by the final block. `room` more bytes are reserved
    /// for what the caller appends after it.
    private static func deflatePiece(_ data: Data, piece: Int, isLast: Bool, into output: inout Data, room: Int = 0, pool: StreamPool) throws {
        let start = piece * pieceSize
        let end = min(start + pieceSize, data.count)
        let stream = try pool.take()
        defer { pool.give(stream) }
        try data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) throws in
            let bytes = buffer.bindMemory(to: UInt8.self)
            if start > 0, let base = bytes.baseAddress {
                let dictionaryStart = max(0, start - dictionarySize)
                guard blocks_deflateSetDictionary(stream, base + dictionaryStart, UInt32(start - dictionaryStart)) == Z_OK else {
                    throw ArchiveError.writeFailed(archive: "gzip", message: "zlib refused the dictionary")
                }
            }
            stream.pointee.next_in = UnsafeMutablePointer(mutating: bytes.baseAddress.map { $0 + start })
            stream.pointee.avail_in = UInt32(end - start)
            defer { stream.pointee.next_in = nil }
            // The bound covers a finished stream; a sync flush adds at most a few bytes more.
            let bound = Int(blocks_deflateBound(stream, UInt(end - start))) + 64
            output.reserveCapacity(output.count + bound + room)
            var produced = output.count
            output.count += bound
            let flush = isLast ? Z_FINISH : Z_SYNC_FLUSH
            // Each pass fills what room is left; more room is made only if the bound was short.
            for _ in 0..<64 {
                let status = output.withUnsafeMutableBytes { (target: UnsafeMutableRawBufferPointer) -> Int32 in
                    stream.pointee.next_out = target.baseAddress!.assumingMemoryBound(to: UInt8.self) + produced
                    stream.pointee.avail_out = UInt32(target.count - produced)
                    return blocks_deflate(stream, flush)
                }
                produced = output.count - Int(stream.pointee.avail_out)
                stream.pointee.next_out = nil
                let done = isLast ? status == Z_STREAM_END : (status == Z_OK && stream.pointee.avail_in == 0 && stream.pointee.avail_out > 0)
                if done {
                    output.count = produced
                    return
                }
                guard status == Z_OK || status == Z_BUF_ERROR else {
                    throw ArchiveError.writeFailed(archive: "gzip", message: "zlib failed (\(status))")
                }
                output.count += 64 * 1024
            }
            throw ArchiveError.writeFailed(archive: "gzip", message: "zlib did not finish")
        }
    }

    /// Deflate states kept for reuse, reset after each piece: setting one up costs far more
    /// than deflating a small file.
    private final class StreamPool: @unchecked Sendable {
        static let shared = StreamPool(level: Zlib.level)
        static let smallest = StreamPool(level: Zlib.smallestLevel)
        let level: Int32

        init(level: Int32) { self.level = level }
        /// One per core: more are rarely busy at once, and each holds 256 KB (a mirror
        /// deflates from eight download threads, and the memory goal is 64 MB).
        private static let kept = ConcurrentMap.cores
        private let lock = Lock()
        private var idle: [UnsafeMutablePointer<z_stream>] = []

        func take() throws -> UnsafeMutablePointer<z_stream> {
            if let stream = lock.withLock({ idle.popLast() }) { return stream }
            let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
            stream.initialize(to: z_stream())
            guard blocks_deflate_init_raw(stream, level) == Z_OK else {
                stream.deallocate()
                throw ArchiveError.writeFailed(archive: "gzip", message: "zlib could not set up a deflate state")
            }
            return stream
        }

        func give(_ stream: UnsafeMutablePointer<z_stream>) {
            let kept = blocks_deflateReset(stream) == Z_OK && lock.withLock { () -> Bool in
                guard idle.count < Self.kept else { return false }
                idle.append(stream)
                return true
            }
            if !kept {
                blocks_deflateEnd(stream)
                stream.deallocate()
            }
        }
    }
}

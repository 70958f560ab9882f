import BlocksArchive

/// Where the bytes of an archive to read come from.
public enum ArchiveSource: Sendable {
    /// Streamed from disk, so a large file is never loaded whole.
    case file(URL)
    case bytes(Data)
}

/// The only code that talks to libarchive. It writes prepared entries and reads headers
/// and data; every rule about what may be written or kept lives in plain Swift
/// (`ArchiveLayout`, `ArchiveInventory`).
enum LibArchive {
    /// Bytes pulled from libarchive at a time while reading, so caps trip early.
    static let readChunkSize = 64 * 1024

    // MARK: Loading

    /// libarchive is opened with dlopen on first use (see the shim), so commands that never
    /// touch an archive never load it. Every entry point checks this first.
    static var isLibraryAvailable: Bool { blocks_archive_available() }

    static let missingLibraryMessage =
        "libarchive (libarchive13) is not installed or lacks a needed function; "
        + "install it, for example with `apt-get install libarchive13`"

    #if DEBUG
    /// Whether libarchive would load from the first of `candidates` that opens and has
    /// every function. Only for tests: the real list lives in the shim.
    static func libraryLoads(fromCandidates candidates: [String]) -> Bool {
        let names = candidates.map { strdup($0) }
        defer { names.forEach { free($0) } }
        return names.map { UnsafePointer($0) }.withUnsafeBufferPointer {
            blocks_archive_loads_from($0.baseAddress, $0.count)
        }
    }
    #endif

    // MARK: Writing

    /// Writes the items, in order, with fixed metadata, into memory.
    static func write(
        _ items: [ArchiveLayoutItem], format: ArchiveFormat, archiveName: String, modificationTime: Int
    ) throws -> Data {
        guard isLibraryAvailable else {
            throw ArchiveError.writeFailed(archive: archiveName, message: missingLibraryMessage)
        }
        return try withUTF8Locale {
            guard let archive = blocks_archive_write_new() else {
                throw ArchiveError.writeFailed(archive: archiveName, message: "libarchive could not allocate a writer")
            }
            defer { blocks_archive_write_free(archive) }
            let writer = Writer(archive: archive, archiveName: archiveName)
            try writer.choose(format)
            let sink = ByteSink()
            let client = Unmanaged.passUnretained(sink).toOpaque()
            try withExtendedLifetime(sink) {
                try writer.check(
                    blocks_archive_write_open2(
                        archive, client, nil,
                        { _, client, buffer, length in
                            guard let client, let buffer else { return -1 }
                            let sink = Unmanaged<ByteSink>.fromOpaque(client).takeUnretainedValue()
                            sink.data.append(buffer.assumingMemoryBound(to: UInt8.self), count: length)
                            return length
                        }, nil, nil), "opening the output")
                try writer.writeEntries(items, modificationTime: modificationTime)
                // archive_write_free would swallow a failure here, such as a short write.
                try writer.check(blocks_archive_write_close(archive), "closing the archive")
            }
            return sink.data
        }
    }

    /// An open libarchive writer, and the archive's name for its errors.
    private struct Writer {
        let archive: OpaquePointer
        let archiveName: String

        func check(_ code: Int32, _ step: String) throws {
            guard code == ARCHIVE_OK else {
                throw ArchiveError.writeFailed(archive: archiveName, message: "\(step): \(LibArchive.errorMessage(archive))")
            }
        }

        /// The format and its options, chosen so that the same items give the same bytes.
        func choose(_ format: ArchiveFormat) throws {
            switch format {
            case .tarGzip:
                try check(blocks_archive_write_set_format_pax_restricted(archive), "choosing the tar format")
                try check(blocks_archive_write_add_filter_gzip(archive), "adding gzip")
                // Without this, gzip stamps the current time into the header.
                try check(blocks_archive_write_set_options(archive, "gzip:!timestamp"), "setting gzip options")
            case .zip:
                try check(blocks_archive_write_set_format_zip(archive), "choosing the zip format")
                try check(blocks_archive_write_set_options(archive, "zip:hdrcharset=UTF-8"), "setting zip options")
            }
            // Without this, the output is padded with zeros to a 10 KiB block.
            try check(blocks_archive_write_set_bytes_in_last_block(archive, 1), "setting the block size")
        }

        /// Each item's header, then a file's data, with the owner, time and mode fixed.
        func writeEntries(_ items: [ArchiveLayoutItem], modificationTime: Int) throws {
            guard let entry = blocks_archive_entry_new() else {
                throw ArchiveError.writeFailed(archive: archiveName, message: "libarchive could not allocate an entry")
            }
            defer { blocks_archive_entry_free(entry) }
            for item in items {
                blocks_archive_entry_clear(entry)
                blocks_archive_entry_set_mtime(entry, modificationTime, 0)
                blocks_archive_entry_set_uid(entry, 0)
                blocks_archive_entry_set_gid(entry, 0)
                switch item.kind {
                case .directory:
                    blocks_archive_entry_set_pathname_utf8(entry, item.path + "/")
                    blocks_archive_entry_set_filetype(entry, blocks_ae_ifdir)
                    blocks_archive_entry_set_perm(entry, ArchiveLayoutItem.directoryMode)
                    blocks_archive_entry_set_size(entry, 0)
                    try check(blocks_archive_write_header(archive, entry), "writing \(item.path)/")
                case .file(let data):
                    blocks_archive_entry_set_pathname_utf8(entry, item.path)
                    blocks_archive_entry_set_filetype(entry, blocks_ae_ifreg)
                    blocks_archive_entry_set_perm(entry, ArchiveLayoutItem.fileMode)
                    blocks_archive_entry_set_size(entry, Int64(data.count))
                    try check(blocks_archive_write_header(archive, entry), "writing \(item.path)")
                    try LibArchive.writeData(data, to: archive, archiveName: archiveName, entry: item.path)
                }
                try check(blocks_archive_write_finish_entry(archive), "finishing \(item.path)")
            }
        }
    }

    private static func writeData(_ data: Data, to archive: OpaquePointer, archiveName: String, entry: String) throws {
        try data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
            var offset = 0
            while offset < buffer.count, let base = buffer.baseAddress {
                let written = blocks_archive_write_data(archive, base + offset, buffer.count - offset)
                guard written > 0 else {
                    throw ArchiveError.writeFailed(archive: archiveName, message: "writing \(entry): \(errorMessage(archive))")
                }
                offset += written
            }
        }
    }

    // MARK: Reading

    /// Reads every header through `inventory`, which refuses before any data is read, and
    /// streams each admitted file's data in chunks so the size cap trips early.
    static func read(_ source: ArchiveSource, format: ArchiveFormat, into inventory: inout ArchiveInventory) throws {
        let archiveName = inventory.archiveName
        guard isLibraryAvailable else {
            throw ArchiveError.unreadable(archive: archiveName, message: missingLibraryMessage)
        }
        try withUTF8Locale {
            guard let archive = blocks_archive_read_new() else {
                throw ArchiveError.unreadable(archive: archiveName, message: "libarchive could not allocate a reader")
            }
            defer { blocks_archive_read_free(archive) }
            switch format {
            case .tarGzip:
                blocks_archive_read_support_filter_gzip(archive)
                blocks_archive_read_support_format_tar(archive)
            case .zip:
                blocks_archive_read_support_format_zip(archive)
            }
            switch source {
            case .file(let url):
                try openAndRead(archive, archiveName: archiveName, inventory: &inventory) {
                    blocks_archive_read_open_filename(archive, url.path, readChunkSize)
                }
            case .bytes(let data):
                try data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
                    // archive_read_open_memory needs a non-null pointer even for no bytes.
                    var empty: UInt8 = 0
                    try withUnsafeMutablePointer(to: &empty) { emptyPointer in
                        let base = buffer.baseAddress ?? UnsafeRawPointer(emptyPointer)
                        try openAndRead(archive, archiveName: archiveName, inventory: &inventory) {
                            blocks_archive_read_open_memory(archive, base, buffer.count)
                        }
                    }
                }
            }
        }
    }

    private static func openAndRead(
        _ archive: OpaquePointer, archiveName: String, inventory: inout ArchiveInventory, open: () -> Int32
    ) throws {
        guard open() == ARCHIVE_OK else {
            throw ArchiveError.unreadable(archive: archiveName, message: errorMessage(archive))
        }
        var buffer = [UInt8](repeating: 0, count: readChunkSize)
        var entry: OpaquePointer?
        while true {
            let status = blocks_archive_read_next_header(archive, &entry)
            if status == ARCHIVE_EOF { break }
            guard status == ARCHIVE_OK || status == ARCHIVE_WARN, let entry else {
                throw ArchiveError.unreadable(archive: archiveName, message: errorMessage(archive))
            }
            let header = describe(entry)
            guard case .readFile(let relativePath) = try inventory.admit(header) else { continue }
            var contents = Data()
            // A header may lie about its size, so reserve at most 16 MiB up front.
            if let size = header.declaredSize { contents.reserveCapacity(Int(clamping: min(size, 1 << 24))) }
            while true {
                let count = buffer.withUnsafeMutableBytes { chunk in
                    blocks_archive_read_data(archive, chunk.baseAddress, chunk.count)
                }
                if count == 0 { break }
                guard count > 0 else {
                    throw ArchiveError.unreadable(archive: archiveName, message: errorMessage(archive))
                }
                try inventory.account(bytes: Int64(count), entry: header.displayPath)
                contents.append(contentsOf: buffer[0..<count])
            }
            inventory.store(contents, at: relativePath)
        }
    }

    /// Turns a libarchive entry into the plain header the rules look at.
    private static func describe(_ entry: OpaquePointer) -> ArchiveHeader {
        let utf8Path = blocks_archive_entry_pathname_utf8(entry).map { String(cString: $0) }
        let displayPath = utf8Path ?? blocks_archive_entry_pathname(entry).map { String(cString: $0) } ?? ""
        let kind: ArchiveHeader.Kind
        let type = blocks_archive_entry_filetype(entry) & blocks_ae_ifmt
        if let target = blocks_archive_entry_hardlink_utf8(entry) ?? blocks_archive_entry_hardlink(entry) {
            kind = .hardLink(target: String(cString: target))
        } else if type == blocks_ae_iflnk {
            let target = blocks_archive_entry_symlink_utf8(entry) ?? blocks_archive_entry_symlink(entry)
            kind = .symbolicLink(target: target.map { String(cString: $0) } ?? "")
        } else if type == blocks_ae_ifreg {
            kind = .file
        } else if type == blocks_ae_ifdir {
            kind = .directory
        } else {
            kind = .special(specialKindName(type))
        }
        let declaredSize = blocks_archive_entry_size_is_set(entry) != 0 ? blocks_archive_entry_size(entry) : nil
        return ArchiveHeader(path: utf8Path, displayPath: displayPath, kind: kind, declaredSize: declaredSize)
    }

    /// Names for the AE_IF* types the shim does not export; their values are fixed by POSIX.
    private static func specialKindName(_ type: UInt32) -> String {
        switch type {
        case 0o020000: return "character device"
        case 0o060000: return "block device"
        case 0o010000: return "fifo"
        case 0o140000: return "socket"
        default: return "file of unknown type (mode \(String(type, radix: 8)))"
        }
    }

    // MARK: Helpers

    private static func errorMessage(_ archive: OpaquePointer) -> String {
        if let message = blocks_archive_error_string(archive) { return String(cString: message) }
        return "unknown libarchive error (code \(blocks_archive_errno(archive)))"
    }

    /// libarchive 3.6.2's pax writer crashes on non-ASCII names in the "C" locale (upstream
    /// issue 2233), so archive work runs with this thread's locale switched to UTF-8.
    private static func withUTF8Locale<T>(_ body: () throws -> T) rethrows -> T {
        guard let utf8 = utf8Locale else { return try body() }
        let previous = uselocale(utf8)
        defer { uselocale(previous) }
        return try body()
    }

    /// Made once and never freed: a locale object is read-only once created, so threads
    /// may share it, and building one per archive costs more than the archive.
    nonisolated(unsafe) private static let utf8Locale = newlocale(LC_CTYPE_MASK, UTF8Locale.characterTypeName, nil)
}

/// Collects libarchive's output; passed to its C callback as an opaque pointer.
private final class ByteSink {
    var data = Data()
}

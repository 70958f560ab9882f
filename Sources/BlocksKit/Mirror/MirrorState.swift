/// What the mirror knows about DEST: the upstream index's ETag and, for each archive it
/// verified, the hash and the file's size and modification time. A re-run stats the files
/// instead of re-hashing them, and re-hashes only the ones that changed on disk.
///
/// Stored as `.blocks-mirror/state` in a plain line format, which loads much faster than
/// JSON for tens of thousands of archives.
struct MirrorState: Equatable {
    struct Record: Equatable {
        var sha256: String
        var size: Int64
        var modified: Int64

        /// A record no file on disk can match, so the next sync fetches the archive again.
        static func damaged(_ sha256: String) -> Record { Record(sha256: sha256, size: -1, modified: 0) }
    }

    var etag: String?
    /// The mode DEST's metadata files were written in (`Mirror.mode`); nil for a mirror
    /// made before modes, whose metadata lists only the newest version.
    var mode: String?
    var records: [String: Record] = [:]

    static func file(in destination: URL) -> URL {
        destination.appendingPathComponent(".blocks-mirror/state")
    }

    /// Parsed as bytes: splitting a String walks grapheme clusters, which for 20,000
    /// lines cost more than the whole no-change re-sync may take.
    static func load(from destination: URL) -> MirrorState {
        guard let data = FileDescriptorIO.readFile(file(in: destination).path) else { return MirrorState() }
        var state = MirrorState()
        data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            // About one record per 150 bytes: reserved once, rather than grown ten times.
            state.records.reserveCapacity(bytes.count / 150)
            var fields: [Range<Int>] = []
            fields.reserveCapacity(8)
            var lineStart = 0
            for end in 0...bytes.count where end == bytes.count || bytes[end] == UInt8(ascii: "\n") {
                defer { lineStart = end + 1 }
                guard end > lineStart else { continue }
                fields.removeAll(keepingCapacity: true)
                var fieldStart = lineStart
                for position in lineStart...end where position == end || bytes[position] == UInt8(ascii: "\t") {
                    fields.append(fieldStart..<position)
                    fieldStart = position + 1
                }
                state.read(fields, of: bytes)
            }
        }
        return state
    }

    /// One line's tab-separated fields: an `etag` or `mode` line, or an `archive` record
    /// whose size and time are numbers. Anything else is skipped.
    private mutating func read(_ fields: [Range<Int>], of bytes: UnsafeBufferPointer<UInt8>) {
        func text(_ field: Range<Int>) -> String { String(decoding: UnsafeBufferPointer(rebasing: bytes[field]), as: UTF8.self) }
        func equals(_ field: Range<Int>, _ word: StaticString) -> Bool {
            field.count == word.utf8CodeUnitCount && memcmp(bytes.baseAddress! + field.lowerBound, word.utf8Start, field.count) == 0
        }
        if fields.count == 2, equals(fields[0], "etag") {
            etag = text(fields[1])
        } else if fields.count == 2, equals(fields[0], "mode") {
            mode = text(fields[1])
        } else if fields.count == 5, equals(fields[0], "archive"), let size = Int64(text(fields[3])), let modified = Int64(text(fields[4])) {
            records[text(fields[1])] = Record(sha256: text(fields[2]), size: size, modified: modified)
        }
    }

    func save(to destination: URL) throws {
        // Built as bytes with room reserved up front: for 20,000 archives a growing
        // String plus its copy into Data would cost several megabytes at once.
        var data = Data(capacity: 64 + records.count * 160)
        data.append(contentsOf: "blocks-mirror-state\t1\n".utf8)
        if let etag { data.append(contentsOf: "etag\t\(etag)\n".utf8) }
        if let mode { data.append(contentsOf: "mode\t\(mode)\n".utf8) }
        for path in records.keys.sorted() {
            guard let record = records[path] else { continue }
            data.append(contentsOf: "archive\t\(path)\t\(record.sha256)\t\(record.size)\t\(record.modified)\n".utf8)
        }
        try AtomicFile.write(data, to: Self.file(in: destination))
    }

    /// Size and modification time (nanoseconds) of a file, or nil when it is missing.
    static func stamp(_ url: URL) -> (size: Int64, modified: Int64)? { stamp(path: url.path) }

    static func stamp(path: String) -> (size: Int64, modified: Int64)? { FileStamp.of(path: path) }

    /// True when the file is exactly as it was when it was last verified. The path is
    /// joined as text: `URL.appendingPathComponent` stats the result to decide whether it
    /// is a folder, which doubled the system calls of a re-sync.
    func isIntact(_ path: String, sha256: String, in destination: URL) -> Bool {
        isIntact(path, sha256: sha256, inFolder: destination.path)
    }

    func isIntact(_ path: String, sha256: String, inFolder folder: String) -> Bool {
        guard let record = records[path], record.sha256 == sha256,
            let stamp = Self.stamp(path: folder + "/" + path)
        else { return false }
        return stamp.size == record.size && stamp.modified == record.modified
    }

    mutating func record(_ path: String, sha256: String, in destination: URL) {
        guard let stamp = Self.stamp(path: destination.path + "/" + path) else { return }
        records[path] = Record(sha256: sha256, size: stamp.size, modified: stamp.modified)
    }
}

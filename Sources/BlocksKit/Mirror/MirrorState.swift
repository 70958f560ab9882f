#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

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
    var records: [String: Record] = [:]

    static func file(in destination: URL) -> URL {
        destination.appendingPathComponent(".blocks-mirror/state")
    }

    static func load(from destination: URL) -> MirrorState {
        guard let data = FileManager.default.contents(atPath: file(in: destination).path) else { return MirrorState() }
        var state = MirrorState()
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            if fields.count == 2, fields[0] == "etag" {
                state.etag = String(fields[1])
            } else if fields.count == 5, fields[0] == "archive", let size = Int64(fields[3]), let modified = Int64(fields[4]) {
                state.records[String(fields[1])] = Record(sha256: String(fields[2]), size: size, modified: modified)
            }
        }
        return state
    }

    func save(to destination: URL) throws {
        // Built as bytes with room reserved up front: for 20,000 archives a growing
        // String plus its copy into Data would cost several megabytes at once.
        var data = Data(capacity: 64 + records.count * 160)
        data.append(contentsOf: "blocks-mirror-state\t1\n".utf8)
        if let etag { data.append(contentsOf: "etag\t\(etag)\n".utf8) }
        for path in records.keys.sorted() {
            guard let record = records[path] else { continue }
            data.append(contentsOf: "archive\t\(path)\t\(record.sha256)\t\(record.size)\t\(record.modified)\n".utf8)
        }
        try AtomicFile.write(data, to: Self.file(in: destination))
    }

    /// Size and modification time (nanoseconds) of a file, or nil when it is missing.
    static func stamp(_ url: URL) -> (size: Int64, modified: Int64)? {
        var info = stat()
        guard stat(url.path, &info) == 0 else { return nil }
        return (Int64(info.st_size), Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec))
    }

    /// True when the file is exactly as it was when it was last verified.
    func isIntact(_ path: String, sha256: String, in destination: URL) -> Bool {
        guard let record = records[path], record.sha256 == sha256,
              let stamp = Self.stamp(destination.appendingPathComponent(path)) else { return false }
        return stamp.size == record.size && stamp.modified == record.modified
    }

    mutating func record(_ path: String, sha256: String, in destination: URL) {
        guard let stamp = Self.stamp(destination.appendingPathComponent(path)) else { return }
        records[path] = Record(sha256: sha256, size: stamp.size, modified: stamp.modified)
    }
}

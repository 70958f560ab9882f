import Dispatch

extension CatalogSource: SearchFingerprinting {
    public var isIndexable: Bool {
        if case .folder = storage { return true }
        return false
    }

    public var searchFingerprint: String? {
        switch storage {
        case .embedded: return nil
        case .folder(let url): return SearchFingerprint.catalogFolder(at: url.path)
        }
    }

    /// The files, besides the `block.json`s that `searchFingerprint` covers, that a folder's
    /// index is built from: each block's code files, `<name>/<path>`, since an edit to one
    /// changes the names in it. Other sources' code names come with their metadata.
    ///
    /// Only up to `codeStampLimit` files: each is one more `stat` on every search, which
    /// on 10,000 blocks took a third more time than the search itself. Catalogs that size
    /// are generated, not edited by hand; in one, an edit to a Swift file alone is seen
    /// when its `block.json` or the set of blocks changes next.
    func codeFiles(of blocks: [SearchableBlock], limit: Int = CatalogSource.codeStampLimit) -> PackedStrings {
        guard case .folder = storage else { return PackedStrings() }
        var files = PackedStrings()
        for block in blocks {
            for path in CodeNames.codeFiles(of: block.manifest) {
                guard files.count < limit else { return PackedStrings() }
                files.append("\(block.manifest.name)/\(path)")
            }
        }
        return files
    }

    /// The most code files a folder's index is stamped by (see `codeFiles(of:limit:)`).
    static let codeStampLimit = 2_000

    /// A fingerprint of those files, as cheap as `searchFingerprint`; empty for none.
    func codeStamp(of files: PackedStrings) -> String {
        guard case .folder(let url) = storage, files.count > 0 else { return "" }
        return SearchFingerprint.files(files, in: url.path) ?? ""
    }
}

/// Cheap fingerprints built from `stat`, never from file contents.
public enum SearchFingerprint {
    /// The size, modification and change times and inode of one file; nil when it is missing.
    public static func file(at path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        var hash = EntryHash()
        hash.add(info)
        return "file-\(hash.first.hex)\(hash.second.hex)"
    }

    /// A catalog folder: every `<name>/block.json` with its name, size, modification and
    /// change times and inode. Names come from `readdir` and metadata from `fstatat` on
    /// two threads, which costs some 1.5 µs a block here, where `FileManager` attributes
    /// cost far more. Entries are combined by adding their hashes, so their order does
    /// not matter. Nil when the folder cannot be read.
    public static func catalogFolder(at path: String) -> String? {
        catalogFolder(at: path, threads: nil)
    }

    /// Files by their paths inside a folder, each with its path, size, modification and
    /// change times and inode, on two threads for many files; a missing file counts as
    /// none. Nil when the folder cannot be opened.
    static func files(_ relativePaths: PackedStrings, in folder: String) -> String? {
        guard let directory = opendir(folder) else { return nil }
        defer { closedir(directory) }
        var paths: [CChar] = []
        paths.reserveCapacity(relativePaths.bytes.count + relativePaths.count)
        var entries: [(start: Int, nameLength: Int)] = []
        entries.reserveCapacity(relativePaths.count)
        relativePaths.forEachBytes { _, path in
            entries.append((paths.count, path.count))
            path.withMemoryRebound(to: CChar.self) { paths.append(contentsOf: $0) }
            paths.append(0)
        }
        let job = StatJob(descriptor: dirfd(directory), paths: paths, entries: entries)
        let parts = entries.count < 256 ? 1 : 2
        DispatchQueue.concurrentPerform(iterations: parts) { job.run(part: $0, of: parts) }
        let total = job.total
        return "files-\(total.count)-\(total.first.hex)\(total.second.hex)"
    }

    /// Every file under a folder, at any depth, each with its path inside it, size,
    /// modification and change times and inode: what a build records of a block's folder
    /// to skip it unread next time (`BuildRecord`). Nil when the folder cannot be read, is
    /// deeper than 16 folders, or holds a file changed at or after `changedBefore`
    /// (nanoseconds since 1970): a file written in the same clock tick as it was read
    /// could change again without its times showing it, so such a block is read again.
    static func tree(at path: String, changedBefore cutoff: Int64) -> String? {
        var sum = EntrySum()
        func visit(_ folder: String, relative: String, depth: Int) -> Bool {
            guard depth < 16, let directory = opendir(folder) else { return false }
            defer { closedir(directory) }
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
                }
                if name == "." || name == ".." { continue }
                var info = stat()
                guard stat(folder + "/" + name, &info) == 0 else { return false }
                let inside = relative.isEmpty ? name : relative + "/" + name
                if PathKind(info) == .folder {
                    guard visit(folder + "/" + name, relative: inside, depth: depth + 1) else { return false }
                    continue
                }
                let (modified, changed) = (info.modificationTime, info.statusChangeTime)
                let latest = max(Int64(modified.tv_sec) * 1_000_000_000 + Int64(modified.tv_nsec), Int64(changed.tv_sec) * 1_000_000_000 + Int64(changed.tv_nsec))
                guard latest < cutoff else { return false }
                var hash = EntryHash()
                Array(inside.utf8).withUnsafeBytes { hash.add($0) }
                hash.add(info)
                sum.add(hash)
            }
            return true
        }
        guard visit(path, relative: "", depth: 0) else { return nil }
        return "tree-\(sum.count)-\(sum.first.hex)\(sum.second.hex)"
    }

    /// `threads` overrides the choice of one thread for small folders and two otherwise.
    static func catalogFolder(at path: String, threads: Int?) -> String? {
        guard let directory = opendir(path) else { return nil }
        defer { closedir(directory) }
        let descriptor = dirfd(directory)
        // Every "<name>/block.json\0" back to back, with where each starts and its name's length.
        var paths: [CChar] = []
        var entries: [(start: Int, nameLength: Int)] = []
        let suffix = Array("/block.json".utf8CString)
        while let entry = readdir(directory) {
            withUnsafeBytes(of: entry.pointee.d_name) { raw in
                raw.withMemoryRebound(to: CChar.self) { name in
                    // Skips hidden entries, "." and "..".
                    guard let start = name.baseAddress, let initial = name.first, initial != 0, initial != 0x2E else { return }
                    let length = strnlen(start, name.count)
                    entries.append((paths.count, length))
                    paths.append(contentsOf: UnsafeBufferPointer(start: start, count: length))
                    paths.append(contentsOf: suffix)
                }
            }
        }
        let job = StatJob(descriptor: descriptor, paths: paths, entries: entries)
        let parts = threads ?? (entries.count < 256 ? 1 : 2)
        DispatchQueue.concurrentPerform(iterations: parts) { job.run(part: $0, of: parts) }
        let total = job.total
        return "catalog-\(total.count)-\(total.first.hex)\(total.second.hex)"
    }

    /// Stats a share of a folder's entries on each thread, then adds its sum under a lock.
    private final class StatJob: @unchecked Sendable {
        let descriptor: Int32
        let paths: [CChar]
        let entries: [(start: Int, nameLength: Int)]
        private let lock = Lock()
        private var sum = EntrySum()

        init(descriptor: Int32, paths: [CChar], entries: [(start: Int, nameLength: Int)]) {
            self.descriptor = descriptor
            self.paths = paths
            self.entries = entries
        }

        var total: EntrySum {
            lock.lock()
            defer { lock.unlock() }
            return sum
        }

        func run(part: Int, of parts: Int) {
            var partial = EntrySum()
            paths.withUnsafeBufferPointer { paths in
                guard let base = paths.baseAddress else { return }
                for index in stride(from: part, to: entries.count, by: parts) {
                    let (start, nameLength) = entries[index]
                    var info = stat()
                    guard fstatat(descriptor, base + start, &info, 0) == 0 else { continue }
                    var hash = EntryHash()
                    hash.add(UnsafeRawBufferPointer(start: base + start, count: nameLength))
                    hash.add(info)
                    partial.add(hash)
                }
            }
            lock.lock()
            sum.add(partial)
            lock.unlock()
        }
    }

    /// Hashes of entries added up: the same set in any order gives the same sum.
    struct EntrySum {
        var count: UInt64 = 0
        var first: UInt64 = 0
        var second: UInt64 = 0

        mutating func add(_ hash: EntryHash) {
            count += 1
            first &+= hash.first
            second &+= hash.second
        }

        mutating func add(_ other: EntrySum) {
            count += other.count
            first &+= other.first
            second &+= other.second
        }
    }

    /// Two 64-bit FNV-1a hashes with different starting points over one entry's bytes.
    struct EntryHash {
        var first: UInt64 = 0xcbf2_9ce4_8422_2325
        var second: UInt64 = 0x6c62_272e_07bb_0142

        mutating func add(_ bytes: UnsafeRawBufferPointer) {
            for byte in bytes {
                first = (first ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
                second = (second ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            }
            // A separator, so "ab"+"c" and "a"+"bc" differ.
            first = (first ^ 0xff) &* 0x0000_0100_0000_01b3
            second = (second ^ 0xff) &* 0x0000_0100_0000_01b3
        }

        mutating func add(_ info: stat) {
            let (modified, changed) = (info.modificationTime, info.statusChangeTime)
            let fields = (
                Int64(info.st_size), Int64(modified.tv_sec), Int64(modified.tv_nsec),
                Int64(changed.tv_sec), Int64(changed.tv_nsec), Int64(bitPattern: UInt64(info.st_ino)),
                Int64(info.st_mode)
            )
            withUnsafeBytes(of: fields) { add($0) }
        }
    }
}

extension UInt64 {
    fileprivate var hex: String {
        let digits = String(self, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}

extension BuiltRegistrySource: SearchFingerprinting {
    /// A built registry folder changes by writing a new `index.json` (a mirror renames
    /// it into place last), and `manifests()` reads only that file, so its `stat` says
    /// it all. A remote registry is asked with one conditional GET, which replaces the
    /// cached copy of its index exactly when it changed: that file's `stat` says it all
    /// too, and a search of an unchanged registry costs the request, not a decode of
    /// every manifest.
    public var isIndexable: Bool { true }

    public var searchFingerprint: String? {
        switch root {
        case .folder(let url): return SearchFingerprint.file(at: url.joining("index.json").path)
        case .remote:
            guard let file = try? currentIndexFile() else { return nil }
            return SearchFingerprint.file(at: file.path).map { "remote-" + $0 }
        }
    }
}

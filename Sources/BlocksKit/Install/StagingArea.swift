/// A private temporary folder inside the project root, so every staged file is on the
/// same filesystem as its target and `rename` moves it into place atomically.
/// Folders left by a killed run are removed by the next run, under `ProjectMutex`.
public struct StagingArea {
    public static let prefix = ".blocks-staging-"
    public let url: URL
    /// Its registration with `Interruption`: Ctrl-C removes the folder until `remove()` does.
    private let registration: Int

    /// Creates a fresh staging folder in `root`.
    public init(root: URL) throws {
        // mkdtemp replaces the template's last six characters with a unique suffix.
        let placeholder = String(repeating: "X", count: 6)
        var template = Array(root.appendingPathComponent(Self.prefix + placeholder).path.utf8CString)
        let created = template.withUnsafeMutableBufferPointer { buffer -> Bool in
            guard let base = buffer.baseAddress else { return false }
            return mkdtemp(base) != nil
        }
        guard created else {
            throw InstallError.writeFailed(path: root.path, reason: "cannot create a temporary folder (\(String(cString: strerror(errno))))")
        }
        url = URL(fileURLWithPath: String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        registration = Interruption.removeOnInterrupt(url.path)
    }

    /// Writes bytes into the staging folder under a fresh name and returns its URL.
    ///
    /// No `fsync`: what installs promise is that a process killed at any instant
    /// (kill -9, Ctrl-C) leaves every file old or new, and written bytes live in the
    /// page cache once `write` returns, so the later `rename` never exposes a partial
    /// file to a kill. Surviving a power cut would need an fsync per file, about a
    /// millisecond each, which `Data.write(to:)` did; a power cut may leave a new file
    /// empty, which `blocks status` reports as modified and a re-run of `add` repairs.
    public func stage(_ data: Data, name: String) throws -> URL {
        let file = url.joining(name)
        let failure = FileDescriptorIO.writeFile(data, to: file.path, flags: O_CREAT | O_EXCL, mode: 0o666)
        guard failure == 0 else { throw Self.stagingFailure(file, failure) }
        return file
    }

    static func stagingFailure(_ file: URL, _ code: Int32) -> InstallError {
        .writeFailed(path: file.path, reason: "cannot write a temporary file (\(String(cString: strerror(code))))")
    }

    /// Deletes the folder and what is in it: staged files not moved, and the old files
    /// that exchanges left here, deleted in parallel (`ParallelRemoval`).
    public func remove() {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
        ParallelRemoval.removeAll(names.map { url.path + "/" + $0 })
        try? FileManager.default.removeItem(at: url)
        Interruption.keep(registration)
    }

    /// The note a run leaves in its staging folder just before it creates folders.
    static let foldersNote = "folders-to-create"

    /// Notes, before they are made, the folders (relative to the root) this run is about
    /// to create: a run killed after making them leaves the next run that note, so the
    /// next run can record them as blocks' own (see `InstallPlan.adoptFolders`).
    public func noteFoldersToCreate(_ folders: [String]) throws {
        guard !folders.isEmpty else { return }
        _ = try stage(Data(folders.joined(separator: "\n").utf8), name: Self.foldersNote)
    }

    /// What killed runs left behind: the folders they noted they were creating, and a
    /// staging folder of this run that carries the note on until the run ends, so that a
    /// kill of this run before it writes its own note loses nothing. Remove `carrier`
    /// when the run is done.
    public struct Leftovers {
        public var folders: [String] = []
        public var carrier: StagingArea?

        public init(folders: [String] = [], carrier: StagingArea? = nil) {
            self.folders = folders
            self.carrier = carrier
        }
    }

    /// Removes staging folders that killed runs left in `root`, and returns the folders
    /// those runs noted they were creating (safe relative paths only), carried on in a new
    /// staging folder before the old ones go. Call only while holding `ProjectMutex`, so
    /// no live run owns them.
    @discardableResult
    public static func removeLeftovers(root: URL) -> Leftovers {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []).filter { $0.hasPrefix(prefix) }.sorted()
        var noted: [String] = []
        for name in names {
            let note = root.appendingPathComponent(name).appendingPathComponent(foldersNote)
            if let data = FileManager.default.contents(atPath: note.path), data.count <= 1 << 20 {
                for line in String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
                where RelativePath.isSafe(line) && !noted.contains(line) {
                    noted.append(line)
                }
            }
        }
        var leftovers = Leftovers(folders: noted)
        if !noted.isEmpty, let carrier = try? StagingArea(root: root), (try? carrier.noteFoldersToCreate(noted)) != nil {
            leftovers.carrier = carrier
        }
        for name in names { try? FileManager.default.removeItem(at: root.appendingPathComponent(name)) }
        return leftovers
    }

    /// Moves `source` over `target` in one step: readers see the old file or the new one.
    /// An existing file is swapped with `source` (`FileExchange`), leaving the old bytes in
    /// the staging folder, which is removed afterwards.
    public static func rename(_ source: URL, over target: URL, displayPath: String) throws {
        if FileExchange.exchange(source.path, with: target.path) { return }
        if errno == EISDIR {
            throw InstallError.writeFailed(path: displayPath, reason: String(cString: strerror(EISDIR)))
        }
        guard systemRename(source.path, target.path) == 0 else {
            throw InstallError.writeFailed(path: displayPath, reason: String(cString: strerror(errno)))
        }
    }

    /// Writes one file atomically through a staging folder in `root`.
    public static func writeAtomically(_ data: Data, to target: URL, root: URL, displayPath: String) throws {
        let staging = try StagingArea(root: root)
        defer { staging.remove() }
        let staged = try staging.stage(data, name: target.lastPathComponent)
        try rename(staged, over: target, displayPath: displayPath)
    }
}

/// What one header of an archive says, before any of its data is read.
///
/// The libarchive layer turns each header into one of these; `ArchiveInventory` decides
/// whether it may be kept. Keeping the rules here, in plain Swift, lets the writer and
/// the reader share them and keeps the C code thin.
struct ArchiveHeader: Sendable, Equatable {
    enum Kind: Sendable, Equatable {
        case file
        case directory
        case symbolicLink(target: String)
        case hardLink(target: String)
        /// A device, fifo, socket or unknown type, named for the error message.
        case special(String)
    }

    /// The entry's name as stored, or nil when it is not valid UTF-8.
    var path: String?
    /// The name made printable for messages, even when it is not UTF-8.
    var displayPath: String
    var kind: Kind
    /// The size the header promises, when it promises one. Zip streams may not.
    var declaredSize: Int64?
}

/// Path rules shared by reading and writing: relative, no `..`, no backslashes, no
/// control characters (C0, DEL and C1, as `TerminalText` defines them).
enum ArchivePath {
    /// Splits a stored name into its components, dropping empty and `.` ones, or throws
    /// the refusal that fits.
    static func components(of header: ArchiveHeader, archive: String) throws -> [String] {
        let shown = header.displayPath
        guard let path = header.path else {
            throw ArchiveError.unsafeName(archive: archive, entry: shown, reason: "is not valid UTF-8")
        }
        if path.isEmpty {
            throw ArchiveError.unsafeName(archive: archive, entry: shown, reason: "is empty")
        }
        if isAbsolute(path) {
            throw ArchiveError.absolutePath(archive: archive, entry: shown)
        }
        // Zips made on Windows use `\`; an extractor there would treat it as a separator.
        let parts = path.split(omittingEmptySubsequences: false) { $0 == "/" || $0 == "\\" }.map(String.init)
        if parts.contains("..") {
            throw ArchiveError.parentTraversal(archive: archive, entry: shown)
        }
        if path.contains("\\") {
            throw ArchiveError.unsafeName(archive: archive, entry: shown, reason: "contains a backslash")
        }
        if TerminalText.firstControl(in: path) != nil {
            throw ArchiveError.unsafeName(archive: archive, entry: shown, reason: "contains control characters")
        }
        return parts.filter { !$0.isEmpty && $0 != "." }
    }

    /// `/x`, `\x`, `//server/x` and `C:x` all start outside the extraction folder.
    static func isAbsolute(_ path: String) -> Bool {
        guard let first = path.unicodeScalars.first else { return false }
        if first == "/" || first == "\\" { return true }
        let scalars = Array(path.unicodeScalars.prefix(2))
        if scalars.count == 2, scalars[1] == ":", first.isASCII, first.properties.isAlphabetic {
            return true
        }
        return false
    }
}

/// Admits an archive's entries one by one, enforcing every rule and cap, and collects the
/// files. The reader asks it before reading any data, so a refusal costs nothing.
struct ArchiveInventory {
    /// What the caller should do with an admitted entry.
    enum Admission: Equatable {
        /// Nothing: folders are implied by the files' paths.
        case skip
        /// Read the data and `store` it under this path, relative to the top folder.
        case readFile(relativePath: String)
    }

    let archiveName: String
    let limits: ExtractionLimits
    private(set) var topFolder: String?
    private(set) var entryCount = 0
    private(set) var totalBytes: Int64 = 0
    private var files: [String: Data] = [:]
    // Keys are case-folded full paths; Swift's String equality already merges Unicode
    // normalization forms, so `é` and `e\u{301}` collide too, as on macOS.
    private var fileKeys: [String: String] = [:]
    private var directoryKeys: [String: String] = [:]
    private var impliedDirectoryKeys: [String: String] = [:]

    init(archiveName: String, limits: ExtractionLimits) {
        self.archiveName = archiveName
        self.limits = limits
    }

    /// Checks one header against every rule. Throws the first refusal that applies.
    mutating func admit(_ header: ArchiveHeader) throws -> Admission {
        entryCount += 1
        if entryCount > limits.maxEntries {
            throw ArchiveError.tooManyEntries(archive: archiveName, limit: limits.maxEntries)
        }
        let shown = header.displayPath
        let components = try ArchivePath.components(of: header, archive: archiveName)
        let isDirectory: Bool
        switch header.kind {
        case .file: isDirectory = false
        case .directory: isDirectory = true
        case .symbolicLink(let target):
            throw ArchiveError.symbolicLink(archive: archiveName, entry: shown, target: target)
        case .hardLink(let target):
            throw ArchiveError.hardLink(archive: archiveName, entry: shown, target: target)
        case .special(let kind):
            throw ArchiveError.specialFile(archive: archiveName, entry: shown, kind: kind)
        }
        guard let top = components.first else {
            // `./` names the extraction folder itself; a file cannot have that name.
            if isDirectory { return .skip }
            throw ArchiveError.unsafeName(archive: archiveName, entry: shown, reason: "names no file")
        }
        if !isDirectory, header.path?.hasSuffix("/") == true {
            throw ArchiveError.unsafeName(archive: archiveName, entry: shown, reason: "ends with '/' but is not a folder")
        }
        if let existing = topFolder {
            if existing.lowercased() != top.lowercased() {
                if components.count == 1 && !isDirectory {
                    throw ArchiveError.entryOutsideTopFolder(archive: archiveName, entry: shown, topFolder: existing)
                }
                throw ArchiveError.multipleTopFolders(archive: archiveName, first: existing, second: top)
            }
        } else if components.count > 1 || isDirectory {
            topFolder = top
        }
        if components.count == 1 && !isDirectory {
            throw ArchiveError.entryOutsideTopFolder(archive: archiveName, entry: shown, topFolder: topFolder)
        }
        try recordPath(components, isDirectory: isDirectory, shown: shown)
        if isDirectory { return .skip }
        if let size = header.declaredSize {
            try account(bytes: size, entry: shown, commit: false)
        }
        return .readFile(relativePath: components.dropFirst().joined(separator: "/"))
    }

    /// Counts bytes as they stream in, throwing as soon as the total passes the cap.
    mutating func account(bytes: Int64, entry: String) throws {
        try account(bytes: bytes, entry: entry, commit: true)
    }

    private mutating func account(bytes: Int64, entry: String, commit: Bool) throws {
        let (sum, overflow) = totalBytes.addingReportingOverflow(max(bytes, 0))
        if overflow || sum > limits.maxTotalBytes {
            throw ArchiveError.tooLarge(archive: archiveName, entry: entry, limit: limits.maxTotalBytes)
        }
        if commit { totalBytes = sum }
    }

    mutating func store(_ data: Data, at relativePath: String) {
        files[relativePath] = data
    }

    /// The validated result, once every entry has been admitted.
    func finish() throws -> ExtractedArchive {
        guard let topFolder else { throw ArchiveError.emptyArchive(archive: archiveName) }
        return ExtractedArchive(topFolder: topFolder, files: files)
    }

    private mutating func recordPath(_ components: [String], isDirectory: Bool, shown: String) throws {
        let key = components.joined(separator: "/").lowercased()
        if let other = fileKeys[key] {
            if isDirectory { throw ArchiveError.pathConflict(archive: archiveName, entry: shown, other: other) }
            throw ArchiveError.duplicateEntry(archive: archiveName, entry: shown)
        }
        if let other = directoryKeys[key] {
            if !isDirectory { throw ArchiveError.pathConflict(archive: archiveName, entry: shown, other: other) }
            throw ArchiveError.duplicateEntry(archive: archiveName, entry: shown)
        }
        if !isDirectory, let other = impliedDirectoryKeys[key] {
            throw ArchiveError.pathConflict(archive: archiveName, entry: shown, other: other)
        }
        var ancestor = ""
        for component in components.dropLast() {
            ancestor += ancestor.isEmpty ? component.lowercased() : "/" + component.lowercased()
            if let other = fileKeys[ancestor] {
                throw ArchiveError.pathConflict(archive: archiveName, entry: shown, other: other)
            }
            if impliedDirectoryKeys[ancestor] == nil { impliedDirectoryKeys[ancestor] = shown }
        }
        if isDirectory { directoryKeys[key] = shown } else { fileKeys[key] = shown }
    }
}

/// The archive formats a registry publishes. Each is a plugin behind `ArchiveCodec`.
public enum ArchiveFormat: String, Sendable, CaseIterable, Codable {
    case tarGzip = "tar.gz"
    case zip

    /// The format a file name's extension says, or nil.
    public static func forFile(_ path: String) -> ArchiveFormat? {
        let lower = path.lowercased()
        if lower.hasSuffix(".tar.gz") || lower.hasSuffix(".tgz") { return .tarGzip }
        if lower.hasSuffix(".zip") { return .zip }
        return nil
    }

    public var fileExtension: String { rawValue }
}

/// A regular file inside an archive. Folders are implied by the paths.
public struct ArchiveEntry: Sendable, Equatable {
    /// A relative path with `/` separators, starting with the archive's top folder.
    public var path: String
    public var data: Data

    public init(path: String, data: Data) {
        self.path = path
        self.data = data
    }
}

/// Caps that stop a hostile archive before it fills the disk or memory.
public struct ExtractionLimits: Sendable, Equatable {
    public var maxTotalBytes: Int64
    public var maxEntries: Int

    public init(maxTotalBytes: Int64 = 64 * 1024 * 1024, maxEntries: Int = 10_000) {
        self.maxTotalBytes = maxTotalBytes
        self.maxEntries = maxEntries
    }
}

/// What reading an archive gives: its single top folder and its files, all validated.
public struct ExtractedArchive: Sendable, Equatable {
    public var topFolder: String
    /// Paths relative to the top folder.
    public var files: [String: Data]

    public init(topFolder: String, files: [String: Data]) {
        self.topFolder = topFolder
        self.files = files
    }
}

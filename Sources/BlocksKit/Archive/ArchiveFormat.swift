/// The archive formats a registry publishes. Each is a plugin behind `ArchiveCodec`.
public enum ArchiveFormat: String, Sendable, CaseIterable {
    case tarGzip = "tar.gz"
    case zip

    /// The file name endings of each format, in any case; the first is the one written.
    public var suffixes: [String] {
        switch self {
        case .tarGzip: [".tar.gz", ".tgz"]
        case .zip: [".zip"]
        }
    }

    /// The format a registry prefers when a block has several: tar.gz.
    static let preferred = ArchiveFormat.tarGzip

    /// The format a file name's extension says, or nil.
    public static func forFile(_ path: String) -> ArchiveFormat? {
        let lower = path.lowercased()
        return allCases.first { format in format.suffixes.contains { lower.hasSuffix($0) } }
    }

    /// A file name without its archive endings (`tabs.tar.gz` gives `tabs`).
    static func strippingSuffixes(_ name: String) -> String {
        var name = name
        for suffix in allCases.flatMap(\.suffixes) where name.lowercased().hasSuffix(suffix) {
            name = String(name.dropLast(suffix.count))
        }
        return name
    }

    public var fileExtension: String { rawValue }

    /// The formats as messages name them, joined by `conjunction`: ".tar.gz or .zip".
    public static func spelled(joinedBy conjunction: String = "or") -> String {
        let names = allCases.map { $0.suffixes[0] }
        guard names.count > 1 else { return names.joined() }
        return names.dropLast().joined(separator: ", ") + " \(conjunction) " + names[names.count - 1]
    }
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

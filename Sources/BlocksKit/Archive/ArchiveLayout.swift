/// One entry to write: a folder or a file, with its full path.
struct ArchiveLayoutItem: Sendable, Equatable {
    enum Kind: Sendable, Equatable {
        case directory
        case file(Data)
    }

    /// The full path with `/` separators; folders have no trailing slash here.
    var path: String
    var kind: Kind

    static let directoryMode: UInt32 = 0o755
    static let fileMode: UInt32 = 0o644
}

/// Turns the caller's files into the exact, reproducible list of entries to write.
///
/// The order and the metadata are what make two builds byte-identical: entries are sorted
/// by the bytes of their UTF-8 paths (independent of locale and Swift version), every
/// parent folder gets its own entry before its children, and modes, owners and times
/// are fixed by the writer.
enum ArchiveLayout {
    static func items(for entries: [ArchiveEntry], archiveName: String) throws -> [ArchiveLayoutItem] {
        // The same rules as reading, so that everything written can be read back.
        var inventory = ArchiveInventory(
            archiveName: archiveName,
            limits: ExtractionLimits(maxTotalBytes: .max, maxEntries: .max)
        )
        var directories = Set<String>()
        var items: [ArchiveLayoutItem] = []
        for entry in entries {
            let header = ArchiveHeader(
                path: entry.path, displayPath: entry.path, kind: .file, declaredSize: Int64(entry.data.count)
            )
            let components = try ArchivePath.components(of: header, archive: archiveName)
            if components.joined(separator: "/") != entry.path {
                throw ArchiveError.unsafeName(
                    archive: archiveName, entry: entry.path,
                    reason: "is not in the form top/folder/file (no empty or '.' parts)"
                )
            }
            _ = try inventory.admit(header)
            for depth in 1..<components.count {
                directories.insert(components.prefix(depth).joined(separator: "/"))
            }
            items.append(ArchiveLayoutItem(path: entry.path, kind: .file(entry.data)))
        }
        if entries.isEmpty { throw ArchiveError.emptyArchive(archive: archiveName) }
        items += directories.map { ArchiveLayoutItem(path: $0, kind: .directory) }
        return items.sorted { sortKey($0).lexicographicallyPrecedes(sortKey($1)) }
    }

    /// Folders sort as `path/`, so each comes right before its own children.
    private static func sortKey(_ item: ArchiveLayoutItem) -> [UInt8] {
        var key = Array(item.path.utf8)
        if item.kind == .directory { key.append(UInt8(ascii: "/")) }
        return key
    }
}

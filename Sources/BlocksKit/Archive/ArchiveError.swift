/// Every way reading or writing an archive can be refused.
///
/// Archives come from registries and from users' downloads, so reading treats each one as
/// possibly hostile: one refusal per kind of trick, each naming the archive and the entry
/// so that a user can tell the publisher exactly what is wrong. Nothing is ever written
/// when one of these is thrown.
public enum ArchiveError: Error, Equatable, Sendable, CustomStringConvertible {
    /// An entry's path starts at the file system root (`/x`, `\x`, `C:\x`).
    case absolutePath(archive: String, entry: String)
    /// An entry's path climbs out with `..`, with either `/` or `\` separators.
    case parentTraversal(archive: String, entry: String)
    /// An entry's name is empty, holds control characters or a backslash, or is not UTF-8.
    case unsafeName(archive: String, entry: String, reason: String)
    /// A symbolic link, which could point anywhere once extracted.
    case symbolicLink(archive: String, entry: String, target: String)
    /// A hard link, which could alias a file outside the archive's folder.
    case hardLink(archive: String, entry: String, target: String)
    /// A device, fifo, socket or entry of unknown type; `kind` says which.
    case specialFile(archive: String, entry: String, kind: String)
    /// The same path twice (compared ignoring case, as macOS file systems do).
    case duplicateEntry(archive: String, entry: String)
    /// A path that is a file in one entry and a folder in another.
    case pathConflict(archive: String, entry: String, other: String)
    /// A file beside the top folder instead of inside it.
    case entryOutsideTopFolder(archive: String, entry: String, topFolder: String?)
    /// More than one top folder.
    case multipleTopFolders(archive: String, first: String, second: String)
    /// An archive with no entries at all.
    case emptyArchive(archive: String)
    /// More entries than `ExtractionLimits.maxEntries`.
    case tooManyEntries(archive: String, limit: Int)
    /// More bytes of content than `ExtractionLimits.maxTotalBytes`; `entry` is the one that
    /// crossed the cap.
    case tooLarge(archive: String, entry: String, limit: Int64)
    /// Neither a tar.gz nor a zip.
    case unknownFormat(archive: String)
    /// libarchive could not read it: corrupt, truncated or unsupported. `message` is
    /// libarchive's own.
    case unreadable(archive: String, message: String)
    /// The archive could not be made or saved.
    case writeFailed(archive: String, message: String)
    /// The file to write exists, and replacing it was neither forced nor confirmed.
    case outputExists(archive: String)

    public var description: String {
        let refusal = "was refused"
        let fromTrusted = "get the archive again from a source you trust, or ask its publisher to fix it"
        switch self {
        case .absolutePath(let archive, let entry):
            return "archive \(archive) \(refusal): entry \(quoted(entry)) has an absolute path; "
                + "entries must be relative to one top folder. Nothing was written; \(fromTrusted)"
        case .parentTraversal(let archive, let entry):
            return "archive \(archive) \(refusal): entry \(quoted(entry)) climbs out of its folder with '..'. "
                + "Nothing was written; \(fromTrusted)"
        case .unsafeName(let archive, let entry, let reason):
            return "archive \(archive) \(refusal): the name of entry \(quoted(entry)) \(reason). "
                + "Nothing was written; rename the file in the source and make the archive again"
        case .symbolicLink(let archive, let entry, let target):
            return "archive \(archive) \(refusal): entry \(quoted(entry)) is a symbolic link to \(quoted(target)); "
                + "blocks archives hold only files and folders. Nothing was written; \(fromTrusted)"
        case .hardLink(let archive, let entry, let target):
            return "archive \(archive) \(refusal): entry \(quoted(entry)) is a hard link to \(quoted(target)); "
                + "blocks archives hold only files and folders. Nothing was written; \(fromTrusted)"
        case .specialFile(let archive, let entry, let kind):
            return "archive \(archive) \(refusal): entry \(quoted(entry)) is a \(kind); "
                + "blocks archives hold only files and folders. Nothing was written; \(fromTrusted)"
        case .duplicateEntry(let archive, let entry):
            return "archive \(archive) \(refusal): entry \(quoted(entry)) appears twice (names are compared "
                + "ignoring case). Nothing was written; \(fromTrusted)"
        case .pathConflict(let archive, let entry, let other):
            return "archive \(archive) \(refusal): entry \(quoted(entry)) clashes with \(quoted(other)): "
                + "one path cannot be both a file and a folder. Nothing was written; \(fromTrusted)"
        case .entryOutsideTopFolder(let archive, let entry, let topFolder):
            let inside = topFolder.map { "inside the top folder \(quoted($0))" } ?? "inside one top folder"
            return "archive \(archive) \(refusal): entry \(quoted(entry)) is not \(inside); "
                + "a blocks archive keeps everything in one top folder. Nothing was written; \(fromTrusted)"
        case .multipleTopFolders(let archive, let first, let second):
            return "archive \(archive) \(refusal): it has more than one top folder (\(quoted(first)) and "
                + "\(quoted(second))); a blocks archive keeps everything in one. Nothing was written; \(fromTrusted)"
        case .emptyArchive(let archive):
            return "archive \(archive) \(refusal): it holds no entries. Check that it is the file you meant"
        case .tooManyEntries(let archive, let limit):
            return "archive \(archive) \(refusal): it has more than \(limit) entries, the cap that stops "
                + "archive bombs. Nothing was written; \(fromTrusted)"
        case .tooLarge(let archive, let entry, let limit):
            return "archive \(archive) \(refusal) at entry \(quoted(entry)): its contents exceed \(limit) bytes, "
                + "the cap that stops archive bombs. Nothing was written; \(fromTrusted)"
        case .unknownFormat(let archive):
            return "archive \(archive) \(refusal): it is not a \(ArchiveFormat.spelled()). "
                + "Check the file, or give it a \(ArchiveFormat.spelled()) name"
        case .unreadable(let archive, let message):
            return "archive \(archive) could not be read: \(message). It may be corrupt or truncated; "
                + "download it again. Nothing was written"
        case .writeFailed(let archive, let message):
            return "archive \(archive) could not be written: \(message). "
                + "Check that the folder exists, is writable and has free space"
        case .outputExists(let archive):
            return "\(archive) already exists and was kept; give --overwrite to replace it, or choose another name with -o"
        }
    }

    private func quoted(_ text: String) -> String {
        // Control characters are escaped so a hostile name cannot rewrite the terminal.
        "'\(TerminalText.escaped(text))'"
    }
}

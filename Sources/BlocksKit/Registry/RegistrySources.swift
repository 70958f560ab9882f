#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Picks the registry plugin for a `--registry` value: the embedded catalog by default,
/// a catalog folder, a built registry folder, `file://`, `http(s)://`, or an archive file.
public enum RegistrySources {
    /// The registry a command reads: `--registry` or `BLOCKS_REGISTRY`, else the one
    /// `blocks init` saved in the project's `blocks.json`, else the embedded catalog. Every
    /// command that reads blocks goes through here, so `list` shows what `add` would add.
    public static func forProject(context: CommandContext) throws -> RegistrySource {
        if let location = context.registry { return try open(location, context: context) }
        let root = ProjectLocator.markedRoot(from: context.workingDirectory)
        return try open(root.flatMap { try ProjectConfig.read(root: $0)?.registryLocation(root: $0) }, context: context)
    }

    public static func open(_ location: String?, context: CommandContext) throws -> RegistrySource {
        guard let location, !location.isEmpty, location != "embedded" else { return CatalogSource.embedded }
        if location.hasPrefix("http://") || location.hasPrefix("https://") {
            // An archive URL carries its checksum as a fragment: https://host/tabs.zip#sha256=HEX
            let parts = location.split(separator: "#", maxSplits: 1).map(String.init)
            if ArchiveFormat.forFile(parts[0]) != nil {
                let checksum = parts.count == 2 && parts[1].hasPrefix("sha256=") ? String(parts[1].dropFirst("sha256=".count)) : nil
                return try ArchiveFileSource.download(parts[0], sha256: checksum, context: context)
            }
            return BuiltRegistrySource(root: .remote(location), context: context)
        }
        if let separator = location.firstRange(of: "://") {
            let scheme = location[..<separator.lowerBound].lowercased()
            let isScheme = scheme.allSatisfy { $0.isLetter || $0.isNumber || "+-.".contains($0) }
            if isScheme && !["file", "http", "https"].contains(scheme) {
                throw RegistryError.unreadable(location: location, reason: "\(scheme):// is not supported; use https://, http://, file:// or a path")
            }
        }
        let path = location.lowercased().hasPrefix("file://") ? try localPath(fileURL: location) : location
        let url = context.resolve(path)
        let kind = PathKind(url.path)
        guard kind != .missing else {
            throw RegistryError.unreadable(location: location, reason: "no such file or folder")
        }
        if kind != .folder {
            if ArchiveFormat.forFile(url.path) != nil { return try ArchiveFileSource(url: url) }
            throw RegistryError.unreadable(location: location, reason: "a registry is a folder, a URL, or a .tar.gz/.zip archive")
        }
        if FileManager.default.fileExists(atPath: url.appendingPathComponent("index.json").path) {
            return BuiltRegistrySource(root: .folder(url), context: context)
        }
        if CatalogSource.looksLikeCatalog(url) { return CatalogSource.folder(url) }
        throw RegistryError.unreadable(location: location, reason: "the folder has neither index.json nor <name>/block.json folders")
    }

    /// The path a `file://` URL names: `file:///path` or `file://localhost/path`, with
    /// percent escapes decoded (`%20` is a space). A path typed without escapes, spaces and
    /// all, is taken as it is.
    static func localPath(fileURL location: String) throws -> String {
        var rest = Substring(location.dropFirst("file://".count))
        if rest.lowercased().hasPrefix("localhost/") { rest = rest.dropFirst("localhost".count) }
        guard rest.hasPrefix("/") else {
            throw RegistryError.unreadable(location: location, reason: "a file:// URL names a path on this machine, as in file:///srv/registry")
        }
        return percentDecoded(String(rest)) ?? String(rest)
    }

    /// `%XX` escapes turned back into bytes; nil when the result is not UTF-8.
    static func percentDecoded(_ text: String) -> String? {
        var bytes: [UInt8] = []
        var input = text.utf8[...]
        while let byte = input.popFirst() {
            let digits = input.prefix(2)
            if byte == UInt8(ascii: "%"), digits.count == 2, digits.allSatisfy({ Character(Unicode.Scalar($0)).isHexDigit }),
               let value = UInt8(String(decoding: digits, as: UTF8.self), radix: 16) {
                bytes.append(value)
                input = input.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }
}

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Picks the registry plugin for a `--registry` value: the embedded catalog by default,
/// a catalog folder, a built registry folder, `file://`, `http(s)://`, or an archive file.
public enum RegistrySources {
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
        let path = location.hasPrefix("file://") ? String(location.dropFirst("file://".count)) : location
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
}

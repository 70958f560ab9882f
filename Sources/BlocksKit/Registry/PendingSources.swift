import Foundation

// Temporary: replaced by the registry issue's real sources.
struct HTTPRegistrySource: RegistrySource {
    let baseURL: String
    let context: CommandContext
    var location: String { baseURL }
    func manifests() throws -> [BlockManifest] { throw RegistryError.unreadable(location: baseURL, reason: "not yet") }
    func contents(of names: [String]) throws -> [BlockContent] { throw RegistryError.unreadable(location: baseURL, reason: "not yet") }
}

struct FolderRegistrySource: RegistrySource {
    let root: URL
    var location: String { root.path }
    func manifests() throws -> [BlockManifest] { throw RegistryError.unreadable(location: location, reason: "not yet") }
    func contents(of names: [String]) throws -> [BlockContent] { throw RegistryError.unreadable(location: location, reason: "not yet") }
}

struct ArchiveFileSource: RegistrySource {
    let url: URL
    init(url: URL) throws { self.url = url }
    var location: String { url.path }
    func manifests() throws -> [BlockManifest] { throw RegistryError.unreadable(location: location, reason: "not yet") }
    func contents(of names: [String]) throws -> [BlockContent] { throw RegistryError.unreadable(location: location, reason: "not yet") }
}

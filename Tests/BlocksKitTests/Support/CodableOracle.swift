// The oracle for the library's one JSON reader and one writer. The library has no
// `Codable` at all (`JSONGuardTests`): each format is described once, by `init(fields:)`
// and `jsonValue`. These conformances, written against Foundation's `JSONDecoder` and
// `JSONEncoder` and declared only in the tests, describe the same formats a second,
// independent way, so tests can hold the library's values and bytes equal to them.
//
// Scripts/fuzz compiles this file into its one module with the library and the fuzz
// targets (with `-D FUZZ_ORACLE`), so the targets check against the same oracle.
#if FUZZ_ORACLE
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#else
import Foundation

@testable import BlocksKit
#endif

extension JSONValue: Codable {
    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int.self) {
            self = .int(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let value): try container.encode(value)
        case .int(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .bool(let value): try container.encode(value)
        case .null: try container.encodeNil()
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// Any Encodable value, as JSON, through Foundation.
    init<Value: Encodable>(encoding value: Value) throws {
        self = try JSONDecoder().decode(JSONValue.self, from: try JSONEncoder().encode(value))
    }
}

extension StableJSON {
    /// Foundation's encoder in `StableJSON`'s layout: what `StableJSONWriter` must match.
    static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return encoder
    }

    /// A value's bytes as Foundation's encoder writes them in this layout, with the final
    /// newline.
    static func data<Value: Encodable>(_ value: Value, using encoder: JSONEncoder = encoder()) throws -> Data {
        var data = try encoder.encode(value)
        data.append(UInt8(ascii: "\n"))
        return data
    }
}

/// The coding keys of every format below: a key the oracle names is looked up by its text.
struct OracleKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

extension KeyedDecodingContainer where Key == OracleKey {
    func value<Value: Decodable>(_ key: String, as type: Value.Type = Value.self) throws -> Value {
        try decode(Value.self, forKey: OracleKey(stringValue: key))
    }

    /// Nil when absent or null, as `decodeIfPresent` has it.
    func optional<Value: Decodable>(_ key: String, as type: Value.Type = Value.self) throws -> Value? {
        try decodeIfPresent(Value.self, forKey: OracleKey(stringValue: key))
    }
}

extension KeyedEncodingContainer where Key == OracleKey {
    mutating func put<Value: Encodable>(_ value: Value, _ key: String) throws {
        try encode(value, forKey: OracleKey(stringValue: key))
    }

    mutating func putIfPresent<Value: Encodable>(_ value: Value?, _ key: String) throws {
        try encodeIfPresent(value, forKey: OracleKey(stringValue: key))
    }
}

extension BlockFile.Role: Codable {}

extension BlockFile: Codable {
    public init(from decoder: Decoder) throws {
        let object = try decoder.container(keyedBy: OracleKey.self)
        self.init(path: try object.value("path"), role: try object.value("role"))
    }

    public func encode(to encoder: Encoder) throws {
        var object = encoder.container(keyedBy: OracleKey.self)
        try object.put(path, "path")
        try object.put(role, "role")
    }
}

extension APIParameter: Codable {
    public init(from decoder: Decoder) throws {
        let object = try decoder.container(keyedBy: OracleKey.self)
        self.init(
            name: try object.value("name"), type: try object.value("type"), default: try object.optional("default"),
            description: try object.value("description"))
    }

    public func encode(to encoder: Encoder) throws {
        var object = encoder.container(keyedBy: OracleKey.self)
        try object.put(name, "name")
        try object.put(type, "type")
        try object.putIfPresent(self.default, "default")
        try object.put(description, "description")
    }
}

extension PackageDependency: Codable {
    public init(from decoder: Decoder) throws {
        let object = try decoder.container(keyedBy: OracleKey.self)
        self.init(url: try object.value("url"), from: try object.optional("from"), exact: try object.optional("exact"), products: try object.value("products"))
    }

    public func encode(to encoder: Encoder) throws {
        var object = encoder.container(keyedBy: OracleKey.self)
        try object.put(url, "url")
        try object.putIfPresent(from, "from")
        try object.putIfPresent(exact, "exact")
        try object.put(products, "products")
    }
}

extension BlockDependencies: Codable {
    public init(from decoder: Decoder) throws {
        let object = try decoder.container(keyedBy: OracleKey.self)
        self.init(blocks: try object.optional("blocks") ?? [], packages: try object.optional("packages") ?? [])
    }

    public func encode(to encoder: Encoder) throws {
        var object = encoder.container(keyedBy: OracleKey.self)
        if !blocks.isEmpty { try object.put(blocks, "blocks") }
        if !packages.isEmpty { try object.put(packages, "packages") }
    }
}

extension BlockManifest: Codable {
    public init(from decoder: Decoder) throws {
        let object = try decoder.container(keyedBy: OracleKey.self)
        self.init(
            name: try object.value("name"), version: try object.value("version"), title: try object.value("title"),
            summary: try object.value("summary"), category: try object.value("category"), platforms: try object.value("platforms"),
            level: try object.value("level"), origin: try object.value("origin"), tags: try object.value("tags"), api: try object.value("api"),
            files: try object.value("files"), authors: try object.value("authors"), license: try object.value("license"),
            accessibility: try object.value("accessibility"), dependencies: try object.optional("dependencies"),
            recommendedTransforms: try object.optional("recommendedTransforms") ?? [])
    }

    public func encode(to encoder: Encoder) throws {
        var object = encoder.container(keyedBy: OracleKey.self)
        try object.put(name, "name")
        try object.put(version, "version")
        try object.put(title, "title")
        try object.put(summary, "summary")
        try object.put(category, "category")
        try object.put(platforms, "platforms")
        try object.put(level, "level")
        try object.put(origin, "origin")
        try object.put(tags, "tags")
        try object.put(api, "api")
        try object.put(files, "files")
        try object.put(authors, "authors")
        try object.put(license, "license")
        try object.put(accessibility, "accessibility")
        try object.putIfPresent(dependencies, "dependencies")
        if !recommendedTransforms.isEmpty { try object.put(recommendedTransforms, "recommendedTransforms") }
    }
}

extension RegistryArchive: Codable {
    public init(from decoder: Decoder) throws {
        let object = try decoder.container(keyedBy: OracleKey.self)
        self.init(path: try object.value("path"), sha256: try object.value("sha256"), size: try object.value("size"))
    }

    public func encode(to encoder: Encoder) throws {
        var object = encoder.container(keyedBy: OracleKey.self)
        try object.put(path, "path")
        try object.put(sha256, "sha256")
        try object.put(size, "size")
    }
}

extension RegistryFileDigest: Codable {
    public init(from decoder: Decoder) throws {
        let object = try decoder.container(keyedBy: OracleKey.self)
        self.init(sha256: try object.value("sha256"), size: try object.value("size"))
    }

    public func encode(to encoder: Encoder) throws {
        var object = encoder.container(keyedBy: OracleKey.self)
        try object.put(sha256, "sha256")
        try object.put(size, "size")
    }
}

/// An entry is its manifest's object with four more keys.
extension RegistryEntry: Codable {
    public init(from decoder: Decoder) throws {
        let object = try decoder.container(keyedBy: OracleKey.self)
        self.init(
            manifest: try BlockManifest(from: decoder), metadata: try object.value("metadata"), sourceSHA256: try object.value("sourceSHA256"),
            archives: try object.value("archives"), codeNames: try object.optional("codeNames") ?? [])
    }

    public func encode(to encoder: Encoder) throws {
        try manifest.encode(to: encoder)
        var object = encoder.container(keyedBy: OracleKey.self)
        try object.put(metadata, "metadata")
        try object.put(sourceSHA256, "sourceSHA256")
        try object.put(archives, "archives")
        if !codeNames.isEmpty { try object.put(codeNames, "codeNames") }
    }
}

/// Blocks keep the index's order.
extension RegistryIndex: Codable {
    public init(from decoder: Decoder) throws {
        let object = try decoder.container(keyedBy: OracleKey.self)
        self.init(blocks: [])
        schemaVersion = try object.value("schemaVersion")
        blocks = try object.value("blocks")
        if schemaVersion == SplitIndex.schemaVersion { split = try SplitIndex.Layout(from: decoder) }
        version = try object.optional("version")
        expires = try object.optional("expires")
        metadata = try object.optional("metadata")
        nextKey = try object.optional("nextKey")
    }

    public func encode(to encoder: Encoder) throws {
        var object = encoder.container(keyedBy: OracleKey.self)
        try object.put(schemaVersion, "schemaVersion")
        try object.put(blocks, "blocks")
        try split?.encode(to: encoder)
        try object.putIfPresent(version, "version")
        try object.putIfPresent(expires, "expires")
        try object.putIfPresent(metadata, "metadata")
        try object.putIfPresent(nextKey, "nextKey")
    }
}

/// The members a split index adds to index.json, beside the others.
extension SplitIndex.Layout: Codable {
    public init(from decoder: Decoder) throws {
        let object = try decoder.container(keyedBy: OracleKey.self)
        self.init(
            epoch: try object.value("epoch"), snapshot: try object.value("snapshot"), dictionary: try object.value("dictionary"), ranges: try object.value("ranges"),
            digestFiles: try object.value("digestFiles"), feed: try object.value("feed"))
    }

    public func encode(to encoder: Encoder) throws {
        var object = encoder.container(keyedBy: OracleKey.self)
        try object.put(epoch, "epoch")
        try object.put(dictionary, "dictionary")
        try object.put(ranges, "ranges")
        try object.put(digestFiles, "digestFiles")
        try object.put(snapshot, "snapshot")
        try object.put(feed, "feed")
    }
}

extension SplitIndex.FileReference: Codable {
    public init(from decoder: Decoder) throws {
        let object = try decoder.container(keyedBy: OracleKey.self)
        self.init(path: try object.value("path"), sha256: try object.value("sha256"), size: try object.value("size"))
    }

    public func encode(to encoder: Encoder) throws {
        var object = encoder.container(keyedBy: OracleKey.self)
        try object.put(path, "path")
        try object.put(sha256, "sha256")
        try object.put(size, "size")
    }
}

extension SplitIndex.Part: Codable {
    public init(from decoder: Decoder) throws {
        let object = try decoder.container(keyedBy: OracleKey.self)
        self.init(first: try object.value("first"), blocks: try object.value("blocks"), file: try SplitIndex.FileReference(from: decoder))
    }

    public func encode(to encoder: Encoder) throws {
        var object = encoder.container(keyedBy: OracleKey.self)
        try object.put(first, "first")
        try object.put(blocks, "blocks")
        try file.encode(to: encoder)
    }
}

extension Lockfile.File: Codable {
    public init(from decoder: Decoder) throws {
        let object = try decoder.container(keyedBy: OracleKey.self)
        self.init(path: try object.value("path"), sha256: try object.value("sha256"))
    }

    public func encode(to encoder: Encoder) throws {
        var object = encoder.container(keyedBy: OracleKey.self)
        try object.put(path, "path")
        try object.put(sha256, "sha256")
    }
}

extension Lockfile.Package.Product: Codable {
    public init(from decoder: Decoder) throws {
        let object = try decoder.container(keyedBy: OracleKey.self)
        self.init(name: try object.value("name"), target: try object.value("target"), createdList: try object.value("createdList"))
    }

    public func encode(to encoder: Encoder) throws {
        var object = encoder.container(keyedBy: OracleKey.self)
        try object.put(name, "name")
        try object.put(target, "target")
        try object.put(createdList, "createdList")
    }
}

extension Lockfile.Package: Codable {
    public init(from decoder: Decoder) throws {
        let object = try decoder.container(keyedBy: OracleKey.self)
        self.init(
            url: try object.value("url"), block: try object.value("block"), added: try object.value("added"),
            createdList: try object.value("createdList"), products: try object.value("products"))
    }

    public func encode(to encoder: Encoder) throws {
        var object = encoder.container(keyedBy: OracleKey.self)
        try object.put(url, "url")
        try object.put(block, "block")
        try object.put(added, "added")
        try object.put(createdList, "createdList")
        try object.put(products, "products")
    }
}

/// Version 1 blocks have no namespace, requiredBy or requested.
extension Lockfile.Block: Codable {
    public init(from decoder: Decoder) throws {
        let object = try decoder.container(keyedBy: OracleKey.self)
        self.init(
            registry: try object.value("registry"), version: try object.value("version"), folder: try object.value("folder"),
            createdFolders: try object.value("createdFolders"), files: try object.value("files"), namespace: try object.optional("namespace"),
            requiredBy: try object.optional("requiredBy") ?? [], requested: try object.optional("requested") ?? true,
            packages: try object.optional("packages"), transforms: try object.optional("transforms"))
    }

    public func encode(to encoder: Encoder) throws {
        var object = encoder.container(keyedBy: OracleKey.self)
        try object.put(registry, "registry")
        try object.putIfPresent(namespace, "namespace")
        try object.put(requiredBy, "requiredBy")
        try object.put(requested, "requested")
        try object.put(version, "version")
        try object.put(folder, "folder")
        try object.put(createdFolders, "createdFolders")
        try object.put(files, "files")
        try object.putIfPresent(packages, "packages")
        try object.putIfPresent(transforms, "transforms")
    }
}

/// Packages keep the file's order.
extension Lockfile: Codable {
    public init(from decoder: Decoder) throws {
        let object = try decoder.container(keyedBy: OracleKey.self)
        self.init()
        lockVersion = try object.value("lockVersion")
        blocks = try object.value("blocks")
        packages = try object.optional("packages") ?? []
    }

    public func encode(to encoder: Encoder) throws {
        var object = encoder.container(keyedBy: OracleKey.self)
        try object.put(lockVersion, "lockVersion")
        try object.put(blocks, "blocks")
        if !packages.isEmpty { try object.put(packages, "packages") }
    }
}

extension LintProblem: Codable {
    public init(from decoder: Decoder) throws {
        let object = try decoder.container(keyedBy: OracleKey.self)
        self.init(file: try object.value("file"), field: try object.value("field"), message: try object.value("message"))
    }

    public func encode(to encoder: Encoder) throws {
        var object = encoder.container(keyedBy: OracleKey.self)
        try object.put(file, "file")
        try object.put(field, "field")
        try object.put(message, "message")
    }
}

/// A registry is a string when it has no headers and no keys.
extension ProjectConfig.RegistryEntry: Encodable {
    public func encode(to encoder: Encoder) throws {
        if headers.isEmpty && keys.isEmpty {
            var single = encoder.singleValueContainer()
            try single.encode(url)
            return
        }
        var object = encoder.container(keyedBy: OracleKey.self)
        try object.put(url, "url")
        if !headers.isEmpty { try object.put(headers, "headers") }
        if !keys.isEmpty { try object.put(keys, "keys") }
    }
}

extension ProjectConfig: Encodable {
    public func encode(to encoder: Encoder) throws {
        var object = encoder.container(keyedBy: OracleKey.self)
        try object.putIfPresent(path, "path")
        try object.putIfPresent(registry, "registry")
        try object.putIfPresent(registries, "registries")
        try object.putIfPresent(keys, "keys")
        try object.putIfPresent(target, "target")
        try object.putIfPresent(plugins, "plugins")
        try object.putIfPresent(transforms, "transforms")
    }
}

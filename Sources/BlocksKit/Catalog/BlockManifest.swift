/// The metadata of one block, as written in `Catalog/<name>/block.json`.
///
/// It is the single description every other part reads: search ranks it, `info`
/// prints it, `add` copies the files it lists, and `build` publishes it.
public struct BlockManifest: Codable, Sendable, Equatable {
    public var name: String
    public var version: String
    public var title: [String: String]
    public var summary: [String: String]
    public var category: String
    public var platforms: [String: String]
    public var level: String
    public var origin: String
    public var tags: [String: [String]]
    public var api: [APIParameter]
    public var files: [BlockFile]
    public var authors: [String]
    public var license: String
    public var accessibility: [String: String]
    /// Other blocks and Swift packages this block needs; nil when it needs none.
    public var dependencies: BlockDependencies?

    public init(
        name: String, version: String, title: [String: String], summary: [String: String],
        category: String, platforms: [String: String], level: String, origin: String,
        tags: [String: [String]], api: [APIParameter], files: [BlockFile], authors: [String],
        license: String, accessibility: [String: String], dependencies: BlockDependencies? = nil
    ) {
        self.dependencies = dependencies
        self.name = name
        self.version = version
        self.title = title
        self.summary = summary
        self.category = category
        self.platforms = platforms
        self.level = level
        self.origin = origin
        self.tags = tags
        self.api = api
        self.files = files
        self.authors = authors
        self.license = license
        self.accessibility = accessibility
    }

    /// The manifest in an object read by `JSONReader`: the same result, and the same
    /// checks, as its `Decodable` conformance, at a fraction of the cost.
    init(fields: JSONFields) throws(JSONFields.Problem) {
        name = try fields.string("name")
        version = try fields.string("version")
        title = try fields.stringMap("title")
        summary = try fields.stringMap("summary")
        category = try fields.string("category")
        platforms = try fields.stringMap("platforms")
        level = try fields.string("level")
        origin = try fields.string("origin")
        tags = try fields.stringListMap("tags")
        api = []
        for parameter in try fields.objects("api") {
            api.append(
                APIParameter(
                    name: try parameter.string("name"), type: try parameter.string("type"),
                    default: try parameter.optionalString("default"), description: try parameter.string("description")))
        }
        files = []
        for file in try fields.objects("files") {
            guard let role = BlockFile.Role(rawValue: try file.string("role")) else { throw .wrongType(file.place("role")) }
            files.append(BlockFile(path: try file.string("path"), role: role))
        }
        authors = try fields.strings("authors")
        license = try fields.string("license")
        accessibility = try fields.stringMap("accessibility")
        switch fields.members["dependencies"] {
        case nil, .null?: dependencies = nil
        default: dependencies = try BlockDependencies(fields: try fields.object("dependencies"))
        }
    }

    /// The manifest as `JSONValue`, with the keys and values its `Encodable` conformance
    /// writes (a parameter without a default has no `default` key).
    var jsonValue: JSONValue { .object(jsonMembers) }

    /// The manifest's members, which an index entry extends (`RegistryEntry.addedMembers`).
    var jsonMembers: [String: JSONValue] {
        func strings(_ map: [String: String]) -> JSONValue { .object(map.mapValues { .string($0) }) }
        var members: [String: JSONValue] = [
            "name": .string(name), "version": .string(version), "title": strings(title), "summary": strings(summary),
            "category": .string(category), "platforms": strings(platforms), "level": .string(level), "origin": .string(origin),
            "tags": .object(tags.mapValues { .array($0.map { .string($0) }) }),
            "api": .array(
                api.map { parameter in
                    var members: [String: JSONValue] = [
                        "name": .string(parameter.name), "type": .string(parameter.type), "description": .string(parameter.description),
                    ]
                    if let value = parameter.default { members["default"] = .string(value) }
                    return .object(members)
                }),
            "files": .array(files.map { .object(["path": .string($0.path), "role": .string($0.role.rawValue)]) }),
            "authors": .array(authors.map { .string($0) }), "license": .string(license), "accessibility": strings(accessibility),
        ]
        if let dependencies { members["dependencies"] = dependencies.jsonValue }
        return members
    }

    /// A `block.json` through `JSONReader`; nil when it is not JSON or not a manifest.
    static func decode(_ data: Data) -> BlockManifest? {
        guard let value = try? JSONReader.parse(data), let fields = try? JSONFields(value, path: "") else { return nil }
        return try? BlockManifest(fields: fields)
    }

    /// The English text, falling back to any language the manifest has.
    public func localized(_ field: [String: String], language: String = "en") -> String {
        field[language] ?? field["en"] ?? field.values.sorted().first ?? ""
    }

    public var englishTitle: String { localized(title) }
    public var englishSummary: String { localized(summary) }
}

/// One public parameter of a block's component, shown in `blocks info`'s API table.
public struct APIParameter: Codable, Sendable, Equatable {
    public var name: String
    public var type: String
    public var `default`: String?
    public var description: String

    public init(name: String, type: String, default: String?, description: String) {
        self.name = name
        self.type = type
        self.default = `default`
        self.description = description
    }
}

/// A file that belongs to a block, with the role that decides whether `add` writes it.
public struct BlockFile: Codable, Sendable, Equatable {
    public enum Role: String, Codable, Sendable, CaseIterable {
        case component, logic, demo
    }
    public var path: String
    public var role: Role

    public init(path: String, role: Role) {
        self.path = path
        self.role = role
    }
}

/// A block with the text of its files: what every registry source hands out.
public struct BlockContent: Sendable, Equatable {
    public var manifest: BlockManifest
    /// Keyed by the path in `manifest.files`, without any license header.
    public var files: [String: Data]

    public init(manifest: BlockManifest, files: [String: Data]) {
        self.manifest = manifest
        self.files = files
    }
}

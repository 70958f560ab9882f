/// The metadata of one block, as written in `Catalog/<name>/block.json`.
///
/// It is the single description every other part reads: search ranks it, `info`
/// prints it, `add` copies the files it lists, and `build` publishes it.
public struct BlockManifest: Sendable, Equatable {
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
    /// Transforms the publisher suggests (`swift-format`, `access-level`): names only.
    /// `add` mentions the ones a project does not run; a registry never makes one run.
    public var recommendedTransforms: [String]

    public init(
        name: String, version: String, title: [String: String], summary: [String: String],
        category: String, platforms: [String: String], level: String, origin: String,
        tags: [String: [String]], api: [APIParameter], files: [BlockFile], authors: [String],
        license: String, accessibility: [String: String], dependencies: BlockDependencies? = nil, recommendedTransforms: [String] = []
    ) {
        self.dependencies = dependencies
        self.recommendedTransforms = recommendedTransforms
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

    /// The manifest's keys, each spelled once: `init(fields:)` and `jsonMembers` are its
    /// one reading and one writing description (the JSON Schema is the source of both, and
    /// tests hold them to it and to a `Codable` oracle).
    private enum Key {
        static let name = "name"
        static let version = "version"
        static let title = "title"
        static let summary = "summary"
        static let category = "category"
        static let platforms = "platforms"
        static let level = "level"
        static let origin = "origin"
        static let tags = "tags"
        static let api = "api"
        static let files = "files"
        static let authors = "authors"
        static let license = "license"
        static let accessibility = "accessibility"
        static let dependencies = "dependencies"
        static let recommendedTransforms = "recommendedTransforms"
    }

    /// The manifest in an object read by `JSONReader`.
    init(fields: JSONFields) throws(JSONFields.Problem) {
        name = try fields.string(Key.name)
        version = try fields.string(Key.version)
        title = try fields.stringMap(Key.title)
        summary = try fields.stringMap(Key.summary)
        category = try fields.string(Key.category)
        platforms = try fields.stringMap(Key.platforms)
        level = try fields.string(Key.level)
        origin = try fields.string(Key.origin)
        tags = try fields.stringListMap(Key.tags)
        api = []
        for parameter in try fields.objects(Key.api) { api.append(try APIParameter(fields: parameter)) }
        files = []
        for file in try fields.objects(Key.files) { files.append(try BlockFile(fields: file)) }
        authors = try fields.strings(Key.authors)
        license = try fields.string(Key.license)
        accessibility = try fields.stringMap(Key.accessibility)
        dependencies = try fields.optionalObject(Key.dependencies).map { (object) throws(JSONFields.Problem) in try BlockDependencies(fields: object) }
        recommendedTransforms = try fields.optionalStrings(Key.recommendedTransforms) ?? []
    }

    /// Only the fields search, list and the filters read (a split index's compact entry,
    /// `SplitIndex`); the rest is left empty, for the block's metadata file to supply.
    init(searchFields fields: JSONFields) throws(JSONFields.Problem) {
        self.init(
            name: try fields.string(Key.name), version: try fields.string(Key.version), title: try fields.stringMap(Key.title),
            summary: try fields.stringMap(Key.summary), category: try fields.string(Key.category), platforms: try fields.stringMap(Key.platforms),
            level: try fields.string(Key.level), origin: "", tags: try fields.stringListMap(Key.tags), api: [], files: [], authors: [], license: "",
            accessibility: [:])
    }

    /// The members `init(searchFields:)` reads.
    var searchMembers: [String: JSONValue] {
        [
            Key.name: .string(name), Key.version: .string(version), Key.title: JSONFields.jsonObject(title), Key.summary: JSONFields.jsonObject(summary),
            Key.category: .string(category), Key.platforms: JSONFields.jsonObject(platforms), Key.level: .string(level),
            Key.tags: .object(tags.mapValues(JSONFields.jsonArray)),
        ]
    }

    /// The manifest as `JSONValue`; a parameter without a default has no `default` key.
    var jsonValue: JSONValue { .object(jsonMembers) }

    /// The manifest's members, which an index entry extends (`RegistryEntry.addedMembers`).
    var jsonMembers: [String: JSONValue] {
        var members: [String: JSONValue] = [
            Key.name: .string(name), Key.version: .string(version), Key.title: JSONFields.jsonObject(title),
            Key.summary: JSONFields.jsonObject(summary), Key.category: .string(category), Key.platforms: JSONFields.jsonObject(platforms),
            Key.level: .string(level), Key.origin: .string(origin), Key.tags: .object(tags.mapValues(JSONFields.jsonArray)),
            Key.api: .array(api.map(\.jsonValue)), Key.files: .array(files.map(\.jsonValue)), Key.authors: JSONFields.jsonArray(authors),
            Key.license: .string(license), Key.accessibility: JSONFields.jsonObject(accessibility),
        ]
        if let dependencies { members[Key.dependencies] = dependencies.jsonValue }
        if !recommendedTransforms.isEmpty { members[Key.recommendedTransforms] = JSONFields.jsonArray(recommendedTransforms) }
        return members
    }

    /// A `block.json` through `JSONReader`; nil when it is not JSON or not a manifest.
    static func decode(_ data: Data) -> BlockManifest? {
        guard let value = try? JSONReader.parse(data), let fields = try? JSONFields(value, path: "") else { return nil }
        return try? BlockManifest(fields: fields)
    }

    /// The English text, falling back to any language the manifest has.
    public func localized(_ field: [String: String], language: String = "en") -> String {
        Self.localized(field, language: language)
    }

    /// The text in `language`, else in English, else in the language whose text sorts first.
    static func localized(_ field: [String: String], language: String = "en") -> String {
        field[language] ?? field["en"] ?? field.values.sorted().first ?? ""
    }

    public var englishTitle: String { localized(title) }
    public var englishSummary: String { localized(summary) }
}

/// One public parameter of a block's component, shown in `blocks info`'s API table.
public struct APIParameter: Sendable, Equatable {
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

    private enum Key {
        static let name = "name"
        static let type = "type"
        static let `default` = "default"
        static let description = "description"
    }

    init(fields: JSONFields) throws(JSONFields.Problem) {
        self.init(
            name: try fields.string(Key.name), type: try fields.string(Key.type), default: try fields.optionalString(Key.default),
            description: try fields.string(Key.description))
    }

    /// Without a `default` key when it has none.
    var jsonValue: JSONValue {
        var members: [String: JSONValue] = [Key.name: .string(name), Key.type: .string(type), Key.description: .string(description)]
        if let value = self.default { members[Key.default] = .string(value) }
        return .object(members)
    }
}

/// A file that belongs to a block, with the role that decides whether `add` writes it.
public struct BlockFile: Sendable, Equatable {
    public enum Role: String, Sendable, CaseIterable {
        case component, logic, demo
    }
    public var path: String
    public var role: Role

    public init(path: String, role: Role) {
        self.path = path
        self.role = role
    }

    private enum Key {
        static let path = "path"
        static let role = "role"
    }

    /// A role that is none of `Role`'s is the wrong type, as for any other value.
    init(fields: JSONFields) throws(JSONFields.Problem) {
        guard let role = Role(rawValue: try fields.string(Key.role)) else { throw .wrongType(fields.place(Key.role)) }
        self.init(path: try fields.string(Key.path), role: role)
    }

    var jsonValue: JSONValue { .object([Key.path: .string(path), Key.role: .string(role.rawValue)]) }
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

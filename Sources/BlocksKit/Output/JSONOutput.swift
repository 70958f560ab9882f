/// A JSON value, so commands can assemble `--json` output without ad-hoc types.
public indirect enum JSONValue: Codable, Sendable, Equatable {
    case string(String)
    case int(Int)
    case double(Double)
    case bool(Bool)
    case null
    case array([JSONValue])
    case object([String: JSONValue])

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

    public subscript(key: String) -> JSONValue? { object?[key] }

    public var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    public var array: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    public var object: [String: JSONValue]? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// The strings of an array that holds only strings; nil otherwise.
    public var strings: [String]? {
        guard let array else { return nil }
        let strings = array.compactMap { $0.string }
        return strings.count == array.count ? strings : nil
    }

    /// The objects of an array that holds only objects; nil otherwise.
    public var objects: [[String: JSONValue]]? {
        guard let array else { return nil }
        let objects = array.compactMap { $0.object }
        return objects.count == array.count ? objects : nil
    }

    /// Any Encodable value, as JSON.
    public init<Value: Encodable>(encoding value: Value) throws {
        let data = try JSONEncoder().encode(value)
        self = try JSONDecoder().decode(JSONValue.self, from: data)
    }
}

/// The one way commands print `--json`: a single object with sorted keys, so output is
/// stable across runs and diffs cleanly.
public enum JSONOutput {
    public static func encode(_ object: [String: JSONValue]) -> String {
        String(decoding: StableJSONWriter.write(.object(object)), as: UTF8.self)
    }
}

/// The one layout for JSON files the tool writes (the lock, the config, manifests, the
/// registry index and metadata): sorted keys, pretty printed, a final newline. The same
/// value always gives the same bytes, so files diff cleanly and archives reproduce.
public enum StableJSON {
    public static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return encoder
    }

    /// A `JSONValue` in this layout, written without `JSONEncoder` (see `StableJSONWriter`).
    public static func data(_ value: JSONValue) -> Data {
        var bytes = StableJSONWriter.write(value)
        bytes.append(UInt8(ascii: "\n"))
        return Data(bytes)
    }

    public static func data<Value: Encodable>(_ value: Value, using encoder: JSONEncoder = encoder()) throws -> Data {
        var data = try encoder.encode(value)
        data.append(UInt8(ascii: "\n"))
        return data
    }
}

/// How a block appears in `list`, `search` and `info` output.
public enum BlockSummary {
    /// The JSON every command uses for one block. `title` and `summary` are English
    /// strings; `localized` has every language.
    public static func json(_ manifest: BlockManifest) -> JSONValue {
        .object([
            "name": .string(manifest.name),
            "version": .string(manifest.version),
            "title": .string(manifest.englishTitle),
            "summary": .string(manifest.englishSummary),
            "localized": .object([
                "title": .object(manifest.title.mapValues { .string($0) }),
                "summary": .object(manifest.summary.mapValues { .string($0) }),
            ]),
            "category": .string(manifest.category),
            "platforms": .object(manifest.platforms.mapValues { .string($0) }),
            "level": .string(manifest.level),
            "tags": .object(manifest.tags.mapValues { .array($0.map { .string($0) }) }),
        ])
    }

    /// "iOS 18.0+", several joined by commas.
    public static func platformText(_ manifest: BlockManifest) -> String {
        manifest.platforms.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)+" }.joined(separator: ", ")
    }
}

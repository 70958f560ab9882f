#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

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
        if container.decodeNil() { self = .null }
        else if let value = try? container.decode(Bool.self) { self = .bool(value) }
        else if let value = try? container.decode(Int.self) { self = .int(value) }
        else if let value = try? container.decode(Double.self) { self = .double(value) }
        else if let value = try? container.decode(String.self) { self = .string(value) }
        else if let value = try? container.decode([JSONValue].self) { self = .array(value) }
        else { self = .object(try container.decode([String: JSONValue].self)) }
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
    public static func encode(_ object: [String: JSONValue]) throws -> String {
        try encodeValue(JSONValue.object(object))
    }

    public static func encodeValue<Value: Encodable>(_ value: Value) throws -> String {
        String(decoding: try StableJSON.encoder().encode(value), as: UTF8.self)
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

    public static func data<Value: Encodable>(_ value: Value, using encoder: JSONEncoder = encoder()) throws -> Data {
        var data = try encoder.encode(value)
        data.append(UInt8(ascii: "\n"))
        return data
    }

    /// The bytes `data` gives for one object holding the members of two, made from each
    /// one's own `data` bytes, or nil when they do not fit together (a key in both, or
    /// members that are not in plain `<` key order). A registry build encodes each
    /// manifest for the archive anyway; this gives its metadata file (the manifest plus
    /// where its archives are) without encoding the manifest a second time.
    static func merging(_ first: Data, _ second: Data) -> Data? {
        guard var members = topLevelMembers(first), let more = topLevelMembers(second) else { return nil }
        let inOrder = { (members: [(key: String, text: Data)]) in zip(members, members.dropFirst()).allSatisfy { $0.key < $1.key } }
        guard inOrder(members), inOrder(more) else { return nil }
        members += more
        members.sort { $0.key < $1.key }
        guard inOrder(members) else { return nil }  // strictly increasing: no key twice
        var output = Data("{\n".utf8)
        for (position, member) in members.enumerated() {
            if position > 0 { output.append(contentsOf: Array(",\n".utf8)) }
            output.append(member.text)
        }
        output.append(contentsOf: Array("\n}\n".utf8))
        return output
    }

    /// The members of a pretty-printed object, each as its lines without the comma that
    /// follows it: a member starts on a line indented by exactly two spaces and a quote.
    private static func topLevelMembers(_ data: Data) -> [(key: String, text: Data)]? {
        let bytes = [UInt8](data)
        let newline = UInt8(ascii: "\n"), quote = UInt8(ascii: "\""), space = UInt8(ascii: " ")
        guard bytes.starts(with: Array("{\n".utf8)), bytes.count > 4, Array(bytes.suffix(3)) == Array("\n}\n".utf8) else { return nil }
        let body = bytes[2..<(bytes.count - 3)]
        var starts: [Int] = []
        var lineStart = body.startIndex
        while lineStart < body.endIndex {
            if body[lineStart...].starts(with: [space, space, quote]) { starts.append(lineStart) }
            lineStart = (body[lineStart...].firstIndex(of: newline) ?? body.endIndex) + 1
        }
        guard starts.first == body.startIndex else { return nil }
        var members: [(key: String, text: Data)] = []
        for (position, start) in starts.enumerated() {
            var end = position + 1 < starts.count ? starts[position + 1] - 1 : body.endIndex
            if position + 1 < starts.count {
                guard body[end] == newline, body[end - 1] == UInt8(ascii: ",") else { return nil }
                end -= 1
            }
            // The key runs to the first quote not escaped by a backslash.
            var keyEnd = start + 3
            while keyEnd < end && body[keyEnd] != quote { keyEnd += body[keyEnd] == UInt8(ascii: "\\") ? 2 : 1 }
            guard keyEnd < end else { return nil }
            members.append((String(decoding: body[(start + 3)..<keyEnd], as: UTF8.self), Data(body[start..<end])))
        }
        return members
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

/// A JSON value, so commands can assemble `--json` output without ad-hoc types. It is
/// what the one reader (`JSONReader`) gives and the one writer (`StableJSONWriter`)
/// takes; every file format maps its fields to and from it once (`init(fields:)`,
/// `jsonValue`), and `Codable` serves only the tests, as an independent oracle.
public enum JSONValue: Sendable, Equatable {
    case string(String)
    case int(Int)
    case double(Double)
    case bool(Bool)
    case null
    case array([JSONValue])
    case object([String: JSONValue])

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
}

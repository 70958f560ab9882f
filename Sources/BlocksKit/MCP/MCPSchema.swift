/// The JSON Schemas the tools publish, and the check of a call's arguments against them.
///
/// One schema is both what `tools/list` tells the model and what `tools/call` enforces, so
/// the two cannot drift. The checker knows the keywords these schemas use (`type`,
/// `properties`, `required`, `additionalProperties`, `items`, `enum`, `minimum`,
/// `maximum`, `minLength`, `minItems`, `maxItems`); JSON Schema 2020-12 is the dialect.
enum MCPSchema {
    static func object(_ properties: [String: JSONValue], required: [String] = []) -> JSONValue {
        .object([
            "type": .string("object"),
            "properties": .object(properties),
            "required": .array(required.map { .string($0) }),
            "additionalProperties": .bool(false),
        ])
    }

    /// An object whose members are not listed, such as `platforms` or `tags`.
    static func map(of values: JSONValue, _ description: String? = nil) -> JSONValue {
        described(["type": .string("object"), "additionalProperties": values], description)
    }

    static func string(_ description: String? = nil, oneOf choices: [String]? = nil, minLength: Int? = nil) -> JSONValue {
        var schema: [String: JSONValue] = ["type": .string("string")]
        if let choices { schema["enum"] = .array(choices.map { .string($0) }) }
        if let minLength { schema["minLength"] = .int(minLength) }
        return described(schema, description)
    }

    /// `schema`, accepting null as well (an object that is there only sometimes).
    static func nullable(_ schema: JSONValue) -> JSONValue {
        guard case .object(var rules) = schema, let type = rules["type"]?.string else { return schema }
        rules["type"] = .array([.string(type), .string("null")])
        return .object(rules)
    }

    static let nullableString: JSONValue = .object(["type": .array([.string("string"), .string("null")])])

    /// What a block carries since registries have namespaces and blocks dependencies
    /// (issue 17): its namespace (null for the default registry), the blocks and packages it
    /// depends on, and the blocks that brought it in.
    static let teamFields: [String: JSONValue] = [
        "namespace": nullableString,
        "dependencies": .object(["type": .string("object")]),
        "requiredBy": array(of: string()),
    ]

    static func boolean(_ description: String? = nil) -> JSONValue {
        described(["type": .string("boolean")], description)
    }

    static func integer(_ description: String? = nil, minimum: Int? = nil, maximum: Int? = nil) -> JSONValue {
        var schema: [String: JSONValue] = ["type": .string("integer")]
        if let minimum { schema["minimum"] = .int(minimum) }
        if let maximum { schema["maximum"] = .int(maximum) }
        return described(schema, description)
    }

    static func array(of items: JSONValue, _ description: String? = nil, minItems: Int? = nil, maxItems: Int? = nil) -> JSONValue {
        var schema: [String: JSONValue] = ["type": .string("array"), "items": items]
        if let minItems { schema["minItems"] = .int(minItems) }
        if let maxItems { schema["maxItems"] = .int(maxItems) }
        return described(schema, description)
    }

    private static func described(_ schema: [String: JSONValue], _ description: String?) -> JSONValue {
        var schema = schema
        if let description { schema["description"] = .string(description) }
        return .object(schema)
    }

    /// The first way `value` breaks `schema`, as a sentence naming where; nil when it fits.
    static func problem(with value: JSONValue, against schema: JSONValue, at place: String = "arguments") -> String? {
        guard case .object(let rules) = schema else { return nil }
        if let allowed = rules["type"] {
            let names = allowed.strings ?? allowed.string.map { [$0] } ?? []
            guard names.contains(where: { typeName($0, fits: value) }) else {
                return "\(place) must be \(names.map(article).joined(separator: " or "))"
            }
        }
        if let choices = rules["enum"]?.array, !choices.contains(value) {
            let listed = choices.compactMap(\.string).map { "'\($0)'" }.joined(separator: ", ")
            return "\(place) must be one of \(listed)"
        }
        switch value {
        case .string(let text):
            if case .int(let least)? = rules["minLength"], text.count < least { return "\(place) must not be empty" }
        case .int(let number):
            if case .int(let least)? = rules["minimum"], number < least { return "\(place) must be at least \(least)" }
            if case .int(let most)? = rules["maximum"], number > most { return "\(place) must be at most \(most)" }
        case .array(let elements):
            if case .int(let least)? = rules["minItems"], elements.count < least { return "\(place) must have at least \(least) item\(least == 1 ? "" : "s")" }
            if case .int(let most)? = rules["maxItems"], elements.count > most { return "\(place) must have at most \(most) items" }
            if let items = rules["items"] {
                for (index, element) in elements.enumerated() {
                    if let problem = problem(with: element, against: items, at: "\(place)[\(index)]") { return problem }
                }
            }
        case .object(let members):
            for name in rules["required"]?.strings ?? [] where members[name] == nil {
                return "\(place).\(name) is required"
            }
            let properties = rules["properties"]?.object ?? [:]
            for (name, member) in members.sorted(by: { $0.key < $1.key }) {
                if let property = properties[name] {
                    if let problem = problem(with: member, against: property, at: "\(place).\(name)") { return problem }
                } else if rules["additionalProperties"] == .bool(false) {
                    return "\(place).\(name) is not an argument of this tool" + suggestion(for: name, in: properties.keys.sorted())
                } else if let additional = rules["additionalProperties"], case .object = additional {
                    if let problem = problem(with: member, against: additional, at: "\(place).\(name)") { return problem }
                }
            }
        default:
            break
        }
        return nil
    }

    private static func typeName(_ name: String, fits value: JSONValue) -> Bool {
        switch (name, value) {
        case ("string", .string), ("boolean", .bool), ("integer", .int), ("null", .null),
            ("array", .array), ("object", .object), ("number", .int), ("number", .double):
            return true
        case ("integer", .double(let number)):
            return number.rounded() == number && abs(number) < 9_007_199_254_740_992
        default:
            return false
        }
    }

    private static func article(_ type: String) -> String {
        switch type {
        case "integer", "array", "object": return "an \(type)"
        case "null": return "null"
        default: return "a \(type)"
        }
    }

    private static func suggestion(for name: String, in names: [String]) -> String {
        guard let closest = EditDistance.closest(to: name, in: names) else { return "; it takes " + names.joined(separator: ", ") }
        return "; did you mean '\(closest)'?"
    }
}

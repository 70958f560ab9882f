/// Reads JSON text into a `JSONValue` in one pass over its bytes.
///
/// It exists for speed. `JSONDecoder` spends most of its time in generic dictionary
/// decoding: one block's metadata took it 65–85 µs, so adding fifty blocks spent 3–4 ms
/// there. This reader plus the hand-written mappings (`RegistryEntry(fields:)`) take
/// about 14 µs. (On a whole 20 MB index the gain is smaller, 0.55 s to 0.49 s: building
/// the tree of values dominates.) Tests hold its results equal to `JSONDecoder`'s.
///
/// It accepts exactly RFC 8259 JSON in UTF-8. It is stricter than `JSONDecoder` in three
/// ways: a trailing comma and a duplicate key in an object are errors, and so is nesting
/// deeper than `maximumDepth`, so hostile input cannot exhaust the stack. One number
/// differs: past 2^53, one written with a fraction or an exponent stays a double, where
/// `JSONDecoder` reads an integer from its digits and drops any fraction.
enum JSONReader {
    /// Where and why the text is not JSON.
    struct Failure: Error, Equatable {
        var offset: Int
        var reason: String

        /// Whether the text was refused for nesting deeper than `maximumDepth`: it may be
        /// well-formed JSON, so callers say so rather than "not valid JSON".
        var isTooDeep: Bool { reason == JSONReader.tooDeep }

        /// What callers that say no more than "not valid JSON" say instead: the depth
        /// limit when that was the problem.
        var summary: String { isTooDeep ? "JSON " + reason : "not valid JSON" }
    }

    /// The reason for nesting deeper than `maximumDepth`.
    static let tooDeep = "nested deeper than \(maximumDepth) levels"

    static let maximumDepth = 64

    /// `depth` is how many objects and arrays enclose the text in a larger document, so a
    /// part read alone (as the mirror reads index entries) meets the same depth limit.
    static func parse(_ data: Data, depth: Int = 0) throws(Failure) -> JSONValue {
        let outcome: Result<JSONValue, Failure> = data.withUnsafeBytes { raw in
            var cursor = Cursor(bytes: raw.bindMemory(to: UInt8.self))
            do throws(Failure) {
                cursor.skipWhitespace()
                let value = try cursor.value(depth: depth)
                cursor.skipWhitespace()
                guard cursor.position == cursor.bytes.count else { throw cursor.failure("text after the value") }
                return .success(value)
            } catch {
                return .failure(error)
            }
        }
        return try outcome.get()
    }

    /// Reads `data` with a `Stream`, for a reader that knows the shape it expects and
    /// makes its own values as it goes, without a `JSONValue` for each. Throws where the
    /// text is not JSON or not what `read` asked for, and when text follows the value.
    static func stream<Value>(_ data: Data, _ read: (inout Stream) throws(Failure) -> Value) throws(Failure) -> Value {
        let outcome: Result<Value, Failure> = data.withUnsafeBytes { raw in
            var stream = Stream(bytes: raw.bindMemory(to: UInt8.self))
            do throws(Failure) {
                stream.skipWhitespace()
                let value = try read(&stream)
                try stream.end()
                return .success(value)
            } catch {
                return .failure(error)
            }
        }
        return try outcome.get()
    }

    /// One document read value by value, in the order it is written, with the lexical
    /// rules of `parse` (strings, numbers, literals). An array is read by
    /// `forEachElement`, an object by `forEachMember`, each handing the stream to a
    /// closure that reads the element or value.
    ///
    /// A `SplitIndex` range of 10,000 blocks holds some 80,000 small arrays: reading ten
    /// such ranges into trees and the trees into columns took three times as long as
    /// reading them straight into the columns (464 and 154 samples of `perf`).
    struct Stream {
        private var cursor: Cursor

        fileprivate init(bytes: UnsafeBufferPointer<UInt8>) { cursor = Cursor(bytes: bytes) }

        fileprivate mutating func skipWhitespace() { cursor.skipWhitespace() }

        /// Throws unless only whitespace is left.
        fileprivate mutating func end() throws(Failure) {
            cursor.skipWhitespace()
            guard cursor.position == cursor.bytes.count else { throw cursor.failure("text after the value") }
        }

        /// Reads an array, `element` reading each of its elements in turn.
        mutating func forEachElement(_ element: (inout Stream) throws(Failure) -> Void) throws(Failure) {
            try open("[")
            var more = first("]")
            while more {
                try element(&self)
                more = try next("]")
            }
        }

        /// Reads an object, `member` reading each value in turn, given its key.
        mutating func forEachMember(_ member: (inout Stream, _ key: String) throws(Failure) -> Void) throws(Failure) {
            try open("{")
            var more = first("}")
            while more {
                let name = try key()
                try member(&self, name)
                more = try next("}")
            }
        }

        /// Consumes `bracket` (`[` or `{`).
        private mutating func open(_ bracket: Unicode.Scalar) throws(Failure) {
            try cursor.expect(UInt8(ascii: bracket))
            cursor.skipWhitespace()
        }

        /// Whether the array or object just opened has an element, else consumes `close`.
        private mutating func first(_ close: Unicode.Scalar) -> Bool {
            guard cursor.current == UInt8(ascii: close) else { return true }
            cursor.position += 1
            return false
        }

        /// Whether another element follows the one just read, else consumes `close`.
        private mutating func next(_ close: Unicode.Scalar) throws(Failure) -> Bool {
            cursor.skipWhitespace()
            if cursor.current == UInt8(ascii: ",") {
                cursor.position += 1
                cursor.skipWhitespace()
                return true
            }
            try cursor.expect(UInt8(ascii: close))
            return false
        }

        /// An object's key and its colon.
        private mutating func key() throws(Failure) -> String {
            guard cursor.current == UInt8(ascii: "\"") else { throw cursor.failure("expected a key") }
            let key = try cursor.string()
            cursor.skipWhitespace()
            try cursor.expect(UInt8(ascii: ":"))
            cursor.skipWhitespace()
            return key
        }

        /// Whether the next value is `null`, which is then consumed.
        mutating func null() throws(Failure) -> Bool {
            guard cursor.current == UInt8(ascii: "n") else { return false }
            _ = try cursor.literal("null", .null)
            return true
        }

        /// Whether the next value is a string.
        var atString: Bool { cursor.current == UInt8(ascii: "\"") }

        mutating func string() throws(Failure) -> String {
            guard atString else { throw cursor.failure("expected a string") }
            return try cursor.string()
        }

        /// A string free of control characters (`JSONFields.plain`), the one kind a file we
        /// write holds.
        mutating func plainString() throws(Failure) -> String { try Self.plain(try string()) }

        /// The text, unless it holds a control character (`JSONFields.plain`'s rule).
        static func plain(_ text: String) throws(Failure) -> String {
            guard TerminalText.firstControl(in: text) == nil else { throw unexpected }
            return text
        }

        /// What a reader throws for JSON that is not the shape it reads, so its caller reads
        /// the text again through `JSONFields`, whose problems name the place at fault.
        static let unexpected = Failure(offset: 0, reason: "not the shape this reader takes")

        /// A number whose value is whole, as `parse` reads it.
        mutating func int() throws(Failure) -> Int {
            guard case .int(let value) = try cursor.number() else { throw cursor.failure("expected a whole number") }
            return value
        }
    }

    private struct Cursor {
        let bytes: UnsafeBufferPointer<UInt8>
        var position = 0
        /// The elements of the arrays being read, innermost last: each array is made from
        /// its stretch in one allocation of its final size, rather than grown element by
        /// element (a range of 1,000 blocks holds some 8,000 small arrays).
        var pending: [JSONValue] = []

        init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        func failure(_ reason: String) -> Failure { Failure(offset: position, reason: reason) }

        var current: UInt8? { position < bytes.count ? bytes[position] : nil }

        mutating func skipWhitespace() {
            while position < bytes.count {
                switch bytes[position] {
                case 0x20, 0x09, 0x0A, 0x0D: position += 1
                default: return
                }
            }
        }

        mutating func expect(_ byte: UInt8) throws(Failure) {
            guard current == byte else { throw failure("expected '\(Character(Unicode.Scalar(byte)))'") }
            position += 1
        }

        mutating func literal(_ text: StaticString, _ value: JSONValue) throws(Failure) -> JSONValue {
            let count = text.utf8CodeUnitCount
            guard position + count <= bytes.count,
                memcmp(bytes.baseAddress! + position, text.utf8Start, count) == 0
            else { throw failure("not a JSON value") }
            position += count
            return value
        }

        mutating func value(depth: Int) throws(Failure) -> JSONValue {
            guard let byte = current else { throw failure("unexpected end") }
            switch byte {
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "{"): return try object(depth: depth + 1)
            case UInt8(ascii: "["): return try array(depth: depth + 1)
            case UInt8(ascii: "t"): return try literal("true", .bool(true))
            case UInt8(ascii: "f"): return try literal("false", .bool(false))
            case UInt8(ascii: "n"): return try literal("null", .null)
            default: return try number()
            }
        }

        mutating func object(depth: Int) throws(Failure) -> JSONValue {
            guard depth <= JSONReader.maximumDepth else { throw failure(JSONReader.tooDeep) }
            position += 1
            var members: [String: JSONValue] = [:]
            skipWhitespace()
            if current == UInt8(ascii: "}") {
                position += 1
                return .object(members)
            }
            while true {
                skipWhitespace()
                guard current == UInt8(ascii: "\"") else { throw failure("expected a key") }
                let keyStart = position
                let key = try string()
                skipWhitespace()
                try expect(UInt8(ascii: ":"))
                skipWhitespace()
                let member = try value(depth: depth)
                guard members.updateValue(member, forKey: key) == nil else {
                    throw Failure(offset: keyStart, reason: "duplicate key '\(key)'")
                }
                skipWhitespace()
                if current == UInt8(ascii: ",") {
                    position += 1
                    continue
                }
                try expect(UInt8(ascii: "}"))
                return .object(members)
            }
        }

        mutating func array(depth: Int) throws(Failure) -> JSONValue {
            guard depth <= JSONReader.maximumDepth else { throw failure(JSONReader.tooDeep) }
            position += 1
            skipWhitespace()
            if current == UInt8(ascii: "]") {
                position += 1
                return .array([])
            }
            let start = pending.count
            while true {
                skipWhitespace()
                let element = try value(depth: depth)
                pending.append(element)
                skipWhitespace()
                if current == UInt8(ascii: ",") {
                    position += 1
                    continue
                }
                try expect(UInt8(ascii: "]"))
                let elements = Array(pending[start...])
                pending.removeSubrange(start...)
                return .array(elements)
            }
        }

        /// A string; the cursor is on its opening quote. Text without escapes is
        /// validated and copied in one step.
        mutating func string() throws(Failure) -> String {
            position += 1
            let start = position
            while position < bytes.count {
                let byte = bytes[position]
                if byte == UInt8(ascii: "\"") {
                    let text = try validated(UnsafeBufferPointer(rebasing: bytes[start..<position]), from: start)
                    position += 1
                    return text
                }
                if byte == UInt8(ascii: "\\") { break }
                guard byte >= 0x20 else { throw failure("a control character in a string") }
                position += 1
            }
            var buffer = Array(bytes[start..<position])
            while let byte = current {
                switch byte {
                case UInt8(ascii: "\""):
                    position += 1
                    return try buffer.withUnsafeBufferPointer { (text) throws(Failure) in try validated(text, from: start) }
                case UInt8(ascii: "\\"):
                    position += 1
                    try escape(into: &buffer)
                case 0..<0x20:
                    throw failure("a control character in a string")
                default:
                    buffer.append(byte)
                    position += 1
                }
            }
            throw failure("an unterminated string")
        }

        /// The text as a string, refusing bytes that are not UTF-8.
        func validated(_ text: UnsafeBufferPointer<UInt8>, from start: Int) throws(Failure) -> String {
            guard let string = String(strictUTF8: text) else {
                throw Failure(offset: start, reason: "a string that is not UTF-8")
            }
            return string
        }

        /// One escape; the cursor is just past its backslash.
        mutating func escape(into buffer: inout [UInt8]) throws(Failure) {
            guard let letter = current else { throw failure("an unterminated string") }
            position += 1
            switch letter {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): buffer.append(letter)
            case UInt8(ascii: "b"): buffer.append(0x08)
            case UInt8(ascii: "f"): buffer.append(0x0C)
            case UInt8(ascii: "n"): buffer.append(0x0A)
            case UInt8(ascii: "r"): buffer.append(0x0D)
            case UInt8(ascii: "t"): buffer.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hexQuad()
                if (0xD800..<0xDC00).contains(scalar) {
                    // A high surrogate must be followed by an escaped low one.
                    guard current == UInt8(ascii: "\\"), position + 1 < bytes.count, bytes[position + 1] == UInt8(ascii: "u")
                    else { throw failure("a lone surrogate") }
                    position += 2
                    let low = try hexQuad()
                    guard (0xDC00..<0xE000).contains(low) else { throw failure("a lone surrogate") }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                }
                guard let unicode = Unicode.Scalar(scalar) else { throw failure("a lone surrogate") }
                buffer.append(contentsOf: String(Character(unicode)).utf8)
            default:
                throw failure("an unknown escape")
            }
        }

        mutating func hexQuad() throws(Failure) -> UInt32 {
            guard position + 4 <= bytes.count else { throw failure("a short \\u escape") }
            var value: UInt32 = 0
            for _ in 0..<4 {
                let byte = bytes[position]
                let digit: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
                default: throw failure("a bad \\u escape")
                }
                value = value << 4 | UInt32(digit)
                position += 1
            }
            return value
        }

        /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`: an integer when its value
        /// is whole and fits, else a double.
        mutating func number() throws(Failure) -> JSONValue {
            let start = position
            if current == UInt8(ascii: "-") { position += 1 }
            guard let first = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else {
                throw Failure(offset: start, reason: "not a JSON value")
            }
            if first == UInt8(ascii: "0") { position += 1 } else { digits() }
            var integral = true
            if current == UInt8(ascii: ".") {
                position += 1
                guard digits() > 0 else { throw failure("a number without digits after its point") }
                integral = false
            }
            if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
                position += 1
                if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { position += 1 }
                guard digits() > 0 else { throw failure("a number without digits in its exponent") }
                integral = false
            }
            // Most numbers are small whole ones (a range's codes: 100,000 blocks give millions),
            // read straight from their digits; 18 of them cannot overflow.
            let negative = bytes[start] == UInt8(ascii: "-")
            let digitsStart = negative ? start + 1 : start
            if integral, position - digitsStart <= 18 {
                var value = 0
                for byte in bytes[digitsStart..<position] { value = value * 10 + Int(byte &- UInt8(ascii: "0")) }
                return .int(negative ? -value : value)
            }
            let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
            if integral, let value = Int(text) { return .int(value) }
            guard let value = Double(text), value.isFinite else { throw Failure(offset: start, reason: "a number out of range") }
            // As with `JSONDecoder`, a whole number is an integer however it is written (1.5e3),
            // but only below 2^53: past it doubles are 2 or more apart, so the rounded value can
            // be whole when the text is not (9922337203685477580.12e-1), or another integer.
            if value.magnitude < 0x1p53, value.rounded() == value, let whole = Int(exactly: value) { return .int(whole) }
            return .double(value)
        }

        @discardableResult
        mutating func digits() -> Int {
            let start = position
            while let byte = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { position += 1 }
            return position - start
        }
    }
}

/// Reads the fields of one JSON object into typed values, naming a missing or mistyped
/// field by its path (`blocks[3].title.en`), as `RegistryIndex.decode` reports it. It is
/// the one set of typed accessors over `JSONReader`'s values: every file format reads its
/// fields through it, each in one `init(fields:)` beside its one `jsonValue`.
///
/// Every string it hands out is free of control characters (`TerminalText.isControl`)
/// unless `plainStrings` is false: manifests and index entries come from registries, and
/// their titles, tags and paths are single lines that end up on terminals and in file
/// names. The project's own files (the lock, the config) take any string, as they always
/// have.
struct JSONFields {
    enum Problem: Error, Equatable {
        case missing(String)
        case wrongType(String)
        /// A string holding a control character, such as ESC or a line break.
        case controlCharacter(String, Unicode.Scalar)
    }

    let members: [String: JSONValue]
    let path: String
    /// Whether strings holding a control character are refused.
    let plainStrings: Bool

    init(_ value: JSONValue, path: String, plainStrings: Bool = true) throws(Problem) {
        guard case .object(let members) = value else { throw .wrongType(path) }
        self.members = members
        self.path = path
        self.plainStrings = plainStrings
    }

    func place(_ key: String) -> String { path.isEmpty ? key : path + "." + key }

    /// Whether the key is there with a value other than null.
    func has(_ key: String) -> Bool {
        switch members[key] {
        case nil, .null?: return false
        default: return true
        }
    }

    func value(_ key: String) throws(Problem) -> JSONValue {
        guard let value = members[key] else { throw .missing(place(key)) }
        return value
    }

    func string(_ key: String) throws(Problem) -> String {
        guard case .string(let text) = try value(key) else { throw .wrongType(place(key)) }
        return try checked(text, path: place(key))
    }

    /// The text, or the problem naming its first control character.
    static func plain(_ text: String, path: @autoclosure () -> String) throws(Problem) -> String {
        if let control = TerminalText.firstControl(in: text) { throw .controlCharacter(path(), control) }
        return text
    }

    /// The text, checked by `plain` when `plainStrings` is set.
    func checked(_ text: String, path: @autoclosure () -> String) throws(Problem) -> String {
        plainStrings ? try Self.plain(text, path: path()) : text
    }

    /// Nil when the key is absent or null, as `decodeIfPresent` has it.
    func optionalString(_ key: String) throws(Problem) -> String? {
        switch members[key] {
        case nil, .null?: return nil
        case .string(let text)?: return try checked(text, path: place(key))
        default: throw .wrongType(place(key))
        }
    }

    /// A SHA-256 as 64 hex digits (`SHA256.isDigest`); anything else is the wrong type.
    func digest(_ key: String) throws(Problem) -> String {
        let text = try string(key)
        guard SHA256.isDigest(text) else { throw .wrongType(place(key)) }
        return text
    }

    func int(_ key: String) throws(Problem) -> Int {
        guard case .int(let number) = try value(key) else { throw .wrongType(place(key)) }
        return number
    }

    /// Nil when the key is absent or null.
    func optionalInt(_ key: String) throws(Problem) -> Int? { has(key) ? try int(key) : nil }

    func bool(_ key: String) throws(Problem) -> Bool {
        guard case .bool(let flag) = try value(key) else { throw .wrongType(place(key)) }
        return flag
    }

    /// Nil when the key is absent or null.
    func optionalBool(_ key: String) throws(Problem) -> Bool? { has(key) ? try bool(key) : nil }

    func object(_ key: String) throws(Problem) -> JSONFields {
        try JSONFields(try value(key), path: place(key), plainStrings: plainStrings)
    }

    /// Nil when the key is absent or null.
    func optionalObject(_ key: String) throws(Problem) -> JSONFields? { has(key) ? try object(key) : nil }

    func array(_ key: String) throws(Problem) -> [JSONValue] {
        guard case .array(let elements) = try value(key) else { throw .wrongType(place(key)) }
        return elements
    }

    func strings(_ key: String) throws(Problem) -> [String] {
        try strings(try value(key), path: place(key))
    }

    /// Nil when the key is absent or null.
    func optionalArray(_ key: String) throws(Problem) -> [JSONValue]? { has(key) ? try array(key) : nil }

    func optionalStrings(_ key: String) throws(Problem) -> [String]? { has(key) ? try strings(key) : nil }

    /// An object whose values are all strings.
    func stringMap(_ key: String) throws(Problem) -> [String: String] {
        let map = try object(key)
        var result: [String: String] = [:]
        for (name, value) in map.members {
            guard case .string(let text) = value else { throw .wrongType(map.place(name)) }
            result[try checked(name, path: map.place(name))] = try checked(text, path: map.place(name))
        }
        return result
    }

    /// Nil when the key is absent or null.
    func optionalStringMap(_ key: String) throws(Problem) -> [String: String]? { has(key) ? try stringMap(key) : nil }

    /// An object whose values are all arrays of strings.
    func stringListMap(_ key: String) throws(Problem) -> [String: [String]] {
        let map = try object(key)
        var result: [String: [String]] = [:]
        for (name, value) in map.members {
            result[try checked(name, path: map.place(name))] = try strings(value, path: map.place(name))
        }
        return result
    }

    /// Each element of an array of objects, with its path.
    func objects(_ key: String) throws(Problem) -> [JSONFields] {
        var result: [JSONFields] = []
        for (position, element) in try array(key).enumerated() {
            result.append(try JSONFields(element, path: place(key) + "[\(position)]", plainStrings: plainStrings))
        }
        return result
    }

    func strings(_ value: JSONValue, path: String) throws(Problem) -> [String] {
        guard case .array(let elements) = value else { throw .wrongType(path) }
        var result: [String] = []
        result.reserveCapacity(elements.count)
        for (position, element) in elements.enumerated() {
            guard case .string(let text) = element else { throw .wrongType(path + "[\(position)]") }
            result.append(try checked(text, path: path + "[\(position)]"))
        }
        return result
    }

    /// Strings as a JSON array, the writing side of `strings`.
    static func jsonArray(_ strings: [String]) -> JSONValue { .array(strings.map { .string($0) }) }

    /// A string map as a JSON object, the writing side of `stringMap`.
    static func jsonObject(_ map: [String: String]) -> JSONValue { .object(map.mapValues { .string($0) }) }
}

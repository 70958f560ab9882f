/// A value of an OpenStep ASCII property list, the format of `project.pbxproj`, with the
/// byte range it was read from. `add` edits a project file by inserting lines at places
/// these ranges name, so everything it does not add stays byte for byte as Xcode wrote it.
public struct PropertyListNode: Sendable {
    public indirect enum Value: Sendable {
        case string(String)
        case data([UInt8])
        case array([PropertyListNode])
        /// Keys in file order (a project file never repeats one; the reader refuses it).
        case dictionary([(key: String, node: PropertyListNode)])
    }

    public var value: Value
    /// The bytes of the value in the text: a string's quotes included, a collection from
    /// its opening to just past its closing bracket.
    public var range: Range<Int>

    public var string: String? {
        if case .string(let text) = value { return text }
        return nil
    }

    public var array: [PropertyListNode]? {
        if case .array(let items) = value { return items }
        return nil
    }

    public var dictionary: [(key: String, node: PropertyListNode)]? {
        if case .dictionary(let entries) = value { return entries }
        return nil
    }

    public subscript(key: String) -> PropertyListNode? {
        dictionary?.first { $0.key == key }?.node
    }

    /// The strings of an array of strings, such as a group's `children`.
    public var strings: [String] { array?.compactMap(\.string) ?? [] }
}

/// Why a project file could not be read: where, and what was wrong there.
public struct PropertyListError: Error, Equatable, Sendable, CustomStringConvertible {
    public var offset: Int
    public var reason: String

    public var description: String { "\(reason) at byte \(offset)" }
}

/// Reads the OpenStep ASCII property-list format: quoted strings with escapes, unquoted
/// strings, `/* */` and `//` comments, dictionaries, arrays and `<hex data>`. Bounded in
/// size and depth so a hostile file costs a clear error, never a crash or a stall.
public enum PropertyListReader {
    /// Larger than any real project file (big apps have a few megabytes).
    public static let maximumBytes = 64 * 1024 * 1024
    /// A project file nests about six deep.
    public static let maximumDepth = 64

    public static func read(_ bytes: [UInt8]) throws(PropertyListError) -> PropertyListNode {
        guard bytes.count <= maximumBytes else {
            throw PropertyListError(offset: 0, reason: "the file is over \(maximumBytes / 1024 / 1024) MB")
        }
        var parser = Parser(bytes: bytes)
        // The UTF-8 marker line `// !$*UTF8*$!` is a comment like any other.
        let root = try parser.value(depth: 0)
        parser.skipSpace()
        guard parser.position == bytes.count else { throw parser.failure("text after the end of the property list") }
        return root
    }

    struct Parser {
        let bytes: [UInt8]
        var position = 0

        init(bytes: [UInt8]) { self.bytes = bytes }

        func failure(_ reason: String) -> PropertyListError { PropertyListError(offset: position, reason: reason) }

        var current: UInt8? { position < bytes.count ? bytes[position] : nil }

        mutating func skipSpace() {
            while let byte = current {
                if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
                    position += 1
                } else if byte == UInt8(ascii: "/"), position + 1 < bytes.count, bytes[position + 1] == UInt8(ascii: "/") {
                    while let next = current, next != 0x0A { position += 1 }
                } else if byte == UInt8(ascii: "/"), position + 1 < bytes.count, bytes[position + 1] == UInt8(ascii: "*") {
                    position += 2
                    while position + 1 < bytes.count, !(bytes[position] == UInt8(ascii: "*") && bytes[position + 1] == UInt8(ascii: "/")) {
                        position += 1
                    }
                    position = min(position + 2, bytes.count)
                } else {
                    return
                }
            }
        }

        mutating func value(depth: Int) throws(PropertyListError) -> PropertyListNode {
            guard depth <= PropertyListReader.maximumDepth else {
                throw failure("the property list is nested deeper than \(PropertyListReader.maximumDepth) levels")
            }
            skipSpace()
            let start = position
            guard let byte = current else { throw failure("the file ends where a value should be") }
            switch byte {
            case UInt8(ascii: "{"): return try dictionary(depth: depth, start: start)
            case UInt8(ascii: "("): return try array(depth: depth, start: start)
            case UInt8(ascii: "<"): return try data(start: start)
            case UInt8(ascii: "\""), UInt8(ascii: "'"): return PropertyListNode(value: .string(try quoted()), range: start..<position)
            default:
                let text = try unquoted()
                return PropertyListNode(value: .string(text), range: start..<position)
            }
        }

        mutating func dictionary(depth: Int, start: Int) throws(PropertyListError) -> PropertyListNode {
            position += 1
            var entries: [(key: String, node: PropertyListNode)] = []
            var keys = Set<String>()
            while true {
                skipSpace()
                guard let byte = current else { throw failure("a dictionary is not closed") }
                if byte == UInt8(ascii: "}") {
                    position += 1
                    return PropertyListNode(value: .dictionary(entries), range: start..<position)
                }
                let key = try value(depth: depth + 1)
                guard let name = key.string else { throw failure("a dictionary key is not a string") }
                skipSpace()
                guard current == UInt8(ascii: "=") else { throw failure("'=' is missing after the key \(name)") }
                position += 1
                let node = try value(depth: depth + 1)
                skipSpace()
                guard current == UInt8(ascii: ";") else { throw failure("';' is missing after the value of \(name)") }
                position += 1
                guard keys.insert(name).inserted else { throw failure("the key \(name) appears twice in one dictionary") }
                entries.append((name, node))
            }
        }

        mutating func array(depth: Int, start: Int) throws(PropertyListError) -> PropertyListNode {
            position += 1
            var items: [PropertyListNode] = []
            while true {
                skipSpace()
                guard let byte = current else { throw failure("an array is not closed") }
                if byte == UInt8(ascii: ")") {
                    position += 1
                    return PropertyListNode(value: .array(items), range: start..<position)
                }
                items.append(try value(depth: depth + 1))
                skipSpace()
                if current == UInt8(ascii: ",") {
                    position += 1
                } else if current != UInt8(ascii: ")") {
                    throw failure("',' or ')' is missing in an array")
                }
            }
        }

        mutating func data(start: Int) throws(PropertyListError) -> PropertyListNode {
            position += 1
            var digits: [UInt8] = []
            while let byte = current, byte != UInt8(ascii: ">") {
                position += 1
                if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { continue }
                guard let digit = Self.hexValue(byte) else { throw failure("a data value holds a byte that is not hexadecimal") }
                digits.append(digit)
            }
            guard current == UInt8(ascii: ">") else { throw failure("a data value is not closed") }
            position += 1
            guard digits.count % 2 == 0 else { throw failure("a data value has an odd number of hex digits") }
            let data = stride(from: 0, to: digits.count, by: 2).map { digits[$0] << 4 | digits[$0 + 1] }
            return PropertyListNode(value: .data(data), range: start..<position)
        }

        static func hexValue(_ byte: UInt8) -> UInt8? {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
            default: return nil
            }
        }

        /// The characters an unquoted string may hold, as Xcode writes them.
        static func isUnquoted(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): return true
            default: return "_$+/:.-".utf8.contains(byte)
            }
        }

        mutating func unquoted() throws(PropertyListError) -> String {
            let start = position
            while let byte = current, Self.isUnquoted(byte) {
                // `//` and `/*` start a comment, even right after a value.
                if byte == UInt8(ascii: "/"), position + 1 < bytes.count, bytes[position + 1] == UInt8(ascii: "/") || bytes[position + 1] == UInt8(ascii: "*") {
                    break
                }
                position += 1
            }
            guard position > start else { throw failure("an unexpected character") }
            return String(decoding: bytes[start..<position], as: UTF8.self)
        }

        mutating func quoted() throws(PropertyListError) -> String {
            let quote = bytes[position]
            position += 1
            var out: [UInt8] = []
            while let byte = current {
                position += 1
                if byte == quote {
                    guard let text = String(strictUTF8: out) else { throw failure("a string that is not UTF-8") }
                    return text
                }
                guard byte == UInt8(ascii: "\\") else {
                    out.append(byte)
                    continue
                }
                guard let escaped = current else { break }
                position += 1
                switch escaped {
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "a"): out.append(0x07)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "v"): out.append(0x0B)
                case UInt8(ascii: "U"), UInt8(ascii: "u"):
                    var value: UInt32 = 0
                    for _ in 0..<4 {
                        guard let byte = current, let digit = Self.hexValue(byte) else { throw failure("a \\U escape needs four hex digits") }
                        value = value << 4 | UInt32(digit)
                        position += 1
                    }
                    guard let scalar = Unicode.Scalar(value) else { throw failure("a \\U escape names no character") }
                    out += Array(String(scalar).utf8)
                case UInt8(ascii: "0")...UInt8(ascii: "7"):
                    var value = UInt32(escaped - UInt8(ascii: "0"))
                    for _ in 0..<2 {
                        guard let byte = current, (UInt8(ascii: "0")...UInt8(ascii: "7")).contains(byte) else { break }
                        value = value << 3 | UInt32(byte - UInt8(ascii: "0"))
                        position += 1
                    }
                    guard value < 0x100 else { throw failure("an octal escape over \\377") }
                    out.append(UInt8(value))
                default: out.append(escaped)
                }
            }
            throw failure("a string is not closed")
        }
    }
}

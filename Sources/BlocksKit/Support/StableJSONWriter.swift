/// The one JSON writer: a `JSONValue` in `StableJSON`'s layout, byte for byte what
/// Foundation's encoder with sorted keys, pretty printing and unescaped slashes gives, in
/// a fraction of its time. A registry build writes 10,000 manifests and metadata files,
/// and the generic encoder's containers were a tenth of that build. Tests hold the two
/// outputs equal.
///
/// The layout: two spaces per level, `"key" : value`, keys in the order of their UTF-8
/// bytes, an empty array or object as an opening line, an empty line and a closing line,
/// and only `"`, `\`, and control characters escaped.
///
/// `line` writes the same value on one line, `"key":value` with no spaces: the framing of
/// protocols that carry one message per line, such as MCP over stdio. Strings escape
/// every line break, so the only newline is the one a caller adds after the message.
enum StableJSONWriter {
    static func write(_ value: JSONValue) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(1024)
        write(value, indent: 0, into: &output)
        return output
    }

    static func line(_ value: JSONValue) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(1024)
        write(value, indent: nil, into: &output)
        return output
    }

    /// One member of a top-level object, `"key" : value`, as `write` lays it out there.
    fileprivate static func topLevelMember(_ key: String, _ value: JSONValue) -> [UInt8] {
        var output: [UInt8] = []
        writeString(key, into: &output)
        output.append(contentsOf: " : ".utf8)
        write(value, indent: 2, into: &output)
        return output
    }

    /// The one rule for writing a double, which the site's script JSON shares
    /// (`HTMLEscaping`): as Foundation's encoder writes it, a whole number without ".0".
    static func number(_ number: Double) -> String {
        var text = "\(number)"
        if text.hasSuffix(".0") { text.removeLast(2) }
        return text
    }

    /// `indent` nil writes the compact one-line form.
    private static func write(_ value: JSONValue, indent: Int?, into output: inout [UInt8]) {
        switch value {
        case .string(let text): writeString(text, into: &output)
        case .int(let number): output.append(contentsOf: String(number).utf8)
        case .double(let number): output.append(contentsOf: Self.number(number).utf8)
        case .bool(let flag): output.append(contentsOf: (flag ? "true" : "false").utf8)
        case .null: output.append(contentsOf: "null".utf8)
        case .array(let elements):
            writeContainer(open: UInt8(ascii: "["), close: UInt8(ascii: "]"), count: elements.count, indent: indent, into: &output) {
                position, output in write(elements[position], indent: indent.map { $0 + 2 }, into: &output)
            }
        case .object(let members):
            let sorted = members.sorted { keyPrecedes($0.key, $1.key) }
            writeContainer(open: UInt8(ascii: "{"), close: UInt8(ascii: "}"), count: sorted.count, indent: indent, into: &output) {
                position, output in
                writeString(sorted[position].key, into: &output)
                output.append(contentsOf: (indent == nil ? ":" : " : ").utf8)
                write(sorted[position].value, indent: indent.map { $0 + 2 }, into: &output)
            }
        }
    }

    /// The order of keys: by their UTF-8 bytes. Compared on the strings' contiguous bytes,
    /// where `utf8.lexicographicallyPrecedes` stepped through two views a byte at a time:
    /// in a profile of a first search of 100,000 blocks, that was about a quarter of
    /// writing each block's manifest as JSON.
    static func keyPrecedes(_ first: String, _ second: String) -> Bool {
        var (first, second) = (first, second)
        return first.withUTF8 { one in
            second.withUTF8 { other in
                for position in 0..<min(one.count, other.count) where one[position] != other[position] {
                    return one[position] < other[position]
                }
                return one.count < other.count
            }
        }
    }

    private static func writeContainer(
        open: UInt8, close: UInt8, count: Int, indent: Int?, into output: inout [UInt8],
        element: (Int, inout [UInt8]) -> Void
    ) {
        guard let indent else {
            output.append(open)
            for position in 0..<count {
                if position > 0 { output.append(UInt8(ascii: ",")) }
                element(position, &output)
            }
            output.append(close)
            return
        }
        let newline = UInt8(ascii: "\n")
        let space = UInt8(ascii: " ")
        output.append(open)
        output.append(newline)
        if count == 0 { output.append(newline) }
        for position in 0..<count {
            if position > 0 {
                output.append(UInt8(ascii: ","))
                output.append(newline)
            }
            output.append(contentsOf: repeatElement(space, count: indent + 2))
            element(position, &output)
        }
        if count > 0 { output.append(newline) }
        output.append(contentsOf: repeatElement(space, count: indent))
        output.append(close)
    }

    /// Runs of bytes that need no escape are copied whole: most strings are one run.
    private static func writeString(_ text: String, into output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { bytes in
            var runStart = 0
            for index in 0..<bytes.count {
                let byte = bytes[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                writeEscape(byte, into: &output)
                runStart = index + 1
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...]))
        }
        output.append(UInt8(ascii: "\""))
    }

    private static func writeEscape(_ byte: UInt8, into output: inout [UInt8]) {
        switch byte {
        case UInt8(ascii: "\""): output.append(contentsOf: #"\""#.utf8)
        case UInt8(ascii: "\\"): output.append(contentsOf: #"\\"#.utf8)
        case 0x0A: output.append(contentsOf: #"\n"#.utf8)
        case 0x0D: output.append(contentsOf: #"\r"#.utf8)
        case 0x09: output.append(contentsOf: #"\t"#.utf8)
        case 0x08: output.append(contentsOf: #"\b"#.utf8)
        case 0x0C: output.append(contentsOf: #"\f"#.utf8)
        default:
            let digits = Array("0123456789abcdef".utf8)
            output.append(contentsOf: #"\u00"#.utf8)
            output.append(digits[Int(byte >> 4)])
            output.append(digits[Int(byte & 0x0F)])
        }
    }
}

extension StableJSONWriter {
    /// `write` of a top-level object one of whose members is an array, in three parts: all
    /// before the array's first element, each element, and all after the last. A long
    /// array is then printed as its elements are made (`CommandContext.printJSON(_:array:produce:)`).
    struct ArrayParts {
        let head: [UInt8]
        let tail: [UInt8]

        init(_ members: [String: JSONValue], array key: String) {
            let keys = (Array(members.keys) + [key]).sorted(by: StableJSONWriter.keyPrecedes)
            let position = keys.firstIndex(of: key)!
            func member(_ key: String) -> [UInt8] { [UInt8]("  ".utf8) + StableJSONWriter.topLevelMember(key, members[key]!) }
            var head = [UInt8]("{\n".utf8)
            for before in keys[..<position] { head += member(before) + [UInt8](",\n".utf8) }
            head += [UInt8]("  ".utf8)
            StableJSONWriter.writeString(key, into: &head)
            head += [UInt8](" : [\n".utf8)
            var tail = [UInt8]("\n  ]".utf8)
            for after in keys[(position + 1)...] { tail += [UInt8](",\n".utf8) + member(after) }
            tail += [UInt8]("\n}".utf8)
            self.head = head
            self.tail = tail
        }

        /// An element as `element` wrote it, after the one before it if `first` is false.
        func append(encoded element: [UInt8], first: Bool, to output: inout [UInt8]) {
            if !first { output += [UInt8](",\n".utf8) }
            output += element
        }

        /// An element's bytes in the array, without the comma before it.
        static func element(_ value: JSONValue) -> [UInt8] {
            var output = [UInt8]("    ".utf8)
            StableJSONWriter.write(value, indent: 4, into: &output)
            return output
        }
    }
}

/// A top-level object's members, each written once in `StableJSON`'s layout, from which
/// documents that share members are put together. A build writes three such documents
/// for every block: its manifest (`block.json` in the archives), its index entry (the
/// manifest's members and four more) and its metadata file (the entry's and `versions`).
/// Written whole, each built and wrote the manifest's members again, an eighth of a
/// build's time for 10,000 blocks. `data` is byte for byte `StableJSON.data` of the
/// merged object; tests hold the two equal.
struct StableJSONMembers: Sendable {
    /// Sorted by the UTF-8 of their keys, as `StableJSONWriter` orders keys.
    private var members: [(key: String, bytes: [UInt8])]

    init(_ object: [String: JSONValue]) {
        members = object.keys.sorted(by: StableJSONWriter.keyPrecedes).map { key in
            (key, StableJSONWriter.topLevelMember(key, object[key]!))
        }
    }

    /// These members and `object`'s, whose value wins where a key is in both.
    func adding(_ object: [String: JSONValue]) -> StableJSONMembers {
        var merged = self
        merged.members = members.filter { object[$0.key] == nil } + StableJSONMembers(object).members
        merged.members.sort { StableJSONWriter.keyPrecedes($0.key, $1.key) }
        return merged
    }

    /// The object as a document, ending in a newline like `StableJSON.data`.
    var data: Data {
        var output: [UInt8] = []
        output.reserveCapacity(members.reduce(8) { $0 + $1.bytes.count + 4 })
        output.append(contentsOf: "{\n".utf8)
        if members.isEmpty { output.append(UInt8(ascii: "\n")) }
        for (position, member) in members.enumerated() {
            if position > 0 { output.append(contentsOf: ",\n".utf8) }
            output.append(contentsOf: "  ".utf8)
            output.append(contentsOf: member.bytes)
        }
        output.append(contentsOf: (members.isEmpty ? "}\n" : "\n}\n").utf8)
        return Data(output)
    }
}

/// Escaping for text the site writes into HTML, and the compact JSON it embeds in a page.
///
/// Why one place: every string on the site comes from a catalog, which anyone may write,
/// so a title such as `</h1><script>` must reach the page as text, never as markup. Text
/// and attribute values escape `&`, `<`, `>`, `"` and `'`; JSON inside `<script>` escapes
/// `<`, `>` and `&` as `\u003c` and friends, so no `</script>` or `<!--` can end it early.
enum HTMLEscaping {
    /// Text or an attribute value (quoted with `"`), safe in either place.
    static func escape(_ text: String) -> String {
        var text = text
        let escaped = text.withUTF8 { bytes -> String? in
            guard bytes.contains(where: { $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 || $0 == 0x27 }) else { return nil }
            var out: [UInt8] = []
            out.reserveCapacity(bytes.count + 16)
            escape(bytes, into: &out)
            return String(decoding: out, as: UTF8.self)
        }
        return escaped ?? text
    }

    /// `escape` on UTF-8 bytes, appended to `out`: `&`, `<`, `>`, `"` and `'` become
    /// entities and every other byte is copied, runs of them at once. No byte of a
    /// multi-byte character is ASCII, so no character is ever cut.
    static func escape(_ bytes: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) {
        var plainStart = 0
        for index in 0..<bytes.count {
            let entity: StaticString
            switch bytes[index] {
            case UInt8(ascii: "&"): entity = "&amp;"
            case UInt8(ascii: "<"): entity = "&lt;"
            case UInt8(ascii: ">"): entity = "&gt;"
            case UInt8(ascii: "\""): entity = "&quot;"
            case UInt8(ascii: "'"): entity = "&#39;"
            default: continue
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[plainStart..<index]))
            out.append(contentsOf: UnsafeBufferPointer(start: entity.utf8Start, count: entity.utf8CodeUnitCount))
            plainStart = index + 1
        }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[plainStart..<bytes.count]))
    }

    /// A `JSONValue` as compact JSON (object keys sorted, so the bytes are stable). With
    /// `inline` it may sit inside a `<script>` element of a page; without, it is for a
    /// script file of its own, where `<` needs no escape (and the cards' HTML would grow by
    /// a third with one).
    static func scriptJSON(_ value: JSONValue, inline: Bool = true) -> String {
        String(decoding: scriptJSONBytes(value, inline: inline), as: UTF8.self)
    }

    /// `scriptJSON` as UTF-8 bytes. Written on bytes, and a long array's elements on every
    /// core (`parallelArrayCount`): the search data of 10,000 blocks is 12 MB of JSON, and
    /// writing it was the longest step of `build --site` that ran on one core.
    static func scriptJSONBytes(_ value: JSONValue, inline: Bool = true) -> [UInt8] {
        var out: [UInt8] = []
        write(value, inline: inline, into: &out)
        return out
    }

    /// Arrays at least this long are written in slices on every core, then joined.
    static let parallelArrayCount = 2048

    /// A JSON array of `count` elements, each made by `element` and written on every core,
    /// in slices: what an element allocates is made and freed on the core that writes it.
    static func scriptJSONArray(count: Int, inline: Bool = true, _ element: @escaping @Sendable (Int) -> JSONValue) -> [UInt8] {
        let slice = 256
        let pieces = ConcurrentMap.map(Array(stride(from: 0, to: count, by: slice))) { start in
            var piece: [UInt8] = []
            for position in start..<min(start + slice, count) {
                if position > start { piece.append(UInt8(ascii: ",")) }
                write(element(position), inline: inline, into: &piece)
            }
            return piece
        }
        var out: [UInt8] = []
        out.reserveCapacity(pieces.reduce(2 + pieces.count) { $0 + $1.count })
        out.append(UInt8(ascii: "["))
        for (position, piece) in pieces.enumerated() {
            if position > 0 { out.append(UInt8(ascii: ",")) }
            out.append(contentsOf: piece)
        }
        out.append(UInt8(ascii: "]"))
        return out
    }

    /// A JSON object of members already written as JSON (`scriptJSONBytes`,
    /// `scriptJSONArray`), with its keys sorted as every object here is.
    static func scriptJSONObject(_ members: [String: [UInt8]], inline: Bool = true) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(members.values.reduce(2) { $0 + $1.count + 16 })
        writeObject(members, inline: inline, into: &out) { value, out in out.append(contentsOf: value) }
        return out
    }

    private static func writeObject<Member>(
        _ members: [String: Member], inline: Bool, into out: inout [UInt8], _ writeMember: (Member, inout [UInt8]) -> Void
    ) {
        out.append(UInt8(ascii: "{"))
        for (position, key) in members.keys.sorted(by: StableJSONWriter.keyPrecedes).enumerated() {
            if position > 0 { out.append(UInt8(ascii: ",")) }
            writeString(key, inline: inline, into: &out)
            out.append(UInt8(ascii: ":"))
            writeMember(members[key]!, &out)
        }
        out.append(UInt8(ascii: "}"))
    }

    private static func write(_ value: JSONValue, inline: Bool, into out: inout [UInt8]) {
        switch value {
        case .string(let text): writeString(text, inline: inline, into: &out)
        case .int(let number): out.append(contentsOf: String(number).utf8)
        case .double(let number): out.append(contentsOf: StableJSONWriter.number(number).utf8)
        case .bool(let flag): out.append(contentsOf: (flag ? "true" : "false").utf8)
        case .null: out.append(contentsOf: "null".utf8)
        case .array(let elements) where elements.count >= parallelArrayCount:
            out.append(contentsOf: scriptJSONArray(count: elements.count, inline: inline) { elements[$0] })
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (position, element) in elements.enumerated() {
                if position > 0 { out.append(UInt8(ascii: ",")) }
                write(element, inline: inline, into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            writeObject(members, inline: inline, into: &out) { value, out in write(value, inline: inline, into: &out) }
        }
    }

    /// A JSON string, written byte by byte with no Unicode lookup; runs of bytes that need
    /// no escape are copied at once.
    private static func writeString(_ text: String, inline: Bool, into out: inout [UInt8]) {
        var text = text
        text.withUTF8 { utf8 in
            out.reserveCapacity(out.count + utf8.count + 2)
            out.append(UInt8(ascii: "\""))
            var plainStart = 0
            var index = 0
            while index < utf8.count {
                let byte = utf8[index]
                var escaped: StaticString?
                var length = 1
                switch byte {
                case UInt8(ascii: "\""): escaped = "\\\""
                case UInt8(ascii: "\\"): escaped = "\\\\"
                case 0x0A: escaped = "\\n"
                case 0x0D: escaped = "\\r"
                case 0x09: escaped = "\\t"
                case UInt8(ascii: "<") where inline: escaped = "\\u003c"
                case UInt8(ascii: ">") where inline: escaped = "\\u003e"
                case UInt8(ascii: "&") where inline: escaped = "\\u0026"
                case 0..<0x20: break
                // U+2028 and U+2029 (E2 80 A8/A9) end a line in old script parsers.
                case 0xE2 where index + 2 < utf8.count && utf8[index + 1] == 0x80 && (utf8[index + 2] == 0xA8 || utf8[index + 2] == 0xA9):
                    escaped = utf8[index + 2] == 0xA8 ? "\\u2028" : "\\u2029"
                    length = 3
                default:
                    index += 1
                    continue
                }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[plainStart..<index]))
                if let escaped {
                    out.append(contentsOf: UnsafeBufferPointer(start: escaped.utf8Start, count: escaped.utf8CodeUnitCount))
                } else {
                    let hex = String(byte, radix: 16)
                    out.append(contentsOf: ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).utf8)
                }
                index += length
                plainStart = index
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[plainStart..<utf8.count]))
            out.append(UInt8(ascii: "\""))
        }
    }
}

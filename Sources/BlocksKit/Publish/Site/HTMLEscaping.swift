/// Escaping for text the site writes into HTML, and the compact JSON it embeds in a page.
///
/// Why one place: every string on the site comes from a catalog, which anyone may write,
/// so a title such as `</h1><script>` must reach the page as text, never as markup. Text
/// and attribute values escape `&`, `<`, `>`, `"` and `'`; JSON inside `<script>` escapes
/// `<`, `>` and `&` as `\u003c` and friends, so no `</script>` or `<!--` can end it early.
enum HTMLEscaping {
    /// Text or an attribute value (quoted with `"`), safe in either place.
    static func escape(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 || $0 == 0x27 }) else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 16)
        for character in text.unicodeScalars {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(character)
            }
        }
        return out
    }

    /// A `JSONValue` as compact JSON (object keys sorted, so the bytes are stable). With
    /// `inline` it may sit inside a `<script>` element of a page; without, it is for a
    /// script file of its own, where `<` needs no escape (and the cards' HTML would grow by
    /// a third with one).
    static func scriptJSON(_ value: JSONValue, inline: Bool = true) -> String {
        var out = ""
        write(value, inline: inline, into: &out)
        return out
    }

    private static func write(_ value: JSONValue, inline: Bool, into out: inout String) {
        switch value {
        case .string(let text): writeString(text, inline: inline, into: &out)
        case .int(let number): out += String(number)
        case .double(let number):
            var text = "\(number)"
            if text.hasSuffix(".0") { text.removeLast(2) }
            out += text
        case .bool(let flag): out += flag ? "true" : "false"
        case .null: out += "null"
        case .array(let elements):
            out += "["
            for (position, element) in elements.enumerated() {
                if position > 0 { out += "," }
                write(element, inline: inline, into: &out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (position, key) in members.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }).enumerated() {
                if position > 0 { out += "," }
                writeString(key, inline: inline, into: &out)
                out += ":"
                write(members[key]!, inline: inline, into: &out)
            }
            out += "}"
        }
    }

    /// A JSON string, written byte by byte with no Unicode lookup.
    private static func writeString(_ text: String, inline: Bool, into out: inout String) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count + 2)
        bytes.append(UInt8(ascii: "\""))
        let utf8 = Array(text.utf8)
        var index = 0
        while index < utf8.count {
            let byte = utf8[index]
            var escaped: String?
            switch byte {
            case UInt8(ascii: "\""): escaped = "\\\""
            case UInt8(ascii: "\\"): escaped = "\\\\"
            case 0x0A: escaped = "\\n"
            case 0x0D: escaped = "\\r"
            case 0x09: escaped = "\\t"
            case UInt8(ascii: "<") where inline: escaped = "\\u003c"
            case UInt8(ascii: ">") where inline: escaped = "\\u003e"
            case UInt8(ascii: "&") where inline: escaped = "\\u0026"
            case 0..<0x20:
                let hex = String(byte, radix: 16)
                escaped = "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            // U+2028 and U+2029 (E2 80 A8/A9) end a line in old script parsers.
            case 0xE2 where index + 2 < utf8.count && utf8[index + 1] == 0x80 && (utf8[index + 2] == 0xA8 || utf8[index + 2] == 0xA9):
                escaped = utf8[index + 2] == 0xA8 ? "\\u2028" : "\\u2029"
                index += 2
            default: break
            }
            if let escaped { bytes.append(contentsOf: escaped.utf8) } else { bytes.append(byte) }
            index += 1
        }
        bytes.append(UInt8(ascii: "\""))
        out += String(decoding: bytes, as: UTF8.self)
    }
}

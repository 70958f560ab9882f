#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

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

    /// A `JSONValue` as compact JSON (object keys sorted, so the bytes are stable) that may
    /// sit inside `<script type="application/json">`.
    static func scriptJSON(_ value: JSONValue) -> String {
        var out = ""
        write(value, into: &out)
        return out
    }

    private static func write(_ value: JSONValue, into out: inout String) {
        switch value {
        case .string(let text): writeString(text, into: &out)
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
                write(element, into: &out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (position, key) in members.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }).enumerated() {
                if position > 0 { out += "," }
                writeString(key, into: &out)
                out += ":"
                write(members[key]!, into: &out)
            }
            out += "}"
        }
    }

    private static func writeString(_ text: String, into out: inout String) {
        out += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "<": out += "\\u003c"
            case ">": out += "\\u003e"
            case "&": out += "\\u0026"
            // Line and paragraph separators end a line in old script parsers.
            case "\u{2028}": out += "\\u2028"
            case "\u{2029}": out += "\\u2029"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }
}

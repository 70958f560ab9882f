/// Text from elsewhere (a registry's index and metadata, archive names, URLs, a server's
/// error body) made safe to print on a terminal.
///
/// A terminal obeys control characters: `ESC ] 0 ; … BEL` retitles the window, `ESC [ 2 J`
/// clears it, a lone carriage return lets a line overwrite what came before it. So every
/// control character (C0, DEL and C1) in such text is printed as visible `\u{1B}`-style
/// text instead. This is the one definition of a control character: the manifest reader,
/// `lint` and the archive reader refuse the same ones.
public enum TerminalText {
    /// C0 (U+0000–U+001F), DEL (U+007F) and C1 (U+0080–U+009F).
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// The first control character in the text, if any.
    public static func firstControl(in text: String) -> Unicode.Scalar? {
        // The bytes first: almost all text has none, and then no scalar is decoded.
        guard mayHoldControl(text) else { return nil }
        return text.unicodeScalars.first(where: isControl)
    }

    /// The text for one line of output: every control character, line breaks and tabs
    /// included, becomes `\u{…}`.
    public static func escaped(_ text: String) -> String {
        escape(text, keepingLayout: false)
    }

    /// The same for text of several lines (messages, source code): line feeds, tabs and
    /// the carriage return of a CRLF stay, every other control character is escaped.
    public static func escapedKeepingLines(_ text: String) -> String {
        escape(text, keepingLayout: true)
    }

    /// How a control character is shown: `\u{1B}`.
    public static func visible(_ scalar: Unicode.Scalar) -> String {
        "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
    }

    private static func escape(_ text: String, keepingLayout: Bool) -> String {
        guard mayHoldControl(text) else { return text }
        var result = String.UnicodeScalarView()
        let scalars = Array(text.unicodeScalars)
        for (position, scalar) in scalars.enumerated() {
            let keep: Bool
            switch scalar {
            case "\n", "\t": keep = keepingLayout
            case "\r": keep = keepingLayout && position + 1 < scalars.count && scalars[position + 1] == "\n"
            default: keep = !isControl(scalar)
            }
            if keep { result.append(scalar) } else { result.append(contentsOf: visible(scalar).unicodeScalars) }
        }
        return String(result)
    }

    /// False when no byte of the UTF-8 can start a control character: C0 and DEL are
    /// single bytes below 0x20 or 0x7F, C1 is 0xC2 followed by 0x80–0x9F.
    /// It runs on every string of every manifest read, so it reads the UTF-8 in place
    /// (`withUTF8` copies nothing for a native string) rather than through the iterator.
    private static func mayHoldControl(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            var previous: UInt8 = 0
            for byte in bytes {
                if byte < 0x20 || byte == 0x7F || (previous == 0xC2 && byte <= 0x9F && byte >= 0x80) { return true }
                previous = byte
            }
            return false
        }
    }
}

/// Fills text into lines of at most a given width, breaking only between words.
///
/// Help, the API table of `info` and anything else that must fit a terminal share this one
/// function, so they all break the same way. A word longer than the width is never cut: it
/// gets a line of its own and runs over, which a terminal shows better than half a word.
public enum TextWrap {
    /// `text`'s words (split at spaces) in lines of at most `width` characters. With
    /// `cuttingLongWords`, a word longer than the width is cut into pieces that fit: for
    /// columns of code (`[AdaptiveTabGroup<Value>]`) in a table that has no other way to fit.
    public static func lines(_ text: String, width: Int, cuttingLongWords: Bool = false) -> [String] {
        var words = text.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        if cuttingLongWords, width > 0 {
            words = words.flatMap { word in
                word.count <= width
                    ? [word]
                    : stride(from: 0, to: word.count, by: width).map {
                        String(word.dropFirst($0).prefix(width))
                    }
            }
        }
        return lines(words: words, width: width)
    }

    /// The given units, joined by single spaces, in lines of at most `width` characters
    /// (the first line `firstWidth`, when given). A unit may hold spaces of its own
    /// (`[--format <format>]`) and is never broken.
    public static func lines(words: [String], width: Int, firstWidth: Int? = nil) -> [String] {
        var lines: [String] = []
        var current = ""
        var currentCount = 0
        for word in words {
            let count = word.count
            let limit = lines.isEmpty ? (firstWidth ?? width) : width
            if currentCount > 0 && currentCount + 1 + count > limit {
                lines.append(current)
                current = ""
                currentCount = 0
            }
            if currentCount > 0 {
                current += " "
                currentCount += 1
            }
            current += word
            currentCount += count
        }
        if currentCount > 0 || lines.isEmpty { lines.append(current) }
        return lines
    }

    /// `text` wrapped to `width` with its first line after `firstPrefix` and the others
    /// after `indent` spaces: a hanging indent.
    public static func hanging(_ text: String, firstPrefix: String, indent: Int, width: Int) -> String {
        let words = text.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        let wrapped = lines(words: words, width: max(1, width - indent), firstWidth: max(1, width - firstPrefix.count))
        let pad = String(repeating: " ", count: indent)
        return wrapped.enumerated().map { ($0.offset == 0 ? firstPrefix : pad) + $0.element }.joined(separator: "\n")
    }
}

/// How wide the terminal is, for output that should fit it.
public enum TerminalWidth {
    /// Assumed when the width cannot be found out.
    public static let fallback = 80

    /// The width set in `COLUMNS`, when it is a sensible number.
    public static func columns(environment: [String: String]) -> Int? {
        guard let text = environment["COLUMNS"], let number = Int(text), (10...10_000).contains(number) else { return nil }
        return number
    }

    /// The width of the terminal on a file descriptor (the `TIOCGWINSZ` ioctl), or nil
    /// when it is not a terminal or does not say.
    public static func columns(descriptor: Int32) -> Int? {
        TerminalSize.columns(descriptor: descriptor)
    }
}

/// Folds text for matching: lowercase, accents removed (`pestañas` → `pestanas`),
/// split into words on anything that is not a letter or digit.
///
/// A search folds every word of every manifest at start-up. Most text is ASCII, where
/// folding is just lowercasing, so ASCII runs take a byte-level path, Latin letters a
/// table, and only stretches holding other characters take the general rule,
/// `unicodeFold`. `StartupTextNormalizerTests` checks that every path gives the words of
/// the general rule on the whole text, and the general rule against Foundation's
/// case- and diacritic-insensitive folding.
public enum TextNormalizer {
    public static func fold(_ text: String) -> String {
        if let ascii = asciiLowercased(text) { return ascii }
        if let latin = latinFolded(text) { return latin }
        return unicodeFold(text)
    }

    public static func words(_ text: String) -> [String] {
        var words: [String] = []
        var segmentStart = 0
        var allASCII = true
        let utf8 = Array(text.utf8)
        let count = utf8.count
        var index = 0
        // A segment ends at an ASCII separator whose neighbours are ASCII too: such a
        // byte is a grapheme boundary on both sides, so folding each segment alone
        // gives what folding the whole text gives.
        while index <= count {
            let atEnd = index == count
            if !atEnd {
                let byte = utf8[index]
                if byte >= 0x80 {
                    allASCII = false
                    index += 1
                    continue
                }
                if isASCIIAlphanumeric(byte) {
                    index += 1
                    continue
                }
                let previousIsASCII = index == 0 || utf8[index - 1] < 0x80
                let nextIsASCII = index + 1 == count || utf8[index + 1] < 0x80
                if !(previousIsASCII && nextIsASCII) {
                    index += 1
                    continue
                }
            }
            if segmentStart < index {
                if allASCII {
                    _ = utf8.withUnsafeBufferPointer { all in
                        forEachASCIIWord(UnsafeBufferPointer(rebasing: all[segmentStart..<index])) { words.append(String(decoding: $0, as: UTF8.self)) }
                    }
                } else {
                    let segment = String(decoding: utf8[segmentStart..<index], as: UTF8.self)
                    if let latin = latinFolded(segment) {
                        words += latin.split { !isASCIIAlphanumeric($0.asciiValue ?? 0) }.map(String.init)
                    } else {
                        words += unicodeWords(segment)
                    }
                }
            }
            index += 1
            segmentStart = index
            allASCII = true
        }
        return words
    }

    /// Hands `body` each word `words` gives ASCII text, as bytes: each run of letters and
    /// digits, lowercased. Returns true, or false, having handed nothing, for text that is
    /// not ASCII. A first search splits the names of 100,000 blocks this way, without a
    /// `String` for each word.
    static func forEachASCIIWord(_ bytes: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> Void) -> Bool {
        guard bytes.allSatisfy({ $0 < 0x80 }) else { return false }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: bytes.count) { lowered in
            var start = 0
            for index in 0...bytes.count {
                guard index == bytes.count || !isASCIIAlphanumeric(bytes[index]) else {
                    let byte = bytes[index]
                    lowered[index] = byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
                    continue
                }
                if start < index { body(UnsafeBufferPointer(rebasing: lowered[start..<index])) }
                start = index + 1
            }
        }
        return true
    }

    /// The general rule, which the fast paths must agree with: case folded (upper, then
    /// lower, for the characters that case folding changes, so `ß` → `ss` and
    /// `ς` → `σ`), each precomposed letter replaced by its base (`BaseLetters`, what
    /// canonical decomposition gives once the marks go), and the combining diacritical
    /// marks that follow a base character dropped. The result is canonically equivalent
    /// to decomposing and dropping the marks, which is what `String`'s `==` compares.
    static func unicodeFold(_ text: String) -> String {
        var cased = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if scalar.properties.changesWhenCaseFolded {
                cased += String(scalar).uppercased().lowercased().unicodeScalars
            } else {
                cased.append(scalar)
            }
        }
        var folded = String.UnicodeScalarView()
        for scalar in cased where folded.isEmpty || !isCombiningDiacritic(scalar.value) {
            if let base = BaseLetters.base(of: scalar.value).flatMap(Unicode.Scalar.init) {
                folded.append(base)
            } else {
                folded.append(scalar)
            }
        }
        return String(folded)
    }

    /// The Combining Diacritical Marks blocks (accents, tonos, breve, cedilla, …);
    /// marks that change a letter in other scripts, such as kana's voicing mark, stay.
    static func isCombiningDiacritic(_ value: UInt32) -> Bool {
        (0x300...0x36F).contains(value) || (0x1AB0...0x1AFF).contains(value) || (0x1DC0...0x1DFF).contains(value)
            || (0x20D0...0x20FF).contains(value) || (0xFE20...0xFE2F).contains(value)
    }

    static func unicodeWords(_ text: String) -> [String] {
        unicodeFold(text).split { !($0.isLetter || $0.isNumber) }.map(String.init)
    }

    static func asciiLowercased(_ text: String) -> String? {
        var bytes = Array(text.utf8)
        for position in bytes.indices {
            let byte = bytes[position]
            if byte >= 0x80 { return nil }
            if byte >= 0x41 && byte <= 0x5A { bytes[position] = byte | 0x20 }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The fold of text made only of ASCII and the Latin letters of `latinLetter(_:)`, each
    /// its own character, so folding one by one is folding the whole; nil for other text.
    static func latinFolded(_ text: String) -> String? {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            if scalar.isASCII {
                let byte = UInt8(scalar.value)
                out.unicodeScalars.append(Unicode.Scalar(byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte))
            } else if let folded = latinLetter(scalar.value) {
                out += folded
            } else {
                return nil
            }
        }
        return out
    }

    /// The fold of a Latin letter from U+00C0 to U+024F when Foundation folds it to ASCII
    /// letters (`ñ` → `n`, `ß` → `ss`), else nil. `StartupTextNormalizerTests` checks
    /// every entry and that no other letter in the range folds to ASCII.
    static func latinLetter(_ value: UInt32) -> String? {
        guard value >= 0xC0, value <= 0x24F else { return nil }
        let folded = latinLetters[Int(value - 0xC0)]
        return folded.isEmpty ? nil : folded
    }

    /// Indexed by scalar value minus 0xC0; empty where the letter does not fold to ASCII.
    static let latinLetters: [String] = [
        "a", "a", "a", "a", "a", "a", "", "c", "e", "e", "e", "e", "i", "i", "i", "i",  // U+00C0
        "", "n", "o", "o", "o", "o", "o", "", "", "u", "u", "u", "u", "y", "", "ss",  // U+00D0
        "a", "a", "a", "a", "a", "a", "", "c", "e", "e", "e", "e", "i", "i", "i", "i",  // U+00E0
        "", "n", "o", "o", "o", "o", "o", "", "", "u", "u", "u", "u", "y", "", "y",  // U+00F0
        "a", "a", "a", "a", "a", "a", "c", "c", "c", "c", "c", "c", "c", "c", "d", "d",  // U+0100
        "", "", "e", "e", "e", "e", "e", "e", "e", "e", "e", "e", "g", "g", "g", "g",  // U+0110
        "g", "g", "g", "g", "h", "h", "", "", "i", "i", "i", "i", "i", "i", "i", "i",  // U+0120
        "i", "", "", "", "j", "j", "k", "k", "", "l", "l", "l", "l", "l", "l", "",  // U+0130
        "", "", "", "n", "n", "n", "n", "n", "n", "", "", "", "o", "o", "o", "o",  // U+0140
        "o", "o", "", "", "r", "r", "r", "r", "r", "r", "s", "s", "s", "s", "s", "s",  // U+0150
        "s", "s", "t", "t", "t", "t", "", "", "u", "u", "u", "u", "u", "u", "u", "u",  // U+0160
        "u", "u", "u", "u", "w", "w", "y", "y", "y", "z", "z", "z", "z", "z", "z", "s",  // U+0170
        "", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "",  // U+0180
        "", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "",  // U+0190
        "o", "o", "", "", "", "", "", "", "", "", "", "", "", "", "", "u",  // U+01A0
        "u", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "",  // U+01B0
        "", "", "", "", "", "", "", "", "", "", "", "", "", "a", "a", "i",  // U+01C0
        "i", "o", "o", "u", "u", "u", "u", "u", "u", "u", "u", "u", "u", "", "a", "a",  // U+01D0
        "a", "a", "", "", "", "", "g", "g", "k", "k", "o", "o", "o", "o", "", "",  // U+01E0
        "j", "", "", "", "g", "g", "", "", "n", "n", "a", "a", "", "", "", "",  // U+01F0
        "a", "a", "a", "a", "e", "e", "e", "e", "i", "i", "i", "i", "o", "o", "o", "o",  // U+0200
        "r", "r", "r", "r", "u", "u", "u", "u", "s", "s", "t", "t", "", "", "h", "h",  // U+0210
        "", "", "", "", "", "", "a", "a", "e", "e", "o", "o", "o", "o", "o", "o",  // U+0220
        "o", "o", "y", "y", "", "", "", "", "", "", "", "", "", "", "", "",  // U+0230
        "", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "",  // U+0240
    ]

    static func isASCIIAlphanumeric(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
    }
}

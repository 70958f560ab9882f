import Foundation

/// Folds text for matching: lowercase, accents removed (`pestañas` → `pestanas`),
/// split into words on anything that is not a letter or digit.
///
/// Foundation's folding is exact but costs microseconds per call, and a search folds
/// every word of every manifest at start-up. Most text is ASCII, where folding is just
/// lowercasing, so ASCII runs take a byte-level path and only stretches holding other
/// characters go through Foundation. `StartupTextNormalizerTests` checks that both paths
/// give the same words as folding the whole text.
public enum TextNormalizer {
    public static func fold(_ text: String) -> String {
        if let ascii = asciiLowercased(text) { return ascii }
        return foundationFold(text)
    }

    public static func words(_ text: String) -> [String] {
        var words: [String] = []
        var segmentStart = 0
        var allASCII = true
        var utf8 = Array(text.utf8)
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
                    for position in segmentStart..<index where utf8[position] >= 0x41 && utf8[position] <= 0x5A {
                        utf8[position] |= 0x20
                    }
                    words.append(String(decoding: utf8[segmentStart..<index], as: UTF8.self))
                } else {
                    let segment = String(decoding: utf8[segmentStart..<index], as: UTF8.self)
                    words += foundationWords(segment)
                }
            }
            index += 1
            segmentStart = index
            allASCII = true
        }
        return words
    }

    /// The exact rule, through Foundation: what the fast paths must agree with.
    static func foundationFold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).lowercased()
    }

    static func foundationWords(_ text: String) -> [String] {
        foundationFold(text).split { !($0.isLetter || $0.isNumber) }.map(String.init)
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

    static func isASCIIAlphanumeric(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
    }
}

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
        if let latin = latinFolded(text) { return latin }
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
                    if let latin = latinFolded(segment) {
                        words += latin.split { !isASCIIAlphanumeric($0.asciiValue ?? 0) }.map(String.init)
                    } else {
                        words += foundationWords(segment)
                    }
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

    /// The fold of text made only of ASCII and the Latin letters in `latinLetters`, each
    /// its own character, so folding one by one is folding the whole; nil for other text.
    static func latinFolded(_ text: String) -> String? {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            if scalar.isASCII {
                let byte = UInt8(scalar.value)
                out.unicodeScalars.append(Unicode.Scalar(byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte))
            } else if let folded = latinLetters[scalar.value] {
                out += folded
            } else {
                return nil
            }
        }
        return out
    }

    /// Latin letters from U+00C0 to U+024F whose Foundation fold is ASCII letters, with
    /// that fold (`ñ` → `n`, `ß` → `ss`). `StartupTextNormalizerTests` checks every entry
    /// and that no other letter in the range folds to ASCII.
    static let latinLetters: [UInt32: String] = [
        0xC0: "a", 0xC1: "a", 0xC2: "a", 0xC3: "a", 0xC4: "a", 0xC5: "a", 0xC7: "c", 0xC8: "e", 0xC9: "e",
        0xCA: "e", 0xCB: "e", 0xCC: "i", 0xCD: "i", 0xCE: "i", 0xCF: "i", 0xD1: "n", 0xD2: "o", 0xD3: "o",
        0xD4: "o", 0xD5: "o", 0xD6: "o", 0xD9: "u", 0xDA: "u", 0xDB: "u", 0xDC: "u", 0xDD: "y", 0xDF: "ss",
        0xE0: "a", 0xE1: "a", 0xE2: "a", 0xE3: "a", 0xE4: "a", 0xE5: "a", 0xE7: "c", 0xE8: "e", 0xE9: "e",
        0xEA: "e", 0xEB: "e", 0xEC: "i", 0xED: "i", 0xEE: "i", 0xEF: "i", 0xF1: "n", 0xF2: "o", 0xF3: "o",
        0xF4: "o", 0xF5: "o", 0xF6: "o", 0xF9: "u", 0xFA: "u", 0xFB: "u", 0xFC: "u", 0xFD: "y", 0xFF: "y",
        0x100: "a", 0x101: "a", 0x102: "a", 0x103: "a", 0x104: "a", 0x105: "a", 0x106: "c", 0x107: "c",
        0x108: "c", 0x109: "c", 0x10A: "c", 0x10B: "c", 0x10C: "c", 0x10D: "c", 0x10E: "d", 0x10F: "d",
        0x112: "e", 0x113: "e", 0x114: "e", 0x115: "e", 0x116: "e", 0x117: "e", 0x118: "e", 0x119: "e",
        0x11A: "e", 0x11B: "e", 0x11C: "g", 0x11D: "g", 0x11E: "g", 0x11F: "g", 0x120: "g", 0x121: "g",
        0x122: "g", 0x123: "g", 0x124: "h", 0x125: "h", 0x128: "i", 0x129: "i", 0x12A: "i", 0x12B: "i",
        0x12C: "i", 0x12D: "i", 0x12E: "i", 0x12F: "i", 0x130: "i", 0x134: "j", 0x135: "j", 0x136: "k",
        0x137: "k", 0x139: "l", 0x13A: "l", 0x13B: "l", 0x13C: "l", 0x13D: "l", 0x13E: "l", 0x143: "n",
        0x144: "n", 0x145: "n", 0x146: "n", 0x147: "n", 0x148: "n", 0x14C: "o", 0x14D: "o", 0x14E: "o",
        0x14F: "o", 0x150: "o", 0x151: "o", 0x154: "r", 0x155: "r", 0x156: "r", 0x157: "r", 0x158: "r",
        0x159: "r", 0x15A: "s", 0x15B: "s", 0x15C: "s", 0x15D: "s", 0x15E: "s", 0x15F: "s", 0x160: "s",
        0x161: "s", 0x162: "t", 0x163: "t", 0x164: "t", 0x165: "t", 0x168: "u", 0x169: "u", 0x16A: "u",
        0x16B: "u", 0x16C: "u", 0x16D: "u", 0x16E: "u", 0x16F: "u", 0x170: "u", 0x171: "u", 0x172: "u",
        0x173: "u", 0x174: "w", 0x175: "w", 0x176: "y", 0x177: "y", 0x178: "y", 0x179: "z", 0x17A: "z",
        0x17B: "z", 0x17C: "z", 0x17D: "z", 0x17E: "z", 0x17F: "s", 0x1A0: "o", 0x1A1: "o", 0x1AF: "u",
        0x1B0: "u", 0x1CD: "a", 0x1CE: "a", 0x1CF: "i", 0x1D0: "i", 0x1D1: "o", 0x1D2: "o", 0x1D3: "u",
        0x1D4: "u", 0x1D5: "u", 0x1D6: "u", 0x1D7: "u", 0x1D8: "u", 0x1D9: "u", 0x1DA: "u", 0x1DB: "u",
        0x1DC: "u", 0x1DE: "a", 0x1DF: "a", 0x1E0: "a", 0x1E1: "a", 0x1E6: "g", 0x1E7: "g", 0x1E8: "k",
        0x1E9: "k", 0x1EA: "o", 0x1EB: "o", 0x1EC: "o", 0x1ED: "o", 0x1F0: "j", 0x1F4: "g", 0x1F5: "g",
        0x1F8: "n", 0x1F9: "n", 0x1FA: "a", 0x1FB: "a", 0x200: "a", 0x201: "a", 0x202: "a", 0x203: "a",
        0x204: "e", 0x205: "e", 0x206: "e", 0x207: "e", 0x208: "i", 0x209: "i", 0x20A: "i", 0x20B: "i",
        0x20C: "o", 0x20D: "o", 0x20E: "o", 0x20F: "o", 0x210: "r", 0x211: "r", 0x212: "r", 0x213: "r",
        0x214: "u", 0x215: "u", 0x216: "u", 0x217: "u", 0x218: "s", 0x219: "s", 0x21A: "t", 0x21B: "t",
        0x21E: "h", 0x21F: "h", 0x226: "a", 0x227: "a", 0x228: "e", 0x229: "e", 0x22A: "o", 0x22B: "o",
        0x22C: "o", 0x22D: "o", 0x22E: "o", 0x22F: "o", 0x230: "o", 0x231: "o", 0x232: "y", 0x233: "y"
    ]

    static func isASCIIAlphanumeric(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
    }
}

/// Gives each distinct word of a corpus a number: the vocabulary's index for it.
///
/// A first search of 100,000 blocks numbers 210,000 distinct words on every slice's core
/// and again where the slices are joined. As `String` keys of a `Dictionary`, each look-up
/// hashed the word's text with SipHash, a fifth of the work. Nearly every word is ASCII,
/// where two words are equal exactly when their bytes are, so those are kept by their bytes
/// in an open-addressing table with FNV-1a, a multiply per byte. Any other word goes to a
/// `Dictionary`, since `String`'s `==` is canonical equivalence and two different byte
/// sequences may be the same word. No ASCII word is canonically equivalent to a folded
/// word with other characters, so the two tables never hold the same word.
struct WordNumbers: Sendable {
    /// By slot: 0 when empty, else the entry there plus one in the low half, and the high
    /// half of the entry's hash. A probe that meets another word then mostly reads the slot
    /// alone: the table of 210,000 words is larger than the caches, and reading each met
    /// entry's hash was a cache miss a probe.
    private var slots = [UInt64](repeating: 0, count: 64)
    /// By entry: its hash, its number, and where its bytes end in `bytes`.
    private var hashes: [UInt64] = []
    private var numbers: [Int] = []
    private var ends: [Int] = []
    private var bytes: [UInt8] = []
    private var others: [String: Int] = [:]

    /// The number `word` was given, or `next` when it is new, which it is given then.
    mutating func number(of word: String, orNew next: Int) -> Int {
        var word = word
        return word.withUTF8 { number(ofUTF8: $0, orNew: next) }
    }

    /// `number(of:orNew:)` for a word given as its UTF-8 bytes.
    mutating func number(ofUTF8 text: UnsafeBufferPointer<UInt8>, orNew next: Int) -> Int {
        guard text.allSatisfy({ $0 < 0x80 }) else {
            let other = String(decoding: text, as: UTF8.self)
            if let known = others[other] { return known }
            others[other] = next
            return next
        }
        return number(ofASCII: text, orNew: next)
    }

    /// `number(of:orNew:)` for a word the caller knows is ASCII.
    mutating func number(ofASCII text: UnsafeBufferPointer<UInt8>, orNew next: Int) -> Int {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        let mask = slots.count - 1
        let high = hash & Self.highHalf
        var slot = Int(truncatingIfNeeded: hash ^ hash >> 32) & mask
        while slots[slot] != 0 {
            let entry = Int(truncatingIfNeeded: slots[slot] & ~Self.highHalf) - 1
            if slots[slot] & Self.highHalf == high, holds(entry, text) { return numbers[entry] }
            slot = (slot + 1) & mask
        }
        slots[slot] = high | UInt64(hashes.count + 1)
        hashes.append(hash)
        numbers.append(next)
        bytes.append(contentsOf: text)
        ends.append(bytes.count)
        if hashes.count * 2 > slots.count { grow() }
        return next
    }

    private static let highHalf: UInt64 = 0xFFFF_FFFF_0000_0000

    private func holds(_ entry: Int, _ text: UnsafeBufferPointer<UInt8>) -> Bool {
        let start = entry == 0 ? 0 : ends[entry - 1]
        guard ends[entry] - start == text.count else { return false }
        return bytes.withUnsafeBufferPointer { all in
            for offset in 0..<text.count where all[start + offset] != text[offset] { return false }
            return true
        }
    }

    /// Twice the slots, every entry placed again by its hash: the table stays at most half full.
    private mutating func grow() {
        slots = [UInt64](repeating: 0, count: slots.count * 2)
        let mask = slots.count - 1
        for (entry, hash) in hashes.enumerated() {
            var slot = Int(truncatingIfNeeded: hash ^ hash >> 32) & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = hash & Self.highHalf | UInt64(entry + 1)
        }
    }
}

/// Scores one query word against every word of a vocabulary, fast enough for catalogs
/// of 10,000 blocks (some 20,000 distinct words) on every keystroke of a search.
///
/// The rules are `SearchEngine.matchQuality`'s and only those. When both words are
/// ASCII, characters, Unicode scalars and bytes coincide, so the same rules run on the
/// bytes with no allocation; any other pair goes through `matchQuality` itself.
struct WordMatcher {
    let query: String
    private let queryBytes: [UInt8]
    private let queryIsASCII: Bool
    /// The typo budget: one edit for words of 4 to 7 letters, two beyond.
    private let allowed: Int
    /// The query's bytes as a set (`letterMask`), to rule out most words before an edit
    /// distance is computed.
    private let queryMask: UInt64

    init(_ query: String) {
        self.query = query
        queryBytes = Array(query.utf8)
        queryIsASCII = queryBytes.allSatisfy { $0 < 0x80 }
        let length = query.count
        allowed = length >= 8 ? 2 : (length >= 4 ? 1 : 0)
        queryMask = queryBytes.withUnsafeBufferPointer(Self.letterMask)
    }

    /// A bit per byte value: letters and digits each their own, other bytes shared. A query
    /// byte that a word lacks takes an edit to mend, so a word lacking more of the query's
    /// bits than the budget allows is beyond it (shared bits only make the test weaker).
    static func letterMask(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var mask: UInt64 = 0
        for byte in bytes {
            let bit: UInt8
            switch byte {
            case 0x61...0x7A: bit = byte - 0x61
            case 0x30...0x39: bit = byte - 0x30 + 26
            default: bit = 36 + byte % 28
            }
            mask |= 1 << UInt64(bit)
        }
        return mask
    }

    /// True when the word lacks more of the query's bytes than the typo budget mends.
    private func isBeyondBudget(_ word: UnsafeBufferPointer<UInt8>) -> Bool {
        (queryMask & ~Self.letterMask(word)).nonzeroBitCount > allowed
    }

    /// The words of `vocabulary` that match, with their quality (above zero), by index.
    func matches(in vocabulary: PackedStrings) -> [(word: Int, quality: Double)] {
        var found: [(word: Int, quality: Double)] = []
        queryBytes.withUnsafeBufferPointer { query in
            vocabulary.forEachBytes { index, word in
                let wordIsASCII = word.allSatisfy { $0 < 0x80 }
                let quality =
                    queryIsASCII && wordIsASCII
                    ? asciiQuality(query, word)
                    : SearchEngine.matchQuality(query: self.query, word: String(decoding: word, as: UTF8.self))
                if quality > 0 { found.append((index, quality)) }
            }
        }
        return found
    }

    /// The words of `vocabulary` that hold `phrase` (two query words written together):
    /// 1 for the word itself, 0.8 for a longer word holding it (`tabchange` in
    /// `ontabchange`). Folded words compare as UTF-8 bytes, which match only at
    /// character starts.
    static func words(holding phrase: String, in vocabulary: PackedStrings) -> [(word: Int, quality: Double)] {
        let needle = Array(phrase.utf8)
        guard let first = needle.first else { return [] }
        var found: [(word: Int, quality: Double)] = []
        vocabulary.forEachBytes { index, word in
            guard word.count >= needle.count else { return }
            for start in 0...(word.count - needle.count) where word[start] == first {
                if UnsafeBufferPointer(rebasing: word[start..<(start + needle.count)]).elementsEqual(needle) {
                    found.append((index, word.count == needle.count ? 1 : 0.8))
                    return
                }
            }
        }
        return found
    }

    /// `SearchEngine.matchQuality` for two ASCII words.
    private func asciiQuality(_ query: UnsafeBufferPointer<UInt8>, _ word: UnsafeBufferPointer<UInt8>) -> Double {
        if word.count == query.count && word.elementsEqual(query) { return 1 }
        if query.count >= 2 && word.count > query.count && word.prefix(query.count).elementsEqual(query) { return 0.8 }
        guard allowed > 0 else { return 0 }
        if word.count < query.count - allowed { return 0 }
        if word.count <= query.count + allowed {
            return !isBeyondBudget(word) && Self.withinDistance(query, word, limit: allowed) ? 0.6 : 0
        }
        // A typo in a prefix of a longer word ("scrol" in "scrollable") counts less.
        let candidate = UnsafeBufferPointer(rebasing: word[..<(query.count + allowed)])
        return !isBeyondBudget(candidate) && Self.withinDistance(query, candidate, limit: allowed) ? 0.45 : 0
    }

    /// True when the optimal string alignment distance (`EditDistance.distance`) between
    /// two byte strings is at most `limit`.
    static func withinDistance(_ left: UnsafeBufferPointer<UInt8>, _ right: UnsafeBufferPointer<UInt8>, limit: Int) -> Bool {
        boundedDistance(left, right, limit: limit) <= limit
    }

    /// `EditDistance.distance` on bytes: exact up to `limit`, and above `limit` once it
    /// is certain to exceed it. Rows live on the stack.
    static func boundedDistance(_ left: UnsafeBufferPointer<UInt8>, _ right: UnsafeBufferPointer<UInt8>, limit: Int) -> Int {
        if left.isEmpty { return right.count }
        if right.isEmpty { return left.count }
        if abs(left.count - right.count) > limit { return limit + 1 }
        let width = right.count + 1
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: width * 3) { rows in
            var beforePrevious = 0
            var previous = width
            var current = width * 2
            for j in 0..<width {
                rows[beforePrevious + j] = 0
                rows[previous + j] = j
            }
            for i in 1...left.count {
                rows[current] = i
                var rowMinimum = i
                for j in 1...right.count {
                    let cost = left[i - 1] == right[j - 1] ? 0 : 1
                    var value = min(rows[previous + j] + 1, rows[current + j - 1] + 1, rows[previous + j - 1] + cost)
                    if i > 1, j > 1, left[i - 1] == right[j - 2], left[i - 2] == right[j - 1] {
                        value = min(value, rows[beforePrevious + j - 2] + 1)
                    }
                    rows[current + j] = value
                    rowMinimum = min(rowMinimum, value)
                }
                if rowMinimum > limit { return limit + 1 }
                (beforePrevious, previous, current) = (previous, current, beforePrevious)
            }
            return rows[previous + right.count]
        }
    }

    /// `EditDistance.suggestions` over packed strings, for "did you mean" on catalogs
    /// of thousands of names: ASCII pairs are compared as bytes, any other pair through
    /// `EditDistance` itself.
    static func suggestions(for word: String, in candidates: PackedStrings, count: Int = 3) -> [String] {
        let limit = max(2, word.count / 3)
        let lowered = word.lowercased()
        let loweredBytes = Array(lowered.utf8)
        let wordIsASCII = loweredBytes.allSatisfy { $0 < 0x80 }
        var close: [(index: Int, distance: Int)] = []
        loweredBytes.withUnsafeBufferPointer { wordBytes in
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 256) { scratch in
                candidates.forEachBytes { index, candidate in
                    let distance: Int
                    if wordIsASCII, candidate.count <= scratch.count, candidate.allSatisfy({ $0 < 0x80 }) {
                        for (offset, byte) in candidate.enumerated() {
                            scratch[offset] = (0x41...0x5A).contains(byte) ? byte + 0x20 : byte
                        }
                        distance = boundedDistance(wordBytes, UnsafeBufferPointer(rebasing: scratch[..<candidate.count]), limit: limit)
                    } else {
                        let text = String(decoding: candidate, as: UTF8.self)
                        distance = EditDistance.distance(lowered, text.lowercased(), limit: limit)
                    }
                    if distance <= limit { close.append((index, distance)) }
                }
            }
        }
        return close.map { (candidates[$0.index], $0.distance) }
            .sorted { ($0.1, $0.0) < ($1.1, $1.0) }
            .prefix(count)
            .map { $0.0 }
    }
}

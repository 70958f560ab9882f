extension SearchWords {
    /// `identifierWords` for ASCII text, on bytes: the same words in the same order as
    /// `unicodeIdentifierWords`, which `SearchWordsASCIITests` checks on the catalog and on
    /// random text. Nil for text with any other character.
    ///
    /// Why: a site build (`SiteSearchData`) finds the words of 10,000 manifests at once,
    /// and splitting identifiers character by character, with a Unicode property lookup
    /// for each, was the largest part of it.
    static func asciiIdentifierWords(_ text: String) -> [String]? {
        let bytes = Array(text.utf8)
        guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
        func isUpper(_ byte: UInt8) -> Bool { byte >= 0x41 && byte <= 0x5A }
        func isLower(_ byte: UInt8) -> Bool { byte >= 0x61 && byte <= 0x7A }
        func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
        func lowered(_ slice: ArraySlice<UInt8>) -> String {
            String(decoding: slice.map { isUpper($0) ? $0 | 0x20 : $0 }, as: UTF8.self)
        }
        var words: [String] = []
        var start = 0
        while start < bytes.count {
            guard isUpper(bytes[start]) || isLower(bytes[start]) || isDigit(bytes[start]) else {
                start += 1
                continue
            }
            var end = start
            while end < bytes.count, isUpper(bytes[end]) || isLower(bytes[end]) || isDigit(bytes[end]) { end += 1 }
            let whole = lowered(bytes[start..<end])
            words.append(whole)
            // `splitIdentifier`'s boundaries: lower or digit to upper, the last capital of a
            // run before a lowercase letter, and between letters and digits.
            var parts: [String] = []
            var partStart = start
            for index in (start + 1)..<max(start + 1, end) {
                let character = bytes[index], previous = bytes[index - 1]
                let next: UInt8? = index + 1 < end ? bytes[index + 1] : nil
                let lowerToUpper = isUpper(character) && (isLower(previous) || isDigit(previous))
                let endOfCapitals = isUpper(character) && isUpper(previous) && next.map(isLower) == true
                let letterDigit = isDigit(character) != isDigit(previous)
                if lowerToUpper || endOfCapitals || letterDigit {
                    parts.append(lowered(bytes[partStart..<index]))
                    partStart = index
                }
            }
            parts.append(lowered(bytes[partStart..<end]))
            if parts != [whole] { words += parts }
            start = end
        }
        return words
    }
}

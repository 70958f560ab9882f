/// Edit distance, used for typo-tolerant search and for "did you mean".
public enum EditDistance {
    /// The number of single-character insertions, deletions, substitutions and swaps of
    /// neighbours ("pagre" → "pager") that turn one string into the other (optimal string
    /// alignment). Stops early once `limit` is exceeded.
    public static func distance(_ a: String, _ b: String, limit: Int = .max) -> Int {
        let left = Array(a.unicodeScalars)
        let right = Array(b.unicodeScalars)
        if left.isEmpty { return right.count }
        if right.isEmpty { return left.count }
        if abs(left.count - right.count) > limit { return limit + 1 }
        var beforePrevious = [Int](repeating: 0, count: right.count + 1)
        var previous = Array(0...right.count)
        var current = [Int](repeating: 0, count: right.count + 1)
        for i in 1...left.count {
            current[0] = i
            var rowMinimum = current[0]
            for j in 1...right.count {
                let cost = left[i - 1] == right[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, left[i - 1] == right[j - 2], left[i - 2] == right[j - 1] {
                    current[j] = min(current[j], beforePrevious[j - 2] + 1)
                }
                rowMinimum = min(rowMinimum, current[j])
            }
            if rowMinimum > limit { return limit + 1 }
            (beforePrevious, previous, current) = (previous, current, beforePrevious)
        }
        return previous[right.count]
    }

    /// The candidate nearest to `word`, if it is close enough to be a likely typo.
    public static func closest(to word: String, in candidates: [String]) -> String? {
        suggestions(for: word, in: candidates, count: 1).first
    }

    /// Up to `count` candidates close to `word`, nearest first.
    public static func suggestions(for word: String, in candidates: [String], count: Int = 3) -> [String] {
        let limit = max(2, word.count / 3)
        return
            candidates
            .map { ($0, distance(word.lowercased(), $0.lowercased(), limit: limit)) }
            .filter { $0.1 <= limit }
            .sorted { ($0.1, $0.0) < ($1.1, $1.0) }
            .prefix(count)
            .map { $0.0 }
    }
}

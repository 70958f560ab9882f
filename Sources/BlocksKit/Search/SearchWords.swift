/// Every source of words a search matches, in one place, so the embedded catalog, a
/// folder catalog and the SQLite index of a large registry hold the very same words.
///
/// All text goes through `TextNormalizer.words`, the one tokenizer. On top of it come
/// identifiers (kept whole and split at camelCase and digits, so `onTabChange` matches
/// `ontabchange`, `tab` and `change`), the API's types and descriptions, and the
/// accessibility notes under their concepts in English and Spanish.
enum SearchWords {
    /// The folded words of each field of a manifest: every language at once.
    static func fieldWords(of manifest: BlockManifest) -> [(SearchEngine.Field, Set<String>)] {
        var details = Set(manifest.api.flatMap { TextNormalizer.words($0.description) })
        for (key, note) in manifest.accessibility {
            details.formUnion(TextNormalizer.words(note))
            details.formUnion(accessibilityConcepts[key, default: []].flatMap(identifierWords))
            details.formUnion(identifierWords(key))
        }
        return [
            (.name, Set(TextNormalizer.words(manifest.name))),
            (.title, Set(manifest.title.values.flatMap(TextNormalizer.words))),
            (.tags, Set(manifest.tags.values.joined().flatMap(identifierWords))),
            (.category, Set(TextNormalizer.words(manifest.category))),
            (.summary, Set(manifest.summary.values.flatMap(TextNormalizer.words))),
            (.api, Set(manifest.api.flatMap { identifierWords($0.name) + identifierWords($0.type) })),
            (.details, details),
        ]
    }

    /// The words of code-like text: each identifier folded whole, then its parts split
    /// at lower-to-upper case, at the last capital of a run of capitals before a
    /// lowercase letter (`URLSession` → `url`, `session`) and between letters and digits.
    /// `Binding<Item.ID?>` gives `binding`, `item` and `id`.
    static func identifierWords(_ text: String) -> [String] {
        asciiIdentifierWords(text) ?? unicodeIdentifierWords(text)
    }

    /// The general rule of `identifierWords`, which its ASCII path must agree with.
    static func unicodeIdentifierWords(_ text: String) -> [String] {
        var words: [String] = []
        for identifier in text.split(whereSeparator: { !($0.isLetter || $0.isNumber) }) {
            let whole = TextNormalizer.words(String(identifier))
            words += whole
            let parts = TextNormalizer.words(splitIdentifier(String(identifier)))
            if parts != whole { words += parts }
        }
        return words
    }

    /// An identifier with a space at each of its word boundaries.
    static func splitIdentifier(_ identifier: String) -> String {
        let characters = Array(identifier)
        var result = ""
        for (index, character) in characters.enumerated() {
            if index > 0 {
                let previous = characters[index - 1]
                let next: Character? = index + 1 < characters.count ? characters[index + 1] : nil
                let lowerToUpper = character.isUppercase && (previous.isLowercase || previous.isNumber)
                let endOfCapitals = character.isUppercase && previous.isUppercase && next?.isLowercase == true
                let letterDigit = character.isNumber != previous.isNumber
                if lowerToUpper || endOfCapitals || letterDigit { result.append(" ") }
            }
            result.append(character)
        }
        return result
    }

    /// The names of each accessibility note's concept, in English and Spanish, and the
    /// SwiftUI API behind it: a note filed under `dynamicType` is found by `large text`
    /// and `texto grande`.
    static let accessibilityConcepts: [String: [String]] = [
        "voiceOver": ["VoiceOver", "voice over", "screen reader", "lector de pantalla", "accessibility", "accesibilidad", "accessibilityLabel"],
        "dynamicType": ["Dynamic Type", "large text", "text size", "texto grande", "tamaño del texto", "accessibility", "accesibilidad", "dynamicTypeSize"],
        "reduceMotion": ["Reduce Motion", "reducir movimiento", "animation", "animación", "accessibility", "accesibilidad", "accessibilityReduceMotion"],
    ]

    /// English and Spanish words a query may hold without any block having them
    /// ("tabs for categories", "pestañas para ipad"): they need not match, and add to
    /// the score where they do.
    static let functionWords: Set<String> = [
        "a", "an", "the", "of", "with", "between", "for", "to", "in", "on", "and", "or", "by", "at", "from", "that", "is",
        "de", "la", "el", "los", "las", "lo", "con", "entre", "para", "en", "y", "o", "un", "una", "por", "del", "al", "que",
    ]
}

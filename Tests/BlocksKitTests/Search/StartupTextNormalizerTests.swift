import Foundation
import Testing

@testable import BlocksKit

/// The ASCII and Latin fast paths of `TextNormalizer` must give exactly what its general
/// rule gives on the whole text, and the general rule must fold as Foundation's case- and
/// diacritic-insensitive folding does.
@Suite struct StartupTextNormalizerTests {
    /// The reference: Foundation, which the binary no longer links.
    static func foundationFold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).lowercased()
    }

    static let tricky: [String] = [
        "", " ", "tabs", "TABS", "Scrolling Tab Strip", "pestañas", "PESTAÑAS", "Tira de pestañas desplazable",
        "naïve café-au-lait", "ÉCOLE élève", "Straße", "STRASSE", "ﬁle ﬂow", "İstanbul ıi", "ΣΊΣΥΦΟΣ ς",
        " \u{301}a", "a\u{301}-b", "-\u{301}-", "e\u{301}", "\u{600}-x", "x-\u{600}", "\u{600} 1",
        "x\u{200D}-y", "a\r\nb", "\r\n", "\u{1F1EA}\u{1F1F8}-flag", "👩‍💻 coder", "٣ ٤ arabic digits", "ＡＢＣ ｄｅｆ",
        "MatchedGeometryEffect", "Binding<String>", "[String]", ".pink", "snake_case-and-kebab", "v1.2.3",
        "日本語のタブ", "Ωmega", "ÀÉÎÕÜ àéîõü", "a\u{0}b", "tab\tstrip\nnext", "ǅ ǈ ǋ", "Ⅻ ⅻ", "½ ²",
        "caf\u{E9}", "cafe\u{301}", "\u{301}", "a\u{301}", "-é-", "é-é", "x--é--y", "ß-ss",
        "Tiếng Việt có dấu", "Ελληνικά ΆΈΉ ϊΐ", "Кириллица Йй Ёё", "Čeština ŘŽŠ", "Polski ŁĄĘ", "Dansk ÆØÅ", "Türkçe ĞŞÇ",
        "ガギグゲゴ パ", "한국어 탭", "עִבְרִית", "العَرَبِيَّة",
    ]

    static func agree(_ text: String) -> Bool {
        TextNormalizer.words(text) == TextNormalizer.unicodeWords(text)
            && TextNormalizer.fold(text) == TextNormalizer.unicodeFold(text)
    }

    @Test(arguments: tricky) func trickyInputsTakeTheGeneralRule(text: String) {
        #expect(TextNormalizer.words(text) == TextNormalizer.unicodeWords(text), "\(text.debugDescription)")
        #expect(TextNormalizer.fold(text) == TextNormalizer.unicodeFold(text), "\(text.debugDescription)")
    }

    @Test(arguments: tricky) func generalRuleFoldsAsFoundationDoes(text: String) {
        #expect(TextNormalizer.unicodeFold(text) == Self.foundationFold(text), "\(text.debugDescription)")
    }

    @Test func everyASCIICharacterTakesTheGeneralRule() {
        let all = String(decoding: (0..<128).map { UInt8($0) }, as: UTF8.self)
        #expect(Self.agree(all))
        for byte in 0..<128 {
            let character = String(decoding: [UInt8(byte)], as: UTF8.self)
            #expect(Self.agree(character), "byte \(byte)")
            #expect(Self.agree("a\(character)B"), "byte \(byte) between letters")
            #expect(Self.agree("é\(character)ñ"), "byte \(byte) between accented letters")
        }
    }

    @Test func latinTableIsFoundationsFold() {
        #expect(TextNormalizer.latinLetters.count == 0x250 - 0xC0)
        #expect(TextNormalizer.latinLetters.filter { !$0.isEmpty }.count > 200)
        for value in UInt32(0xC0)...0x24F {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let folded = Self.foundationFold(String(scalar))
            let isASCIIWord = !folded.isEmpty && folded.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) }
            if let entry = TextNormalizer.latinLetter(value) {
                #expect(entry == folded, "U+\(String(value, radix: 16))")
            } else {
                #expect(!(isASCIIWord && Character(scalar).isLetter), "U+\(String(value, radix: 16)) could be in the table")
            }
        }
        #expect(TextNormalizer.latinLetter(0xBF) == nil && TextNormalizer.latinLetter(0x250) == nil)
    }

    /// `BaseLetters` holds what Foundation's canonical decomposition says, for every scalar
    /// from U+0080 to U+2FFFF: a scalar is in the table exactly when its decomposition is one
    /// base followed only by combining diacritics, and then maps to that base.
    @Test func baseLetterTableIsFoundationsDecomposition() {
        var checked = 0
        for value in UInt32(0x80)...0x2FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let decomposed = Array(String(scalar).decomposedStringWithCanonicalMapping.unicodeScalars)
            let marks = decomposed.dropFirst()
            let expected: UInt32? =
                decomposed.count > 1 && marks.allSatisfy({ TextNormalizer.isCombiningDiacritic($0.value) }) ? decomposed[0].value : nil
            if BaseLetters.base(of: value) != expected {
                Issue.record("U+\(String(value, radix: 16)): table \(String(describing: BaseLetters.base(of: value))), decomposition \(decomposed)")
            }
            if expected != nil { checked += 1 }
        }
        #expect(checked == BaseLetters.table.count)
        #expect(checked > 800)
        #expect(BaseLetters.base(of: 0x1E69) == 0x73)  // ṩ → s
        #expect(TextNormalizer.unicodeFold("Ṩ ΐ Ǖ") == "s ι u")
    }

    /// Mixes ASCII and non-ASCII pieces in a fixed pseudo-random order (bounded count).
    @Test func mixedPiecesTakeTheGeneralRule() {
        let pieces = [
            "a", "Z", "9", " ", "-", "_", ".", "\n", "é", "Ñ", "Ǆ", "ĳ", "Ø", "ĸ", "×", "\u{301}", "ß", "ﬁ", "İ", "\u{600}", "日", "👍", "\r\n", "Σ", "ς",
        ]
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<400 {
            var text = ""
            for _ in 0..<12 {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                text += pieces[Int(state >> 33) % pieces.count]
            }
            #expect(Self.agree(text), "\(text.debugDescription)")
            // Words, not the whole fold: after U+0600 (a prepended mark) Foundation keeps an
            // accent that the general rule drops, and neither is part of a word.
            let foundationWords = Self.foundationFold(text).split { !($0.isLetter || $0.isNumber) }.map(String.init)
            #expect(TextNormalizer.unicodeWords(text) == foundationWords, "\(text.debugDescription)")
        }
    }

    @Test func catalogTextTakesTheGeneralRule() throws {
        let manifests = try CatalogSource.folder(repositoryRoot.appendingPathComponent("Catalog")).manifests()
        #expect(manifests.count >= 5)
        var texts: [String] = []
        for manifest in manifests {
            texts.append(manifest.name)
            texts.append(manifest.category)
            texts += Array(manifest.title.values) + Array(manifest.summary.values) + Array(manifest.tags.values.joined())
            texts += manifest.api.flatMap { [$0.name, $0.type, $0.description, SearchWords.splitIdentifier($0.name)] }
        }
        #expect(texts.contains { $0.contains("ñ") }, "the catalog should exercise the non-ASCII path")
        for text in texts { #expect(Self.agree(text), "\(text.debugDescription)") }
    }
}

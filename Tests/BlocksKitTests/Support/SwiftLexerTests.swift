import Foundation
import Testing

@testable import BlocksKit

/// The one Swift lexer (issue 33): the tokens it finds, that it cuts nothing, and that its
/// three readers (search's code names, the site's highlighter, the `Package.swift` scanner)
/// see nested comments and raw strings where Swift sees them.
@Suite struct SwiftLexerTests {
    /// Each token at depth 0 as `kind text`, and the interpolations' tokens as `kind@depth text`.
    static func described(_ source: String) -> [String] {
        let bytes = Array(source.utf8)
        return SwiftLexer.tokens(bytes).map { token in
            let text = String(decoding: bytes[token.range], as: UTF8.self)
            return token.depth == 0 ? "\(token.kind) \(text)" : "\(token.kind)@\(token.depth) \(text)"
        }
    }

    @Test func namesNumbersAttributesAndPunctuation() {
        #expect(
            Self.described("@State private var `default` = 0x1F + 1_000.5e-3 #if ñandú.x\n") == [
                "attribute @State", "identifier private", "identifier var", "escapedIdentifier `default`", "punctuation =",
                "number 0x1F", "punctuation +", "number 1_000.5e-3", "attribute #if", "identifier ñandú", "punctuation .",
                "identifier x", "newline \n",
            ])
        #expect(Self.described("1...5 t.0.Foo") == ["number 1", "punctuation .", "punctuation .", "punctuation .", "number 5", "identifier t", "punctuation .", "number 0", "punctuation .", "identifier Foo"])
    }

    @Test func blockCommentsNest() {
        #expect(
            Self.described("a /* one /* two */ still */ b // line\nc") == [
                "identifier a", "blockComment /* one /* two */ still */", "identifier b", "lineComment // line", "newline \n", "identifier c",
            ])
        // An unclosed comment runs to the end.
        #expect(Self.described("a /* /* */ b") == ["identifier a", "blockComment /* /* */ b"])
    }

    @Test func rawStringsEndAtTheirOwnDelimiter() {
        #expect(Self.described(##"x = #"say "hi" \(no) \#(yes)"# + y"##) == [
            "identifier x", "punctuation =", "punctuation@1 (", "identifier@1 yes", "punctuation@1 )",
            ##"string #"say "hi" \(no) \#(yes)"#"##, "punctuation +", "identifier y",
        ])
        #expect(Self.described(###"##"a "# b"## c"###) == [###"string ##"a "# b"##"###, "identifier c"])
    }

    @Test func multilineStringsAndNestedInterpolations() {
        let source = "let s = \"\"\"\n  one \"quoted\" \\(f(\"in \\(g(1))\")) // not a comment\n  \"\"\"\nnext"
        #expect(
            Self.described(source) == [
                "identifier let", "identifier s", "punctuation =",
                "punctuation@1 (", "identifier@1 f", "punctuation@1 (",
                "punctuation@2 (", "identifier@2 g", "punctuation@2 (", "number@2 1", "punctuation@2 )", "punctuation@2 )",
                "string@1 \"in \\(g(1))\"", "punctuation@1 )", "punctuation@1 )",
                "string \"\"\"\n  one \"quoted\" \\(f(\"in \\(g(1))\")) // not a comment\n  \"\"\"", "newline \n", "identifier next",
            ])
        // An unclosed single-line string ends before its line's end; escapes are skipped.
        #expect(Self.described("a = \"open \\\" still\nb") == ["identifier a", "punctuation =", "string \"open \\\" still", "newline \n", "identifier b"])
    }

    /// The tokens of the source's own code are in order, never overlap, and leave out only
    /// white space; none cuts a character.
    @Test func randomTextIsCoveredExactly() {
        let pieces = [
            "\"", "\"\"\"", "#\"", "\"#", "\\(", "\\#(", ")", "(", "/*", "*/", "//", "\n", "@", "#", "`", "0x1F", "1_000.5e3",
            "let", "View", "ñandú", "<", " ", "\\", "\t", "é", "🙂", "x", ".",
        ]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            let source = (0..<Int.random(in: 0...40, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            let bytes = Array(source.utf8)
            var position = 0
            for token in SwiftLexer.tokens(bytes) where token.depth == 0 {
                #expect(bytes[position..<token.range.lowerBound].allSatisfy { [0x20, 0x09, 0x0D].contains($0) }, "\(source.debugDescription)")
                #expect(!token.range.isEmpty && token.range.lowerBound >= position, "\(source.debugDescription)")
                // No character is cut: a token neither starts nor ends before a continuation byte.
                #expect(bytes[token.range.lowerBound] & 0xC0 != 0x80, "\(source.debugDescription)")
                #expect(token.range.upperBound == bytes.count || bytes[token.range.upperBound] & 0xC0 != 0x80, "\(source.debugDescription)")
                position = token.range.upperBound
            }
            #expect(bytes[position...].allSatisfy { [0x20, 0x09, 0x0D].contains($0) }, "\(source.debugDescription)")
        }
    }

    // MARK: - Its readers

    @Test func theManifestScannerSkipsNestedCommentsAndReadsRawStrings() {
        let text = ##"""
            // swift-tools-version: 6.0
            import PackageDescription

            let note = #"a "quoted" .target(name: "InString") word"#
            let package = Package(
                name: "App",
                platforms: [/* .iOS(.v15) /* older */ .iOS(.v14) */ .iOS(.v17)],
                targets: [
                    /* a comment /* nested */ .target(name: "Ghost") */
                    .target(name: #"Core"#, path: #"Sources/Co"re"#),
                    .executableTarget(name: "App", dependencies: [.target(name: "Core")]),
                    .testTarget(name: "AppTests", dependencies: ["App"]),
                ]
            )
            """##
        #expect(
            PackageManifestScanner.targets(in: text) == [
                .init(name: "Core", path: #"Sources/Co"re"#),
                .init(name: "App", path: "Sources/App"),
            ])
        #expect(PackageManifestScanner.platforms(in: text) == ["iOS": "17"])
    }

    @Test func codeNamesAndTheHighlighterShareIt() {
        let source = ##"/* /* */ .Hidden */ let s = #"raw \(NotCode) \#(Shown.member)"#"##
        #expect(CodeNames.names(inSwift: Data(source.utf8)) == ["Shown", "member"])
        #expect(
            SwiftHighlighter.tokens(source).compactMap { token, text in token.map { "\($0.rawValue) \(text)" } } == [
                "hl-c /* /* */ .Hidden */", "hl-k let", ##"hl-s #"raw \(NotCode) \#(Shown.member)"#"##,
            ])
    }
}

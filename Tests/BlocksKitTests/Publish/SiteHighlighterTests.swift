import Foundation
import Testing

@testable import BlocksKit

/// The build-time Swift highlighter and the site's escaping: colouring never changes a
/// character, and catalog text never becomes markup.
@Suite struct SiteHighlighterTests {
    /// The text of highlighted HTML, as a browser's `textContent` reads it.
    static func text(ofHTML html: String) -> String {
        var text = html.replacing(/<span class="hl-[a-z]">/, with: "").replacing("</span>", with: "")
        for (entity, character) in [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"), ("&amp;", "&")] {
            text = text.replacing(entity, with: character)
        }
        return text
    }

    static func kinds(_ source: String) -> [String: SwiftHighlighter.Token] {
        var kinds: [String: SwiftHighlighter.Token] = [:]
        for (token, text) in SwiftHighlighter.tokens(source) { if let token { kinds[text] = token } }
        return kinds
    }

    @Test func everyCatalogFileComesBackCharacterForCharacter() throws {
        let catalog = repositoryRoot.appendingPathComponent("Catalog")
        var checked = 0
        for block in try FileManager.default.contentsOfDirectory(atPath: catalog.path) {
            let folder = catalog.appendingPathComponent(block)
            for file in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] where file.hasSuffix(".swift") {
                let source = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                #expect(SwiftHighlighter.tokens(source).map(\.1).joined() == source, "\(block)/\(file)")
                #expect(Self.text(ofHTML: SwiftHighlighter.html(source)) == source, "\(block)/\(file)")
                checked += 1
            }
        }
        #expect(checked >= 27)
    }

    @Test func randomSwiftLikeTextComesBackWhole() {
        // Pieces that open and close every token kind, in any order, unclosed ones too.
        let pieces = [
            "\"", "\"\"\"", "#\"", "\"#", "\\(", ")", "(", "/*", "*/", "//", "\n", "@", "#", "0x1F", "1_000.5e3",
            "let", "View", "`default`", "ñandú", "<", "&", "'", " ", "\\", "\t", "é", "🙂", "x",
        ]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<400 {
            let source = (0..<Int.random(in: 0...40, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            #expect(SwiftHighlighter.tokens(source).map(\.1).joined() == source, "\(source.debugDescription)")
            #expect(Self.text(ofHTML: SwiftHighlighter.html(source)) == source, "\(source.debugDescription)")
        }
    }

    @Test func knowsTheSixKinds() {
        let source = """
            @available(iOS 18.0, *)
            struct Strip: View { // a comment
                @State private var count = 0x2A
                let title = "Tab \\(count) of \\("five")"
                /* outer /* nested */ still comment */
                #Preview { Strip() }
                var isOn: Bool { self.default == 1.5e3 }
            }
            """
        let kinds = Self.kinds(source)
        #expect(kinds["@available"] == .attribute)
        #expect(kinds["@State"] == .attribute)
        #expect(kinds["#Preview"] == .attribute)
        #expect(kinds["struct"] == .keyword)
        #expect(kinds["private"] == .keyword)
        #expect(kinds["self"] == .keyword)
        #expect(kinds["Strip"] == .type)
        #expect(kinds["View"] == .type)
        #expect(kinds["Bool"] == .type)
        #expect(kinds["// a comment"] == .comment)
        #expect(kinds["/* outer /* nested */ still comment */"] == .comment)
        #expect(kinds["0x2A"] == .number)
        #expect(kinds["1.5e3"] == .number)
        #expect(kinds["18.0"] == .number)
        #expect(kinds["\"Tab \\(count) of \\(\"five\")\""] == .string)
        // A member after a dot is no keyword, and digits inside a name are no number.
        #expect(kinds["default"] == nil)
        #expect(Self.kinds("let tab2 = x").keys.contains("2") == false)
    }

    @Test func rawAndMultilineStringsEndWhereSwiftEndsThem() {
        let raw = Self.kinds(##"let a = #"say "hi" \(x)"# + b"##)
        #expect(raw[##"#"say "hi" \(x)"#"##] == .string)
        let multiline = Self.kinds("let a = \"\"\"\n  one \"quoted\"\n  \"\"\"\nlet b = 1")
        #expect(multiline["\"\"\"\n  one \"quoted\"\n  \"\"\""] == .string)
        #expect(multiline["1"] == .number)
        // An unclosed string stops at the end of its line, so the next line is code again.
        #expect(Self.kinds("let a = \"open\nlet b = 2")["let"] == .keyword)
        #expect(Self.kinds("let a = \"open\nlet b = 2")["2"] == .number)
    }

    @Test func catalogTextIsEscapedEverywhere() {
        #expect(
            HTMLEscaping.escape("</h1><script>alert('x')</script> & \"q\"") == "&lt;/h1&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;q&quot;")
        #expect(HTMLEscaping.escape("plain text") == "plain text")
        let json = HTMLEscaping.scriptJSON(.object(["b": .string("</script><!-- & \u{2028}"), "a": .array([.int(1), .double(0.25), .bool(true), .null])]))
        #expect(json == #"{"a":[1,0.25,true,null],"b":"\u003c/script\u003e\u003c!-- \u0026 \u2028"}"#)
        #expect(!json.contains("<"))
    }
}

import Foundation
import Testing

@testable import BlocksKit

/// What the site promises readers who use a keyboard, a screen reader or a dark room:
/// text contrast of at least 4.5:1 in both palettes (computed here from the built
/// stylesheet), landmarks and labels on every page, and `lang` on every text.
@Suite struct SiteAccessibilityTests {
    /// Each text colour and the backgrounds it is drawn on, by custom property name.
    static let pairs: [(text: String, backgrounds: [String])] = [
        ("fg", ["bg", "card-bg"]),
        ("muted", ["bg", "card-bg", "code-bg"]),
        ("link", ["bg", "card-bg"]),
        ("badge-fg", ["badge-bg"]),
        ("button-fg", ["button-bg"]),
        ("code-fg", ["code-bg"]),
        ("hl-keyword", ["code-bg"]), ("hl-string", ["code-bg"]), ("hl-comment", ["code-bg"]),
        ("hl-number", ["code-bg"]), ("hl-attribute", ["code-bg"]), ("hl-type", ["code-bg"]),
    ]

    /// The custom properties of the first `:root { … }` after `marker` in the CSS.
    static func palette(_ css: String, after marker: String = "") throws -> [String: String] {
        let start = marker.isEmpty ? css.startIndex : try #require(css.range(of: marker)).upperBound
        let root = try #require(css[start...].range(of: ":root {"))
        let end = try #require(css[root.upperBound...].firstIndex(of: "}"))
        var colours: [String: String] = [:]
        for match in css[root.upperBound..<end].matches(of: /--([a-z-]+):\s*(#[0-9a-fA-F]{6});/) {
            colours[String(match.1)] = String(match.2)
        }
        return colours
    }

    /// WCAG 2's relative luminance of `#rrggbb`.
    static func luminance(_ hex: String) -> Double {
        let value = Int(hex.dropFirst(), radix: 16) ?? 0
        func channel(_ shift: Int) -> Double {
            let c = Double((value >> shift) & 0xFF) / 255
            return c <= 0.03928 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * channel(16) + 0.7152 * channel(8) + 0.0722 * channel(0)
    }

    static func contrast(_ a: String, _ b: String) -> Double {
        let (x, y) = (luminance(a), luminance(b))
        return (max(x, y) + 0.05) / (min(x, y) + 0.05)
    }

    @Test func contrastFormulaMatchesKnownValues() {
        #expect(abs(Self.contrast("#000000", "#ffffff") - 21) < 0.001)
        #expect(abs(Self.contrast("#777777", "#ffffff") - 4.48) < 0.01)
        #expect(Self.contrast("#ffffff", "#ffffff") == 1)
    }

    @Test func everyTextColourHasContrastOfAtLeast4Point5InBothThemes() throws {
        let folder = try TemporaryFolder("site-contrast")
        defer { folder.cleanUp() }
        try SiteFixtures.build(into: folder.url)
        let css = try String(contentsOf: folder.path("assets/site.css"), encoding: .utf8)
        let light = try Self.palette(css)
        let dark = try Self.palette(css, after: "@media (prefers-color-scheme: dark)")
        #expect(Set(light.keys) == Set(dark.keys), "both palettes name the same colours")
        // Every text colour is checked: a property is a background (…bg) or a line
        // (border, focus), or it must be in `pairs`.
        let texts = light.keys.filter { !$0.hasSuffix("bg") && $0 != "border" && $0 != "focus" }
        #expect(Set(texts) == Set(Self.pairs.map(\.text)))
        for (name, palette) in [("light", light), ("dark", dark)] {
            for (text, backgrounds) in Self.pairs {
                for background in backgrounds {
                    let foreground = try #require(palette[text])
                    let behind = try #require(palette[background])
                    let ratio = Self.contrast(foreground, behind)
                    #expect(ratio >= 4.5, "\(name): --\(text) \(foreground) on --\(background) \(behind) is \(ratio)")
                }
            }
            // Focus rings and borders are not text, but must stand out (WCAG 1.4.11: 3:1).
            let focus = try #require(palette["focus"])
            let background = try #require(palette["bg"])
            #expect(Self.contrast(focus, background) >= 3, "\(name) focus")
        }
        // Every syntax colour the highlighter emits has a rule.
        for token in SwiftHighlighter.Token.allCases { #expect(css.contains(".\(token.rawValue) { color: var(--hl-")) }
    }

    @Test func pagesHaveLandmarksLabelsAndLanguages() throws {
        let folder = try TemporaryFolder("site-landmarks")
        defer { folder.cleanUp() }
        try SiteFixtures.build(into: folder.url)
        for path in SiteFixtures.htmlFiles(under: folder.url) {
            let html = try String(contentsOf: folder.url.appendingPathComponent(path), encoding: .utf8)
            func count(_ text: String) -> Int { html.components(separatedBy: text).count - 1 }
            #expect(html.hasPrefix("<!DOCTYPE html>\n<html lang=\"en\">"), "\(path)")
            #expect(count("<main id=\"main\"") == 1, "\(path)")
            #expect(count("<header class=\"site-header\">") == 1 && count("<footer") == 1, "\(path)")
            #expect(count("<h1>") == 1, "\(path)")
            #expect(html.contains("<a class=\"skip\" href=\"#main\">"), "\(path)")
            // Every button says what it is and does, and is a plain button.
            #expect(count("<button") == count("<button type=\"button\""), "\(path)")
            // Both languages of every translated text, each marked with its language.
            #expect(count("class=\"t\" lang=\"en\"") == count("class=\"t\" lang=\"es\""), "\(path)")
            #expect(!html.contains("class=\"t\">"), "\(path): a translated text without lang")
            // Headings never skip a level.
            var level = 1
            for match in html.matches(of: /<h([1-6])[ >]/) {
                let next = Int(String(match.1))!
                #expect(next <= level + 1, "\(path): h\(next) after h\(level)")
                level = next
            }
        }
        let index = try String(contentsOf: folder.path("index.html"), encoding: .utf8)
        #expect(index.contains("<form class=\"search\" role=\"search\""))
        #expect(index.contains("<label for=\"q\">"))
        for select in ["platform", "level", "category"] {
            #expect(index.contains("<label><span class=\"t\" lang=\"en\"") && index.contains("<select id=\"\(select)\""))
        }
        let page = try String(contentsOf: folder.path("blocks/pager/index.html"), encoding: .utf8)
        #expect(page.contains("<nav class=\"breadcrumbs\""))
        #expect(page.contains("<th scope=\"col\">"))
        #expect(page.contains("<pre class=\"code\" tabindex=\"0\""))
    }
}

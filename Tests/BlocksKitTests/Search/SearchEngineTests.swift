import Foundation
import Testing

@testable import BlocksKit

@Suite struct SearchEngineTests {
    func manifest(
        _ name: String, title: String, tags: [String], spanishTags: [String] = [], platforms: [String: String] = ["iOS": "18.0"], level: String = "beginner",
        summary: String = "A block.", api: [String] = []
    ) -> BlockManifest {
        BlockManifest(
            name: name, version: "1.0.0", title: ["en": title, "es": title], summary: ["en": summary, "es": "Un bloque."],
            category: "tabs", platforms: platforms, level: level, origin: "Original work",
            tags: ["en": tags, "es": spanishTags], api: api.map { APIParameter(name: $0, type: "Int", default: nil, description: "") },
            files: [], authors: ["A"], license: "MIT", accessibility: [:])
    }

    var engine: InMemorySearch {
        InMemorySearch(manifests: [
            manifest("strip", title: "Scrolling Strip", tags: ["scrollable tabs", "underline"], spanishTags: ["pestañas desplazables"]),
            manifest("strip-pro", title: "Pro Strip", tags: ["tabs"], platforms: ["iOS": "27.0"], level: "advanced"),
            manifest("pager", title: "Tab Pager", tags: ["swipe", "pages"], spanishTags: ["páginas"], level: "intermediate", api: ["swipeEnabled"]),
            manifest("badge", title: "Badge", tags: ["count"], summary: "Shows a strip of numbers."),
        ])
    }

    func names(_ query: String, _ filters: SearchEngine.Filters = .init()) -> [String] {
        engine.search(query, filters: filters).hits.map(\.manifest.name)
    }

    @Test func exactNameThenPrefixThenTitleThenSummary() {
        #expect(names("strip") == ["strip", "strip-pro", "badge"])
        #expect(names("strip-pro").first == "strip-pro")
    }

    @Test func accentsCaseAndTypos() {
        #expect(names("PESTANAS") == ["strip"])
        #expect(names("pestañas") == ["strip"])
        #expect(names("scroling") == ["strip"])  // one edit, 8 letters
        #expect(names("paginas").first == "pager")  // accent folded
        #expect(names("pagre").first == "pager")  // one edit in a 5-letter word
        #expect(names("xyz").isEmpty)  // 3 letters: no typos allowed
    }

    @Test func typoBudgetGrowsWithWordLength() {
        #expect(SearchEngine.matchQuality(query: "swipe", word: "swipe") == 1)
        #expect(SearchEngine.matchQuality(query: "swi", word: "swipe") == 0.8)
        #expect(SearchEngine.matchQuality(query: "swipr", word: "swipe") > 0)
        #expect(SearchEngine.matchQuality(query: "swxpr", word: "swipe") == 0)
        #expect(SearchEngine.matchQuality(query: "undarlime", word: "underline") > 0)  // 9 letters: two edits
        #expect(SearchEngine.matchQuality(query: "pagre", word: "pager") > 0)  // a swap is one edit
        #expect(SearchEngine.matchQuality(query: "pagxx", word: "pager") == 0)
        #expect(SearchEngine.matchQuality(query: "cat", word: "bat") == 0)
    }

    @Test func apiParameterNamesAreSearchable() {
        #expect(names("swipeEnabled") == ["pager"])
        #expect(names("enabled") == ["pager"])
    }

    @Test func severalWordsNarrowAndFallBack() {
        let narrowed = engine.search("tabs underline")
        #expect(narrowed.hits.map(\.manifest.name) == ["strip"])
        #expect(!narrowed.isPartial)
        let partial = engine.search("underline zzzzzzzz")
        #expect(partial.isPartial)
        #expect(partial.hits.map(\.manifest.name) == ["strip"])
    }

    @Test func filters() {
        let ios18 = PlatformFilter("ios18")
        #expect(names("strip", .init(platform: ios18)) == ["strip", "badge"])
        #expect(names("", .init(platform: PlatformFilter("iOS 27"))).count == 4)
        #expect(names("", .init(level: "intermediate")) == ["pager"])
        #expect(names("", .init(tag: "Páginas")) == ["pager"])
        #expect(names("", .init(category: "other")).isEmpty)
        #expect(engine.search("", limit: 2).hits.count == 2)
    }

    @Test func platformSpellings() {
        for spelling in ["ios18", "iOS 18", "ios18.0", "IOS18.0.0"] {
            let filter = PlatformFilter(spelling)
            #expect(filter?.platform == "iOS")
            #expect(filter?.accepts(["iOS": "18.0"]) == true)
            #expect(filter?.accepts(["iOS": "18.1"]) == false)
            #expect(filter?.accepts(["macOS": "14.0"]) == false)
        }
        #expect(PlatformFilter("ipados18")?.accepts(["iOS": "17.0"]) == true)
        #expect(PlatformFilter("android14") == nil)
        #expect(PlatformFilter("ios") == nil)
        #expect(PlatformFilter("ios18.x") == nil)
    }

    @Test func suggestionsForNothingFound() {
        #expect(engine.suggestions(for: "pagr").contains("pager"))
    }
}

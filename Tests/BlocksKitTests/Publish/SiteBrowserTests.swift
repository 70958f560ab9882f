import Foundation
import Testing

@testable import BlocksKit

/// The built site in a real headless Chromium, from `file://` and over a real nginx on
/// loopback: typing in the search box, filtering, switching language, copying code, the
/// keyboard, the dark theme, and that no request leaves the site. Skipped (with the
/// reason) only where Chromium is not installed and CI is not set.
@Suite(.serialized, .enabled(if: Chromium.shouldRun, "chromium is not installed: run Scripts/install-deps (Debian package chromium)"))
struct SiteBrowserTests {
    /// One site for the whole suite: the repository's catalog, built with --site.
    static let site: URL = {
        let folder = perProcessFolder("blocks-site-browser")
        if !FileManager.default.fileExists(atPath: folder.appendingPathComponent("site.json").path) {
            try? FileManager.default.removeItem(at: folder)
            _ = try? SiteFixtures.build(into: folder)
        }
        return folder
    }()

    /// The catalog's blocks with the names in their code, which the page searches too.
    static let blocks: [SearchableBlock] = {
        ((try? CatalogSource.folder(repositoryRoot.appendingPathComponent("Catalog")).searchableBlocks()) ?? []).sorted { $0.manifest.name < $1.manifest.name }
    }()
    static var manifests: [BlockManifest] { blocks.map(\.manifest) }

    static var fileURL: String { "file://" + site.path }

    /// The names `blocks search` ranks for a query, best first.
    static func commandLineNames(_ query: String, filters: SearchEngine.Filters = SearchEngine.Filters()) -> [String] {
        InMemorySearch(blocks: blocks).search(query, filters: filters).hits.map(\.manifest.name)
    }

    /// The ids of the cards a reader sees, in the order shown.
    static let visibleCards = "Array.from(document.querySelectorAll('#cards > li')).filter(e => !e.hidden && e.offsetParent !== null).map(e => e.id.slice(6))"

    static func choose(_ select: String, _ value: String) -> [String: Any] {
        [
            "eval":
                "(() => { const s = document.getElementById('\(select)'); s.value = '\(value)'; s.dispatchEvent(new Event('change', {bubbles: true})); return s.value; })()"
        ]
    }

    static func expectClean(_ outcome: Chromium.Outcome, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(outcome.failure == nil, "\(outcome.failure ?? "")", sourceLocation: sourceLocation)
        #expect(outcome.exceptions.isEmpty, "\(outcome.exceptions)", sourceLocation: sourceLocation)
        #expect(outcome.consoleErrors.isEmpty, "\(outcome.consoleErrors)", sourceLocation: sourceLocation)
    }

    @Test func fromFileTheSearchBoxFiltersAndLanguageSwitchWork() throws {
        let index = Self.fileURL + "/index.html"
        let outcome = try Chromium.run([
            ["open": index],
            ["eval": Self.visibleCards, "name": "all"],
            ["type": "pestanas", "selector": "#q"],
            ["eval": Self.visibleCards, "name": "pestanas"],
            ["eval": "document.querySelector('#status [lang=en]').textContent", "name": "status"],
            ["eval": "document.getElementById('q').select()"],
            ["type": "scroling", "selector": "#q"],
            ["eval": Self.visibleCards, "name": "scroling"],
            Self.choose("level", "beginner"),
            ["eval": Self.visibleCards, "name": "scrolingBeginner"],
            ["eval": "document.getElementById('q').select()"],
            ["key": "Backspace"],
            Self.choose("level", ""),
            Self.choose("platform", "iOS 18"),
            ["eval": Self.visibleCards, "name": "ios18"],
            Self.choose("platform", ""),
            ["eval": "document.querySelector('h1').innerText", "name": "englishHeading"],
            ["click": "[data-set-lang=es]"],
            ["eval": "document.documentElement.lang", "name": "lang"],
            ["eval": "document.querySelector('h1').innerText", "name": "spanishHeading"],
            ["eval": "document.getElementById('q').placeholder", "name": "placeholder"],
            ["eval": "document.querySelector('#level option').textContent", "name": "anyLevel"],
            ["eval": "document.title", "name": "title"],
            ["eval": "document.querySelector('[data-set-lang=es]').getAttribute('aria-pressed')", "name": "pressed"],
            // The choice is remembered on the next page.
            ["open": Self.fileURL + "/blocks/pager/index.html"],
            ["eval": "document.documentElement.lang", "name": "langOnPage"],
            ["eval": "document.querySelector('h1').innerText", "name": "pageHeading"],
            ["eval": "document.querySelectorAll('section[aria-labelledby=api] tbody tr').length", "name": "apiRows"],
            ["eval": "['hl-k','hl-s','hl-c','hl-n','hl-a','hl-t'].map(c => document.querySelectorAll('#file-1 .' + c).length)", "name": "highlighted"],
            [
                "eval": "getComputedStyle(document.querySelector('#file-1 .hl-k')).color !== getComputedStyle(document.querySelector('#file-1')).color",
                "name": "coloured",
            ],
        ])
        Self.expectClean(outcome)
        let names = Self.manifests.map(\.name)
        #expect(outcome.strings("all") == names)
        #expect(outcome.strings("pestanas") == Self.commandLineNames("pestanas"))
        #expect(outcome.strings("pestanas").count == names.count)
        #expect(outcome.string("status") == "\(names.count) blocks")
        #expect(outcome.strings("scroling") == Self.commandLineNames("scroling"))
        #expect(outcome.strings("scroling").first == "scrolling-strip")
        #expect(outcome.strings("scrolingBeginner") == Self.commandLineNames("scroling", filters: .init(level: "beginner")))
        #expect(outcome.strings("ios18") == Self.commandLineNames("", filters: .init(platform: PlatformFilter("ios18"))))
        #expect(!outcome.strings("ios18").isEmpty && outcome.strings("ios18").count < names.count)
        #expect(outcome.string("englishHeading") == "blocks: SwiftUI blocks")
        #expect(outcome.string("lang") == "es")
        #expect(outcome.string("spanishHeading") == "blocks: bloques de SwiftUI")
        #expect(outcome.string("placeholder") == SiteText.searchPlaceholder.es)
        #expect(outcome.string("anyLevel") == "Cualquier nivel")
        #expect(outcome.string("title") == "Bloques de SwiftUI · blocks")
        #expect(outcome.string("pressed") == "true")
        #expect(outcome.string("langOnPage") == "es")
        let pager = try #require(Self.manifests.first { $0.name == "pager" })
        #expect(outcome.string("pageHeading") == pager.title["es"])
        #expect(outcome.int("apiRows") == pager.api.count)
        let highlighted = outcome.value("highlighted")?.array ?? []
        #expect(highlighted.count == 6)
        #expect(highlighted.allSatisfy { if case .int(let count) = $0 { return count > 0 } else { return false } }, "\(highlighted)")
        #expect(outcome.value("coloured") == .bool(true))
        #expect(outcome.requests.allSatisfy { $0.hasPrefix("file://" + Self.site.path + "/") }, "\(outcome.requests)")
    }

    @Test func overNginxCopyGivesTheExactSourceAndNothingLeavesLoopback() throws {
        let nginx = try Nginx(root: Self.site)
        defer { nginx.stop() }
        let outcome = try Chromium.run([
            ["open": nginx.url("index.html")],
            ["eval": "document.querySelectorAll('#cards > li').length", "name": "cards"],
            ["click": "#block-pager h3 a"],
            ["wait": "location.pathname === '/blocks/pager/index.html' && document.readyState === 'complete'"],
            ["click": "[data-copy=file-1]"],
            ["wait": "document.getElementById('file-1-status').textContent !== ''"],
            ["clipboard": "file1"],
            ["eval": "document.getElementById('file-1-status').textContent", "name": "said"],
            ["click": "[data-copy=add-command]"],
            ["wait": "document.getElementById('add-command-status').textContent !== ''"],
            ["clipboard": "add"],
            [
                "eval": "Array.from(document.querySelectorAll('.downloads li')).map(li => [li.querySelector('a').href, li.querySelector('.sha').textContent])",
                "name": "downloads",
            ],
        ])
        Self.expectClean(outcome)
        #expect(outcome.int("cards") == Self.manifests.count)
        let pager = try #require(Self.manifests.first { $0.name == "pager" })
        let shipped = try Archives.read(Self.site.appendingPathComponent("archives/pager-\(pager.version).tar.gz")).files
        let first = try #require(pager.files.first)
        #expect(outcome.string("file1") == String(decoding: try #require(shipped[first.path]), as: UTF8.self))
        #expect(outcome.string("said") == "Copied")
        #expect(outcome.string("add") == "blocks add pager")

        // Each download link serves the archive whose SHA-256 the page shows.
        let downloads = outcome.value("downloads")?.array ?? []
        #expect(downloads.count == 2)
        for item in downloads {
            let pair = item.strings ?? []
            let response = try CurlTransport(settings: fastTransferSettings).get(HTTPRequest(url: try #require(pair.first)))
            #expect(response.status == 200)
            #expect(SHA256.hex(response.body) == pair.last)
        }

        // Every request the page made went to this nginx, and nginx served each one.
        #expect(!outcome.requests.isEmpty)
        #expect(outcome.requests.allSatisfy { $0.hasPrefix(nginx.baseURL + "/") }, "\(outcome.requests)")
        let lines = nginx.requests(atLeast: outcome.requests.count).map(\.line)
        #expect(lines.count >= outcome.requests.count)
        for line in lines {
            #expect(line.hasPrefix("127.0.0.1 "), "\(line)")
            #expect(line.contains("\" 200 ") || line.contains("\" 304 "), "\(line)")
        }
    }

    @Test func pageSearchRanksLikeTheCommandLine() throws {
        let queries =
            try RelevanceTableTests.rows().map(\.query) + [
                "", "pestañas para ipad", "TABS", "Pestañas", "pagre", "tab bar", "zzzz nothing", "xzpager", "segmentd-pil", "zzzz",
            ]
        let filtered: [(query: String, filters: [String: String], engine: SearchEngine.Filters)] = [
            ("tabs", ["platform": "iOS 17"], .init(platform: PlatformFilter("ios17"))),
            ("pestanas", ["platform": "iPadOS 18"], .init(platform: PlatformFilter("ipados18"))),
            ("tabs", ["level": "intermediate"], .init(level: "intermediate")),
            ("", ["category": "tabs", "level": "beginner"], .init(level: "beginner", category: "tabs")),
            ("scroling", ["category": "nothing"], .init(category: "nothing")),
            ("", ["tag": "ipad"], .init(tag: "ipad")),
            ("tabs", ["tag": "Pestañas", "level": "beginner"], .init(level: "beginner", tag: "Pestañas")),
            ("pager", ["tag": "badges"], .init(tag: "badges")),
        ]
        let data = try JSONSerialization.data(withJSONObject: queries)
        let cases = try JSONSerialization.data(withJSONObject: filtered.map { ["q": $0.query, "f": $0.filters] as [String: Any] })
        let outcome = try Chromium.run([
            ["open": Self.fileURL + "/index.html"],
            ["eval": "\(String(decoding: data, as: UTF8.self)).map(q => window.blocksSearch(q))", "name": "plain"],
            ["eval": "\(String(decoding: cases, as: UTF8.self)).map(c => window.blocksSearch(c.q, c.f))", "name": "filtered"],
        ])
        Self.expectClean(outcome)
        let engine = InMemorySearch(blocks: Self.blocks)
        func compare(_ page: JSONValue?, _ query: String, _ filters: SearchEngine.Filters) {
            let expected = engine.search(query, filters: filters)
            #expect(page?["names"]?.strings == expected.hits.map(\.manifest.name), "'\(query)'")
            #expect(page?["partial"] == .bool(expected.isPartial), "'\(query)' partial")
            let suggested = expected.hits.isEmpty ? engine.suggestions(for: query) : []
            #expect(page?["suggestions"]?.strings == suggested, "'\(query)' suggestions")
        }
        let plain = outcome.value("plain")?.array ?? []
        #expect(plain.count == queries.count)
        for (query, page) in zip(queries, plain) { compare(page, query, SearchEngine.Filters()) }
        let pages = outcome.value("filtered")?.array ?? []
        #expect(pages.count == filtered.count)
        for (item, page) in zip(filtered, pages) { compare(page, item.query, item.engine) }

        // And the real command line on the built registry agrees on a filtered query.
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_CACHE_HOME"] = testCacheFolder.path
        let cli = try runBinary(["--registry", Self.site.path, "--json", "search", "pestanas", "--platform", "ios18"], environment: environment)
        let results = try JSONDecoder().decode(JSONValue.self, from: Data(cli.out.utf8))["results"]?.objects ?? []
        #expect(results.map { $0["name"]?.string ?? "" } == Self.commandLineNames("pestanas", filters: .init(platform: PlatformFilter("ios18"))))
        #expect(!results.isEmpty)
    }

    @Test func aSearchThatFindsNothingSuggestsANameAndTheTagFilterNarrows() throws {
        let suggestions = "Array.from(document.querySelectorAll('#suggestion-list [data-suggest]')).map(e => e.textContent)"
        let outcome = try Chromium.run([
            ["open": Self.fileURL + "/index.html"],
            ["eval": "document.getElementById('suggestions').hidden", "name": "hiddenAtFirst"],
            ["type": "xzpager", "selector": "#q"],
            ["eval": Self.visibleCards, "name": "nothing"],
            ["eval": suggestions, "name": "suggested"],
            ["eval": "document.querySelector('#suggestion-list [data-suggest]').click()"],
            ["eval": "document.getElementById('q').value", "name": "query"],
            ["eval": Self.visibleCards, "name": "afterClick"],
            ["eval": "document.getElementById('suggestions').hidden", "name": "hiddenAfter"],
            ["eval": "document.getElementById('q').select()"],
            ["key": "Backspace"],
            Self.choose("tag", "ipad"),
            ["eval": Self.visibleCards, "name": "ipad"],
        ])
        Self.expectClean(outcome)
        #expect(outcome.value("hiddenAtFirst") == .bool(true))
        #expect(outcome.strings("nothing").isEmpty)
        #expect(outcome.strings("suggested") == ["pager"])
        #expect(outcome.string("query") == "pager")
        #expect(outcome.strings("afterClick") == Self.commandLineNames("pager"))
        #expect(outcome.strings("afterClick").first == "pager")
        #expect(outcome.value("hiddenAfter") == .bool(true))
        let ipad = Self.commandLineNames("", filters: .init(tag: "ipad"))
        #expect(outcome.strings("ipad") == ipad)
        #expect(!ipad.isEmpty && ipad.count < Self.manifests.count)
    }

    @Test func theKeyboardReachesEveryControlAndFocusIsVisible() throws {
        let describe = """
            (() => { const e = document.activeElement; const s = getComputedStyle(e); const r = e.getBoundingClientRect();
              return [(e.closest('.card') && e.closest('.card').id) || e.id || e.getAttribute('data-set-lang') || e.getAttribute('data-copy') || e.className || e.tagName,
                      s.outlineStyle, s.outlineWidth, r.top >= 0 && r.bottom <= innerHeight + 1]; })()
            """
        var steps: [[String: Any]] = [["open": Self.fileURL + "/index.html"]]
        for press in 0..<12 { steps += [["key": "Tab"], ["eval": describe, "name": "index\(press)"]] }
        // Enter on a card's link opens the block's page.
        steps += [
            ["eval": "document.querySelector('#block-adaptive-tabs a').focus()"], ["key": "Enter"],
            ["wait": "location.pathname.endsWith('/blocks/adaptive-tabs/index.html') && document.readyState === 'complete'"],
        ]
        for press in 0..<8 { steps += [["key": "Tab"], ["eval": describe, "name": "page\(press)"]] }
        // The language switch works from the keyboard too.
        steps += [
            ["eval": "document.querySelector('[data-set-lang=es]').focus()"], ["key": "Enter"], ["eval": "document.documentElement.lang", "name": "lang"],
        ]
        let outcome = try Chromium.run(steps)
        Self.expectClean(outcome)
        func focused(_ prefix: String, _ count: Int) -> [[String]] {
            (0..<count).compactMap { press in
                outcome.value("\(prefix)\(press)")?.array?.map { value -> String in
                    if case .bool(let flag) = value { return flag ? "visible" : "offscreen" }
                    return value.string ?? ""
                }
            }
        }
        let index = focused("index", 12)
        let reached = index.map { $0[0] }
        for control in ["skip", "site-name", "en", "es", "q", "platform", "level", "category", "block-adaptive-tabs", "block-floating-tab-bar"] {
            #expect(reached.contains(control), "\(control) not reached by Tab: \(reached)")
        }
        let page = focused("page", 8)
        #expect(page.map { $0[0] }.contains("add-command"), "\(page)")
        for stop in index + page {
            #expect(stop[1] != "none" && stop[2] != "0px", "\(stop[0]) has no visible focus: \(stop)")
            #expect(stop[3] == "visible", "\(stop[0]) is focused off screen")
        }
        #expect(outcome.string("lang") == "es")
    }

    @Test func darkThemeFollowsTheSystemAndScreenshotsAreTaken() throws {
        let record = ProcessInfo.processInfo.environment["BLOCKS_RECORD_SCREENSHOTS"] == "1"
        let folder = record ? repositoryRoot.appendingPathComponent("docs") : try Loopback.temporaryFolder("shots")
        defer { if !record { try? FileManager.default.removeItem(at: folder) } }
        let background = "getComputedStyle(document.body).backgroundColor"
        let shots = ["site-index.png", "site-block.png", "site-dark-es.png"].map { folder.appendingPathComponent($0).path }
        let outcome = try Chromium.run([
            ["viewport": [1200, 900]],
            ["open": Self.fileURL + "/index.html"],
            ["eval": background, "name": "light"],
            ["type": "pestañas ipad", "selector": "#q"],
            ["screenshot": shots[0]],
            ["open": Self.fileURL + "/blocks/scrolling-strip/index.html"],
            ["eval": "document.getElementById('files').scrollIntoView()"],
            ["screenshot": shots[1]],
            ["darkMode": true],
            ["open": Self.fileURL + "/index.html"],
            ["click": "[data-set-lang=es]"],
            ["eval": background, "name": "dark"],
            ["screenshot": shots[2]],
        ])
        Self.expectClean(outcome)
        #expect(outcome.string("light") == "rgb(255, 255, 255)")
        #expect(outcome.string("dark") == "rgb(13, 17, 23)")
        for shot in shots {
            let data = try #require(FileManager.default.contents(atPath: shot))
            #expect(data.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]), "\(shot) is no PNG")
            #expect(data.count > 20_000, "\(shot) looks empty")
        }
    }

    @Test func aLargeCatalogShowsAPageOfCardsAndMakesTheRestFromTheData() throws {
        let folder = try TemporaryFolder("site-large")
        defer { folder.cleanUp() }
        let catalog = try RegistryFixtures.writeCatalog(in: folder, count: 250)
        let output = folder.path("public")
        try SiteFixtures.build(catalog: catalog, into: output)
        let index = output.appendingPathComponent("index.html")
        let list = output.appendingPathComponent("all-blocks.html")
        #expect(try SiteFixtures.html5libErrors([index, list]) == "")
        let html = try String(contentsOf: index, encoding: .utf8)
        // Without a script every block is still linked, from the list page the noscript names.
        #expect(html.components(separatedBy: "<li class=\"card\"").count - 1 == SitePages.staticCards)
        #expect(html.contains("<noscript>\n<p>") && html.contains("<a href=\"all-blocks.html\">"))
        #expect(!html.contains("block-0249/index.html"))
        let listHTML = try String(contentsOf: list, encoding: .utf8)
        #expect(listHTML.components(separatedBy: "<li><a href=").count - 1 == 250)
        let count = "document.querySelectorAll('#cards > li').length"
        let links = "[document.querySelectorAll('.all-blocks a').length, document.querySelector('.all-blocks a').href]"
        let listed = try Chromium.run([["open": "file://" + list.path], ["eval": links, "name": "links"]])
        Self.expectClean(listed)
        #expect(listed.value("links") == .array([.int(250), .string("file://" + output.path + "/blocks/block-0000/index.html")]))
        let outcome = try Chromium.run([
            ["open": "file://" + index.path],
            ["eval": "[\(count), document.getElementById('more').hidden]", "name": "start"],
            ["click": "#more"],
            ["eval": "[\(count), document.getElementById('more').hidden]", "name": "second"],
            ["click": "#more"],
            ["eval": "[\(count), document.getElementById('more').hidden]", "name": "third"],
            ["type": "block 240", "selector": "#q"],
            ["eval": Self.visibleCards, "name": "found"],
            ["eval": "document.getElementById('block-block-0240').outerHTML", "name": "made"],
            ["eval": "document.querySelector('#status [lang=en]').textContent", "name": "status"],
        ])
        Self.expectClean(outcome)
        #expect(outcome.value("start") == .array([.int(SitePages.staticCards), .bool(false)]))
        #expect(outcome.value("second") == .array([.int(2 * SitePages.staticCards), .bool(false)]))
        #expect(outcome.value("third") == .array([.int(250), .bool(true)]))
        let manifests = try CatalogSource.folder(catalog).manifests()
        let expected = InMemorySearch(blocks: try CatalogSource.folder(catalog).searchableBlocks()).search("block 240").hits.map(\.manifest.name)
        #expect(outcome.strings("found") == expected)
        #expect(outcome.strings("found").first == "block-0240")
        // A card made in the page is the very card the build writes.
        let manifest = try #require(manifests.first { $0.name == "block-0240" })
        #expect(outcome.string("made") == SitePages.card(manifest))
        #expect(outcome.string("status") == (expected.count == 1 ? "1 block" : "\(expected.count) blocks"))
    }

    /// The page marks when its first results are shown (`blocks-first-results`), which
    /// `Scripts/bench/site.py` times against the 200 ms goal: speed is the benchmark's to
    /// judge, not a test's on a busy machine. Here: every load marks it, with the cards drawn.
    @Test func everyLoadMarksItsFirstResultsWithTheCardsShown() throws {
        var steps: [[String: Any]] = []
        for load in 0..<3 {
            steps += [
                ["open": Self.fileURL + "/index.html?load=\(load)"],
                [
                    "eval":
                        "[performance.getEntriesByName('blocks-first-results')[0].startTime, (performance.getEntriesByName('first-contentful-paint')[0] || {startTime: 0}).startTime, document.querySelectorAll('#cards > li:not([hidden])').length]",
                    "name": "load\(load)",
                ],
            ]
        }
        let outcome = try Chromium.run(steps)
        Self.expectClean(outcome)
        for load in 0..<3 {
            let values = outcome.value("load\(load)")?.array ?? []
            guard values.count == 3, case .int(let shown) = values[2] else {
                Issue.record("load \(load): \(values)")
                continue
            }
            #expect(shown == Self.manifests.count)
            let ready: Double
            switch values[0] {
            case .double(let value): ready = value
            case .int(let value): ready = Double(value)
            default: ready = .infinity
            }
            #expect(ready.isFinite && ready > 0, "load \(load): \(values)")
        }
    }
}

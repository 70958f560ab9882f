import Foundation
import Testing

@testable import BlocksKit

/// `blocks build --site` with the real binary: what it writes, that it writes the same
/// bytes for the same input, that a rebuild rewrites only what changed, and that every
/// page is valid HTML naming nothing outside the site.
@Suite struct SiteBuildTests {
    static let catalogNames = [
        "adaptive-tabs", "floating-tab-bar", "pager", "picker-pages", "scrolling-strip",
        "search-tab-view", "segmented-pill", "sticky-header-tabs", "top-tabs",
    ]

    static func isSiteFile(_ path: String) -> Bool {
        path.hasSuffix(".html") || path.hasPrefix("assets/") || path == SiteBuilder.manifestPath
    }

    static func contents(_ root: URL, _ path: String) -> Data? {
        FileManager.default.contents(atPath: root.appendingPathComponent(path).path)
    }

    static func inode(_ url: URL) -> UInt64? {
        var info = stat()
        return stat(url.path, &info) == 0 ? UInt64(info.st_ino) : nil
    }

    @Test func writesTheSiteBesideAnUnchangedRegistry() throws {
        let folder = try TemporaryFolder("site-build")
        defer { folder.cleanUp() }
        let withSite = folder.path("with")
        let without = folder.path("without")
        let output = try SiteFixtures.build(into: withSite, json: true)
        try SiteFixtures.build(into: without, site: false)

        let report = try JSONDecoder().decode(JSONValue.self, from: Data(output.utf8))
        #expect(report["site"]?["written"] == .int(Self.catalogNames.count + 5))
        #expect(report["site"]?["index"]?.string == withSite.appendingPathComponent("index.html").path)

        let files = SiteFixtures.files(under: withSite)
        let expectedSite =
            ["all-blocks.html", "assets/search-data.js", "assets/site.css", "assets/site.js", "index.html", "site.json"]
            + Self.catalogNames.map { "blocks/\($0)/index.html" }
        #expect(files.filter(Self.isSiteFile) == expectedSite.sorted())
        // Without --site nothing changes: the registry is the same files with the same bytes.
        let registry = files.filter { !Self.isSiteFile($0) }
        #expect(registry == SiteFixtures.files(under: without))
        for path in registry { #expect(Self.contents(withSite, path) == Self.contents(without, path), "\(path)") }
        #expect(!FileManager.default.fileExists(atPath: without.appendingPathComponent("index.html").path))
    }

    @Test func siteManifestListsEveryFileWithItsDigest() throws {
        let folder = try TemporaryFolder("site-manifest")
        defer { folder.cleanUp() }
        try SiteFixtures.build(into: folder.url)
        let data = try #require(Self.contents(folder.url, "site.json"))
        let manifest = try #require(SiteBuilder.decodeManifest(data))
        #expect(manifest.generator == SiteBuilder.generator)
        let listed = manifest.files.map(\.path)
        #expect(listed == SiteFixtures.files(under: folder.url).filter { Self.isSiteFile($0) && $0 != "site.json" })
        for file in manifest.files {
            let data = try #require(Self.contents(folder.url, file.path))
            #expect(SHA256.hex(data) == file.sha256, "\(file.path)")
            #expect(Int64(data.count) == file.size, "\(file.path)")
        }
    }

    @Test func sameInputGivesTheSameBytesFreshOrRebuilt() throws {
        let folder = try TemporaryFolder("site-reproducible")
        defer { folder.cleanUp() }
        let first = folder.path("first")
        let second = folder.path("second")
        let later = folder.path("later")
        try SiteFixtures.build(into: first)
        try SiteFixtures.build(into: second)
        // A registry first built without a site, then given one: the pages come from its archives.
        try SiteFixtures.build(into: later, site: false)
        let addedSite = try SiteFixtures.build(into: later, json: true)
        let addedReport = try JSONDecoder().decode(JSONValue.self, from: Data(addedSite.utf8))
        #expect(addedReport["site"]?["written"] == .int(Self.catalogNames.count + 5))

        let files = SiteFixtures.files(under: first)
        #expect(files == SiteFixtures.files(under: second))
        #expect(files == SiteFixtures.files(under: later))
        for path in files {
            #expect(Self.contents(first, path) == Self.contents(second, path), "\(path)")
            #expect(Self.contents(first, path) == Self.contents(later, path), "\(path)")
        }
        // Building again changes nothing: every site file is kept as it is.
        let before = files.filter(Self.isSiteFile).map { Self.inode(first.appendingPathComponent($0)) }
        let again = try JSONDecoder().decode(JSONValue.self, from: Data(try SiteFixtures.build(into: first, json: true).utf8))
        #expect(again["site"]?["written"] == .int(0))
        #expect(again["site"]?["unchanged"] == .int(Self.catalogNames.count + 5))
        #expect(files.filter(Self.isSiteFile).map { Self.inode(first.appendingPathComponent($0)) } == before)
    }

    @Test func rebuildRewritesOnlyThePagesOfChangedBlocks() throws {
        let folder = try TemporaryFolder("site-rebuild")
        defer { folder.cleanUp() }
        let catalog = try SiteFixtures.copyOfCatalog(in: folder.url)
        let output = folder.path("public")
        try SiteFixtures.build(catalog: catalog, into: output)
        let siteFiles = SiteFixtures.files(under: output).filter(Self.isSiteFile)
        let before = Dictionary(uniqueKeysWithValues: siteFiles.map { ($0, Self.inode(output.appendingPathComponent($0))) })

        let manifestFile = catalog.appendingPathComponent("pager/block.json")
        var manifest = try #require(BlockManifest.decode(try Data(contentsOf: manifestFile)))
        manifest.version = "1.1.0"
        manifest.summary["en"] = "Swipeable pages under a tab bar, now with a new summary line."
        try StableJSON.data(manifest.jsonValue).write(to: manifestFile)
        try SiteFixtures.build(catalog: catalog, into: output)

        let changed = siteFiles.filter { Self.inode(output.appendingPathComponent($0)) != before[$0] }
        #expect(changed == ["assets/search-data.js", "blocks/pager/index.html", "index.html", "site.json"])
        let page = String(decoding: try #require(Self.contents(output, "blocks/pager/index.html")), as: UTF8.self)
        #expect(page.contains("now with a new summary line"))
        // The versions table lists the new version first, then the one published before.
        let newer = try #require(page.range(of: "<th scope=\"row\">1.1.0</th>"))
        let older = try #require(page.range(of: "<th scope=\"row\">1.0.0</th>"))
        #expect(newer.lowerBound < older.lowerBound)
        #expect(page.contains("archives/pager-1.0.0.tar.gz"))
    }

    @Test func everyPageIsValidHTML() throws {
        let folder = try TemporaryFolder("site-valid")
        defer { folder.cleanUp() }
        try SiteFixtures.build(into: folder.url)
        let pages = SiteFixtures.htmlFiles(under: folder.url).map { folder.url.appendingPathComponent($0) }
        #expect(pages.count == Self.catalogNames.count + 2)
        #expect(try SiteFixtures.html5libErrors(pages) == "")
        #expect(try SiteFixtures.tidyReports(pages) == "")

        // Both validators do catch a broken page.
        let broken = folder.path("broken.html")
        try Data("<!DOCTYPE html><html lang=\"en\"><head><title>x</title></head><body><p><div>x</p></span><blink>y</blink></body></html>".utf8).write(
            to: broken)
        #expect(try SiteFixtures.html5libErrors([broken]) != "")
        #expect(try SiteFixtures.tidyReports([broken]) != "")
    }

    @Test func nothingNamesAPlaceOutsideTheSiteAndEveryLinkResolves() throws {
        let folder = try TemporaryFolder("site-links")
        defer { folder.cleanUp() }
        try SiteFixtures.build(into: folder.url)
        let siteFiles = SiteFixtures.files(under: folder.url).filter(Self.isSiteFile)
        var links = 0
        for path in siteFiles {
            let text = String(decoding: try #require(Self.contents(folder.url, path)), as: UTF8.self)
            // No address of any other place: no scheme, no protocol-relative URL, no import.
            #expect(text.firstMatch(of: /\b(?:https?|ftp|wss?):/) == nil, "\(path) names a URL")
            for pattern in [
                "@import", "url(", "src=\"//", "href=\"//", "fetch(", "XMLHttpRequest", "WebSocket", "EventSource", "sendBeacon", "<iframe",
                "<link rel=\"preconnect",
            ] {
                #expect(!text.contains(pattern), "\(path) contains \(pattern)")
            }
            guard path.hasSuffix(".html") else { continue }
            let base = folder.url.appendingPathComponent(path).deletingLastPathComponent()
            for match in text.matches(of: /(?:href|src)="([^"]*)"/) {
                let target = String(match.1)
                if target == "data:," || target.hasPrefix("#") { continue }
                links += 1
                let resolved = base.appendingPathComponent(String(target.split(separator: "#").first ?? "")).standardizedFileURL
                #expect(resolved.path.hasPrefix(folder.url.standardizedFileURL.path + "/"), "\(path): \(target) leaves the site")
                #expect(FileManager.default.fileExists(atPath: resolved.path), "\(path): \(target) is missing")
            }
        }
        #expect(links > 50)
    }

    @Test func catalogTextNeverBecomesMarkup() throws {
        let folder = try TemporaryFolder("site-hostile")
        defer { folder.cleanUp() }
        let catalog = folder.path("Catalog")
        let hostile = "</h1><script>alert(1)</script><img src=x onerror=alert(2)>"
        try folder.write(
            "Catalog/evil-tabs/block.json",
            sampleManifestJSON(
                name: "evil-tabs", titleEnglish: hostile, titleSpanish: "\"quoted\" & <b>bold</b>",
                tagsEnglish: ["tabs", "<iframe>"], tagsSpanish: ["pestañas", "</script>"]))
        try folder.write("Catalog/evil-tabs/Sample.swift", "import SwiftUI\n// </script><script>alert(3)</script>\nlet s = \"<img src=x>\"\n")
        try SiteFixtures.build(catalog: catalog, into: folder.path("public"))
        let index = folder.path("public/index.html")
        let page = folder.path("public/blocks/evil-tabs/index.html")
        let data = try String(contentsOf: folder.path("public/assets/search-data.js"), encoding: .utf8)
        #expect(!data.contains("<script") && !data.contains("<img") && !data.contains("<iframe"))
        #expect(try SiteFixtures.html5libErrors([index, page]) == "")
        for file in [index, page] {
            let text = try String(contentsOf: file, encoding: .utf8)
            #expect(!text.contains("<script>alert"))
            #expect(!text.contains("<img"))
            #expect(!text.contains("<iframe"))
            #expect(text.contains("&lt;/h1&gt;&lt;script&gt;alert(1)&lt;/script&gt;"))
            // Only the site's own scripts: the head's and site.js (the search data is a file).
            #expect(text.components(separatedBy: "<script").count - 1 == 2)
        }
    }
}

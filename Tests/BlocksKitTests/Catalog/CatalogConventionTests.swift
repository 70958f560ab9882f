import Foundation
import Testing

@testable import BlocksKit

/// What every block in `Catalog/` promises beyond its manifest's shape: availability that
/// matches its platforms, logic free of SwiftUI, a preview, no license header (the tool
/// adds it), no force unwraps, and tags people search for in both languages.
@Suite struct CatalogConventionTests {
    let blocks =
        (try? CatalogSource.folder(repositoryRoot.appendingPathComponent("Catalog")).contents(
            of: CatalogSource.folder(repositoryRoot.appendingPathComponent("Catalog")).blockNames())) ?? []

    func text(_ block: BlockContent, _ role: BlockFile.Role) -> [String] {
        block.manifest.files.filter { $0.role == role }.map { String(decoding: block.files[$0.path] ?? Data(), as: UTF8.self) }
    }

    @Test func availabilityMatchesTheManifestsPlatforms() throws {
        #expect(blocks.count == 9)
        let pattern = try NSRegularExpression(pattern: #"@available\((\w+) ([0-9.]+), \*\)"#)
        for block in blocks {
            for source in text(block, .component) + text(block, .demo) {
                let matches = pattern.matches(in: source, range: NSRange(source.startIndex..., in: source))
                #expect(!matches.isEmpty, "\(block.manifest.name) has no @available")
                for match in matches {
                    guard let platform = Range(match.range(at: 1), in: source), let version = Range(match.range(at: 2), in: source) else { continue }
                    #expect(
                        block.manifest.platforms[String(source[platform])] == String(source[version]),
                        "\(block.manifest.name): @available(\(source[platform]) \(source[version])) vs \(block.manifest.platforms)")
                }
            }
        }
    }

    @Test func logicIsFreeOfSwiftUIAndViewsHavePreviews() {
        for block in blocks {
            for source in text(block, .logic) { #expect(!source.contains("import SwiftUI"), "\(block.manifest.name)") }
            #expect(text(block, .demo).contains { $0.contains("#Preview") }, "\(block.manifest.name) has no #Preview")
            #expect(
                text(block, .component).allSatisfy { $0.contains("accessibilityReduceMotion") || block.manifest.name == "adaptive-tabs" },
                "\(block.manifest.name) ignores Reduce Motion")
        }
    }

    @Test func noHeadersAndNoForceUnwraps() throws {
        let forceUnwrap = try NSRegularExpression(pattern: #"[\w\)\]]!(?!=)[\s\.\)\],]"#)
        for block in blocks {
            for (path, data) in block.files {
                let source = String(decoding: data, as: UTF8.self)
                #expect(!source.contains("SPDX-License-Identifier"), "\(path) carries a header")
                let code = source.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }.joined(separator: "\n")
                let found = forceUnwrap.matches(in: code, range: NSRange(code.startIndex..., in: code)).count
                #expect(found == 0, "\(path) has \(found) force unwrap(s)")
            }
        }
    }

    /// The README's table of blocks lists every block in the catalog, with its minimum.
    @Test func theReadmeListsEveryBlock() throws {
        let readme = try String(contentsOf: repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(!blocks.isEmpty)
        for block in blocks {
            let major = block.manifest.platforms["iOS"]?.split(separator: ".").first.map(String.init) ?? "?"
            #expect(readme.contains("| `\(block.manifest.name)` | iOS \(major) |"), "README.md: add \(block.manifest.name) to the table of blocks")
        }
    }

    @Test func atLeastEightTagsInEachLanguage() {
        #expect(!blocks.isEmpty)
        for block in blocks {
            for language in ["en", "es"] {
                #expect((block.manifest.tags[language]?.count ?? 0) >= 8, "\(block.manifest.name) \(language)")
            }
        }
    }
}

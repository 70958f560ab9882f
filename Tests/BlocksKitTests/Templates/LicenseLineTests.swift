import Foundation
import Testing

@testable import BlocksKit

/// Issue 12, item 15 and the BOM case of "tests that can fail": the SPDX line is read one
/// way by the header step and by `lint`; another license is refused by both; a header in
/// Xcode's spacing or after a byte order mark is the header.
@Suite struct LicenseLineTests {
    @Test(arguments: [
        ("// SPDX-License-Identifier: MIT\nlet a = 1\n", "MIT"),
        ("//  SPDX-License-Identifier: MIT\nlet a = 1\n", "MIT"),
        ("\u{FEFF}// SPDX-License-Identifier: MIT\r\nlet a = 1\r\n", "MIT"),
        ("//\n//  Strip.swift\n//  SPDX-License-Identifier: Apache-2.0\n//\n\nimport SwiftUI\n", "Apache-2.0"),
        ("/// SPDX-License-Identifier:   MIT   \n", "MIT"),
    ])
    func readsTheSPDXLineOfTheLeadingComment(text: String, identifier: String) {
        #expect(LicenseHeader.spdxIdentifier(in: text) == identifier)
    }

    @Test(arguments: [
        "let a = 1\n// SPDX-License-Identifier: MIT\n", "", "// A comment\n\n// SPDX-License-Identifier: MIT\n",
        "// SPDX-License-Identifier:\n", "/* SPDX-License-Identifier: MIT */\n",
    ])
    func findsNoSPDXLineOutsideTheLeadingComment(text: String) {
        #expect(LicenseHeader.spdxIdentifier(in: text) == nil)
    }

    @Test func xcodeSpacingAndAByteOrderMarkGetNoSecondHeader() throws {
        for text in ["//  SPDX-License-Identifier: MIT\nlet a = 1\n", "\u{FEFF}// SPDX-License-Identifier: MIT\n// Copyright (c) 2020 Ada\n\nlet a = 1\n"] {
            #expect(try LicenseHeader.apply(to: text, year: 2026, holders: "Ada") == text)
            let data = Data(text.utf8)
            #expect(try LicenseHeader.apply(to: data, path: "A.swift", year: 2026, holders: "Ada") == data)
        }
        // A BOM without a header still gets one.
        let bare = try LicenseHeader.apply(to: Data("\u{FEFF}let a = 1\n".utf8), path: "A.swift", year: 2026, holders: "Ada")
        #expect(String(decoding: bare, as: UTF8.self).components(separatedBy: "SPDX-License-Identifier").count == 2)
    }

    /// A catalog whose files carry the given first lines.
    func catalog(_ bodies: [String: String]) throws -> TestCatalog {
        let catalog = try TestCatalog.make([])
        try catalog.put(TestCatalog.Block(name: "strip", files: bodies.sorted { $0.key < $1.key }.map { ($0.key, "component", $0.value) }))
        return catalog
    }

    @Test func lintRefusesAnotherLicensesSPDXLine() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let files = [
            "Strip.swift": "// SPDX-License-Identifier: Apache-2.0\nstruct Strip {}\n",
            "Other.swift": "//  SPDX-License-Identifier: GPL-3.0-only\nstruct Other {}\n",
            "Fine.swift": "//  SPDX-License-Identifier: MIT\nstruct Fine {}\n",
        ]
        try writeBlock(
            in: folder, name: "strip", manifest: sampleManifestJSON(name: "strip", files: files.keys.sorted().map { ($0, "component") }), files: files)
        let result = try TestProject(root: folder.url).runBinary(["lint", "--no-parse"])
        #expect(result.code == 1)
        #expect(
            result.output.contains("Catalog/strip/Strip.swift: declares 'SPDX-License-Identifier: Apache-2.0', but blocks ship under MIT"), "\(result.output)")
        #expect(result.output.contains("Catalog/strip/Other.swift: declares 'SPDX-License-Identifier: GPL-3.0-only'"))
        #expect(!result.output.contains("Fine.swift"))
        #expect(result.errors.contains("lint found 2 problems"), "\(result.output)\(result.errors)")
    }

    /// `add` neither keeps the foreign line under an MIT LICENSE nor replaces it: it
    /// refuses the block and writes nothing.
    @Test func addRefusesAnotherLicensesSPDXLineAndWritesNothing() throws {
        let catalog = try catalog(["Strip.swift": "// SPDX-License-Identifier: Apache-2.0\nstruct Strip {}\n"])
        let project = try TestProject.make()
        defer {
            catalog.delete()
            project.delete()
        }
        let before = try project.treeHash()
        let result = try project.runBinary(["--registry", catalog.root.path, "add", "strip"])
        #expect(result.code == 1)
        #expect(
            result.errors.contains("Strip.swift declares 'SPDX-License-Identifier: Apache-2.0', but blocks ship under MIT; nothing was written"),
            "\(result.errors)")
        #expect(try project.treeHash() == before)
        let export = try project.runBinary(["--registry", catalog.root.path, "export", "strip", "-o", "strip.zip"])
        #expect(export.code == 1 && !project.exists("strip.zip"), "\(export.errors)")
    }

    @Test func addKeepsAnXcodeStyleOrBOMHeaderAsTheOnlyHeader() throws {
        let xcode = "//\n//  Strip.swift\n//  SPDX-License-Identifier: MIT\n//\n\nstruct Strip {}\n"
        let bom = "\u{FEFF}// SPDX-License-Identifier: MIT\n// Copyright (c) 2024 Ada Lovelace\n\nstruct Marked {}\n"
        let catalog = try catalog(["Strip.swift": xcode, "Marked.swift": bom])
        let project = try TestProject.make()
        defer {
            catalog.delete()
            project.delete()
        }
        let result = try project.runBinary(["--registry", catalog.root.path, "add", "strip"])
        #expect(result.code == 0, "\(result.errors)")
        #expect(project.read("Sources/App/Blocks/strip/Strip.swift") == xcode)
        let marked = try #require(FileManager.default.contents(atPath: project.url("Sources/App/Blocks/strip/Marked.swift").path))
        #expect(marked == Data(bom.utf8))
    }

    /// A truncated manifest gets its one real error: not three "is not listed" after it.
    @Test func truncatedJSONIsTheOnlyProblem() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let whole = sampleManifestJSON(name: "cut", files: [("A.swift", "component"), ("B.swift", "logic"), ("C.swift", "demo")])
        try writeBlock(
            in: folder, name: "cut", manifest: String(whole.prefix(whole.count / 2)),
            files: ["A.swift": "struct A {}\n", "B.swift": "struct B {}\n", "C.swift": "struct C {}\n"])
        let report = try CatalogLinter(root: folder.path("Catalog"), swiftCompiler: nil).run()
        #expect(report.problems.count == 1, "\(report.problems)")
        #expect(report.problems.first?.description.hasPrefix("Catalog/cut/block.json: not valid JSON: ") == true, "\(report.problems)")
    }
}

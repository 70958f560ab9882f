import Foundation
import Testing

@testable import BlocksKit

@Suite struct LicenseHeaderTests {
    @Test func rendersTheTemplateWithYearAndHolders() {
        let header = LicenseHeader.render(year: 2026, holders: "Ada Lovelace")
        #expect(header == "// SPDX-License-Identifier: MIT\n// Copyright (c) 2026 Ada Lovelace\n")
    }

    @Test func applyingTwiceGivesOneHeader() throws {
        let once = try LicenseHeader.apply(to: "struct A {}\n", year: 2026, holders: "Ada")
        let twice = try LicenseHeader.apply(to: once, year: 2027, holders: "Someone Else")
        #expect(once == "// SPDX-License-Identifier: MIT\n// Copyright (c) 2026 Ada\n\nstruct A {}\n")
        #expect(twice == once)
    }

    /// A file's own SPDX line naming another license is refused, not kept under an MIT
    /// LICENSE and not replaced: either would lose or contradict what its author wrote.
    @Test func aFileWithAnotherLicensesSPDXLineIsRefused() throws {
        let own = "// SPDX-License-Identifier: Apache-2.0\nstruct A {}\n"
        #expect(throws: TemplateError.foreignLicense(path: "A.swift", identifier: "Apache-2.0")) {
            try LicenseHeader.apply(to: own, path: "A.swift", year: 2026, holders: "Ada")
        }
        #expect(throws: TemplateError.foreignLicense(path: "A.swift", identifier: "Apache-2.0")) {
            try LicenseHeader.apply(to: Data(own.utf8), path: "A.swift", year: 2026, holders: "Ada")
        }
        let mine = "// SPDX-License-Identifier: mit\nstruct A {}\n"
        #expect(try LicenseHeader.apply(to: mine, year: 2026, holders: "Ada") == mine)
    }

    @Test func aPrerenderedHeaderGivesTheSameBytes() throws {
        let header = Data(LicenseHeader.render(year: 2026, holders: "Ada").utf8)
        let bodies = ["struct A {}\n", "\u{FEFF}struct B {}\n", "// SPDX-License-Identifier: MIT\nstruct C {}\n", "", "é 🙂\r\n"]
        for body in bodies {
            for path in ["A.swift", "README.md"] {
                let data = Data(body.utf8)
                #expect(
                    try LicenseHeader.apply(to: data, path: path, header: header)
                        == LicenseHeader.apply(to: data, path: path, year: 2026, holders: "Ada"), "\(path) \(body.debugDescription)")
            }
        }
        let notUTF8 = Data([0xFF, 0xFE, 0x41])
        #expect(try LicenseHeader.apply(to: notUTF8, path: "A.swift", header: header) == notUTF8)
    }

    @Test func onlySwiftFilesGetTheHeader() throws {
        let json = Data("{}\n".utf8)
        #expect(try LicenseHeader.apply(to: json, path: "data.json", year: 2026, holders: "Ada") == json)
        let swift = try LicenseHeader.apply(to: Data("let a = 1\n".utf8), path: "A.swift", year: 2026, holders: "Ada")
        #expect(String(decoding: swift, as: UTF8.self).hasPrefix("// SPDX-License-Identifier: MIT\n"))
    }

    @Test func readsTheYearBack() throws {
        let text = try LicenseHeader.apply(to: "let a = 1\n", year: 2031, holders: "Ada")
        #expect(LicenseHeader.year(in: text) == 2031)
        #expect(LicenseHeader.year(in: "let a = 1\n") == nil)
    }

    @Test func holdersReadLikeEnglish() {
        #expect(TemplateText.holders([]) == "the authors")
        #expect(TemplateText.holders(["Ada"]) == "Ada")
        #expect(TemplateText.holders(["Ada", "Alan", "Grace"]) == "Ada, Alan and Grace")
    }

    @Test func theYearComesFromSourceDateEpoch() throws {
        #expect(try TemplateText.currentYear(environment: ["SOURCE_DATE_EPOCH": "1735689600"]) == 2025)
        #expect(try TemplateText.currentYear(environment: [:]) >= 2025)
    }

    @Test func theLicenseTemplateIsFilled() {
        let text = TemplateText.license(year: 2026, holders: "Ada")
        #expect(text.hasPrefix("MIT License\n\nCopyright (c) 2026 Ada\n"))
        #expect(!text.contains("{{"))
    }

    /// The real binary, twice: the file still has exactly one header.
    @Test func oneHeaderAfterTwoAddsWithTheBinary() throws {
        let project = try TestProject.make()
        let catalog = try TestCatalog.make([.standard("strip", type: "Strip")])
        defer {
            project.delete()
            catalog.delete()
        }
        for _ in 0..<2 {
            let result = try project.runBinary(["--registry", catalog.root.path, "add", "strip"])
            #expect(result.code == 0, "\(result.errors)")
        }
        let text = try #require(project.read("Sources/App/Blocks/strip/Strip.swift"))
        #expect(text.components(separatedBy: "SPDX-License-Identifier").count == 2)
        #expect(text.hasPrefix("// SPDX-License-Identifier: MIT\n// Copyright (c) "))
        #expect(text.contains(" Ada Lovelace\n\nimport SwiftUI\n"))
    }

    /// A re-add in a later year keeps the year the file was written with.
    @Test func reAddingInANewYearChangesNothing() throws {
        let project = try TestProject.make()
        let catalog = try TestCatalog.make([.standard("strip", type: "Strip")])
        defer {
            project.delete()
            catalog.delete()
        }
        let first = project.run(["--registry", catalog.root.path, "add", "strip"], environment: ["SOURCE_DATE_EPOCH": "1735689600"])
        #expect(first.code == 0, "\(first.errors)")
        let before = try project.treeHash()
        let second = project.run(["--registry", catalog.root.path, "add", "strip"], environment: ["SOURCE_DATE_EPOCH": "1767225600"])
        #expect(second.code == 0, "\(second.errors)")
        #expect(try project.treeHash() == before)
        #expect(project.read("Sources/App/Blocks/strip/Strip.swift")?.contains("Copyright (c) 2025 ") == true)
    }
}

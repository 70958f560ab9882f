import Foundation
import Testing

@testable import BlocksKit

/// The project's own LICENSE, the template every export and registry archive fills, and the
/// LICENSE inside a real export archive are one text: MIT with the project's copyright line.
@Suite struct ProjectLicenseTests {
    static let projectLicense = repositoryRoot.appendingPathComponent("LICENSE")

    @Test func theProjectLicenseIsTheTemplateWithTheProjectsCopyright() throws {
        let text = try String(contentsOf: Self.projectLicense, encoding: .utf8)
        #expect(text.hasPrefix("MIT License\n\nCopyright (c) 2026 blocks contributors\n"))
        #expect(text == TemplateText.license(year: 2026, holders: "blocks contributors"))
    }

    /// `blocks export` (in process, as the CLI runs it); the archive is read back by Python's zipfile.
    @Test func anExportsLicenseAgreesWithTheProjects() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let archive = folder.url.appendingPathComponent("tabs.zip")
        let result = runBlocks(["export", "top-tabs", "--format", "zip", "-o", archive.path], environment: ["SOURCE_DATE_EPOCH": "1790000000"])
        #expect(result.code == 0, "\(result.err)")
        let read = try ArchiveTool.python(
            "import sys, zipfile\nz = zipfile.ZipFile(sys.argv[1])\nname = [n for n in z.namelist() if n.endswith('/LICENSE')][0]\nsys.stdout.write(z.read(name).decode())",
            [archive.path])
        #expect(read.status == 0, "\(read.errors)")
        let project = try String(contentsOf: Self.projectLicense, encoding: .utf8)
        // The same text; only the year differs, and 1790000000 is in 2026.
        #expect(read.output == project)
    }
}

import Foundation
import Testing

/// Every Swift file in `Catalog/` parses with the compiler that builds the package. The
/// views are also type-checked, against a SwiftUI stub, in ViewTypeCheckTests.
@Suite("catalog Swift files parse")
struct SwiftParseTests {
    /// The repository root, found from this file's path: Tests/CatalogLogicTests/<file>.
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Every `.swift` file under `Catalog/`, sorted, as paths relative to the root.
    static func catalogSwiftFiles() -> [String] {
        let catalog = repositoryRoot.appendingPathComponent("Catalog")
        guard let enumerator = FileManager.default.enumerator(atPath: catalog.path) else { return [] }
        var files: [String] = []
        while let relative = enumerator.nextObject() as? String {
            if relative.hasSuffix(".swift") { files.append("Catalog/" + relative) }
        }
        return files.sorted()
    }

    /// Runs `swiftc -parse` on one file and returns its exit status and output.
    static func parse(_ path: String) throws -> (status: Int32, output: String) {
        try Swiftc.run(["-parse", path], in: repositoryRoot)
    }

    @Test func catalogHasSwiftFiles() {
        // Nine blocks, each with a component, a logic file and a demo.
        #expect(Self.catalogSwiftFiles().count >= 27)
    }

    @Test(arguments: catalogSwiftFiles())
    func parses(_ path: String) throws {
        let result = try Self.parse(path)
        #expect(result.status == 0, "swiftc -parse \(path) failed:\n\(result.output)")
    }

    @Test func aBrokenFileIsReported() throws {
        // The check must be able to fail: a file with a syntax error does not parse.
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("catalog-parse-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let broken = folder.appendingPathComponent("Broken.swift")
        try Data("struct Broken { var body: some View {\n".utf8).write(to: broken)
        let result = try Self.parse(broken.path)
        #expect(result.status != 0)
        #expect(result.output.contains("error"))
    }
}

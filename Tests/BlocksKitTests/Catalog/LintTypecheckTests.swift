import Foundation
import Testing

@testable import BlocksKit

/// `blocks lint --typecheck`: the view check of the repository's tests (ViewTypeCheck) over
/// another publisher's catalog, with the real binary. Linux only, as the check itself.
@Suite(
    .enabled(if: CatalogLinter.stubIsTheOnlySwiftUI, "the SwiftUI stub stands in only where Apple's SwiftUI is absent (Linux)"))
struct LintTypecheckTests {
    static let stub = repositoryRoot.appendingPathComponent("Tests/SwiftUIStub")
    static let compiler =
        CatalogLinter.findSwiftCompiler(environment: ProcessInfo.processInfo.environment)
        ?? URL(fileURLWithPath: "/opt/swift/usr/bin/swiftc")

    /// A catalog of the repository's pager block in a temporary folder, with `edit` applied
    /// to Pager.swift.
    static func catalog(in folder: TemporaryFolder, edit: (String) -> String = { $0 }) throws -> URL {
        let catalog = folder.path("Catalog")
        try FileManager.default.createDirectory(at: catalog, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: repositoryRoot.appendingPathComponent("Catalog/pager"), to: catalog.appendingPathComponent("pager"))
        let file = catalog.appendingPathComponent("pager/Pager.swift")
        try Data(edit(try String(contentsOf: file, encoding: .utf8)).utf8).write(to: file)
        return catalog
    }

    func lint(_ arguments: [String], in folder: TemporaryFolder, environment: [String: String] = [:]) throws -> (code: Int32, out: String, err: String) {
        var env = ["PATH": "/usr/bin:/bin", "SWIFTC": Self.compiler.path, "XDG_CACHE_HOME": folder.path("cache").path, "NO_COLOR": "1"]
        env.merge(environment) { _, new in new }
        return try runBinary(["lint"] + arguments, in: folder.url, environment: env)
    }

    @Test func aGoodCatalogPasses() throws {
        let folder = try TemporaryFolder("lint-typecheck")
        defer { folder.cleanUp() }
        let catalog = try Self.catalog(in: folder)
        let result = try lint([catalog.path, "--typecheck", "--stub", Self.stub.path], in: folder)
        #expect(result.code == 0, "\(result.out)\(result.err)")
        #expect(result.out.contains("1 block OK, 1 type-checked against the SwiftUI stub"), "\(result.out)")
    }

    @Test func aBlockThatDoesNotTypeCheckIsReportedByFile() throws {
        let folder = try TemporaryFolder("lint-typecheck")
        defer { folder.cleanUp() }
        // The mistake of issue 31: a Sendable enum that holds a LocalizedStringKey.
        let catalog = try Self.catalog(in: folder) {
            $0.replacingOccurrences(
                of: "\n#endif", with: "\n\n@available(iOS 17.0, *)\npublic enum PagerBadge: Sendable {\n    case text(LocalizedStringKey)\n}\n#endif")
        }
        let lines = try String(contentsOf: catalog.appendingPathComponent("pager/Pager.swift"), encoding: .utf8).components(separatedBy: "\n")
        let line = try #require(lines.firstIndex(of: "    case text(LocalizedStringKey)")) + 1
        // Without --typecheck the catalog is fine: it parses.
        #expect(try lint([catalog.path], in: folder).code == 0)
        let result = try lint([catalog.path, "--typecheck", "--stub", Self.stub.path], in: folder)
        #expect(result.code != 0)
        #expect(result.out.contains("Catalog/pager/Pager.swift: \(line):10: error at iOS 17.0 (Swift 6): "), "\(result.out)")
        #expect(result.out.contains("non-Sendable type 'LocalizedStringKey'"))
        #expect(result.out.contains("Catalog/pager/Pager.swift: \(line):10: warning at iOS 17.0 (Swift 5): "), "\(result.out)")

        let json = try lint([catalog.path, "--typecheck", "--stub", Self.stub.path, "--json"], in: folder)
        #expect(json.code != 0)
        let object = try JSONReader.parse(Data(json.out.utf8))
        #expect(object["typeChecked"] == .int(1))
        #expect(object["problems"]?.array?.contains { $0["file"]?.string == "Catalog/pager/Pager.swift" } == true, "\(json.out)")
    }

    @Test func theStubIsFoundFromTheEnvironmentOrAboveTheCatalog() throws {
        let folder = try TemporaryFolder("lint-typecheck")
        defer { folder.cleanUp() }
        let catalog = try Self.catalog(in: folder)
        // Nowhere: the error says how to name it.
        let none = try lint([catalog.path, "--typecheck"], in: folder)
        #expect(none.code != 0)
        #expect(none.err.contains("--stub DIR or set BLOCKS_SWIFTUI_STUB"), "\(none.err)")
        // BLOCKS_SWIFTUI_STUB.
        let fromEnvironment = try lint([catalog.path, "--typecheck"], in: folder, environment: ["BLOCKS_SWIFTUI_STUB": Self.stub.path])
        #expect(fromEnvironment.code == 0, "\(fromEnvironment.out)\(fromEnvironment.err)")
        // A repository laid out as this one: Tests/SwiftUIStub beside Catalog.
        #expect(
            try CatalogLinter.findSwiftUIStub(option: nil, environment: [:], catalog: repositoryRoot.appendingPathComponent("Catalog"))
                == Self.stub.standardizedFileURL)
        #expect(try CatalogLinter.findSwiftUIStub(option: nil, environment: [:], catalog: catalog) == nil)
        // A folder that is not a stub is an error, not a silent fallback.
        #expect(throws: LintSetupError.notAStub(catalog.path)) {
            try CatalogLinter.findSwiftUIStub(option: catalog, environment: [:], catalog: catalog)
        }
        // --stub means nothing without --typecheck.
        #expect(try lint([catalog.path, "--stub", Self.stub.path], in: folder).code == 64)
    }
}

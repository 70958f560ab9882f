import Foundation
import Testing

/// Every difference between Linux and macOS lives in `Sources/BlocksKit/Platform/`, so a port
/// (or a reviewer) reads one folder. This fails when a conditional on the operating system,
/// or an import of a system module, appears anywhere else in the library.
@Suite struct PlatformBoundaryTests {
    /// Spellings that mean "this code depends on the system it runs on".
    static let systemMarkers = [
        "#if os(", "#elseif os(", "canImport(Glibc)", "canImport(Darwin)", "canImport(Musl)",
        "canImport(FoundationEssentials)", "import Glibc", "import Darwin", "import Foundation",
    ]

    /// Lines of the library outside `Platform/` that carry one of the markers, as `path:line`.
    static func offendingLines(in library: URL) throws -> [String] {
        var found: [String] = []
        // Comments and string literals are not code (`SourceCode`, Support/SourceCode.swift).
        for (relative, lines) in try SourceCode.swiftFiles(under: library) where !relative.hasPrefix("Platform/") {
            // The embedded catalog holds the blocks' own sources as text; their `#if os(iOS)`
            // is data, not a condition on the tool.
            if relative == "Catalog/EmbeddedFiles.swift" { continue }
            for (number, line) in lines.enumerated() {
                let code = line.trimmingCharacters(in: .whitespaces)
                if systemMarkers.contains(where: { code.contains($0) }) { found.append("\(relative):\(number + 1)") }
            }
        }
        return found
    }

    @Test func systemDifferencesStayInThePlatformFolder() throws {
        let library = repositoryRoot.appendingPathComponent("Sources/BlocksKit")
        #expect(try Self.offendingLines(in: library) == [])
        // The folder exists and is where the imports are made.
        let imports = try String(contentsOf: library.appendingPathComponent("Platform/SystemImports.swift"), encoding: .utf8)
        #expect(imports.contains("@_exported import FoundationEssentials"))
    }

    @Test func theScanCatchesAConditionOutsideThePlatformFolder() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        try folder.write("Platform/Fine.swift", "#if os(Linux)\nlet a = 1\n#endif\n")
        try folder.write("Install/Bad.swift", "let b = 2\n    #if canImport(Darwin)\nlet c = 3\n#endif\n")
        try folder.write("Search/Comment.swift", "// #if os(Linux) is only mentioned here\n")
        #expect(try Self.offendingLines(in: folder.url) == ["Install/Bad.swift:2"])
    }
}

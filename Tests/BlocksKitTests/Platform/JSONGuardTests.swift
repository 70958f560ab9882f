import Foundation
import Testing

/// Keeps one JSON path (issue 33): the library reads JSON with `JSONReader` and
/// `JSONFields` and writes it with `StableJSONWriter`, each format described once by its
/// `init(fields:)` and `jsonValue`. Foundation's coders would be a second description of
/// every format, and a slower one; they live in the tests only, as the oracle
/// (`CodableOracle.swift`). This scans the library's code (comments and string literals
/// left out) for them.
@Suite struct JSONGuardTests {
    /// The names no code under `Sources/` may use.
    static let forbidden = ["Codable", "Encodable", "Decodable", "JSONEncoder", "JSONDecoder", "JSONSerialization"]

    /// Every use under `root`'s `Sources/`, as `path:line: name`.
    static func violations(in root: URL) throws -> [String] {
        let base = root.appendingPathComponent("Sources")
        let files = FileManager.default.enumerator(atPath: base.path)?.compactMap { $0 as? String } ?? []
        var found: [String] = []
        for relative in files.sorted() where relative.hasSuffix(".swift") {
            let text = try String(contentsOf: base.appendingPathComponent(relative), encoding: .utf8)
            for (number, line) in SourceCode.codeLines(text).enumerated() {
                for name in forbidden where !PublicAPIGuardTests.matches(of: "(?<![A-Za-z0-9_])\(name)(?![A-Za-z0-9_])", in: line).isEmpty {
                    found.append("Sources/\(relative):\(number + 1): \(name)")
                }
            }
        }
        return found
    }

    @Test func theLibraryHasOneJSONReaderAndOneWriter() throws {
        let violations = try Self.violations(in: repositoryRoot)
        #expect(violations == [], "use JSONReader/JSONFields and StableJSONWriter:\n\(violations.joined(separator: "\n"))")
    }

    /// Each name, planted in a copy of a library file, is caught; in a comment or a string
    /// it is not code.
    @Test func aPlantedUseIsCaught() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        try folder.write(
            "Sources/BlocksKit/Install/Lockfile.swift",
            """
            public struct Lockfile: Codable {}
            struct A: Encodable {}
            struct B: Decodable {}
            let lock = try JSONDecoder().decode(Lockfile.self, from: data)
            let bytes = try JSONEncoder().encode(lock)
            let any = try JSONSerialization.jsonObject(with: bytes)
            // Codable in a comment, and "JSONDecoder" in a string, are not code.
            let text = "JSONEncoder"
            struct MyCodableThing {}

            """)
        #expect(
            try Self.violations(in: folder.url) == [
                "Sources/BlocksKit/Install/Lockfile.swift:1: Codable",
                "Sources/BlocksKit/Install/Lockfile.swift:2: Encodable",
                "Sources/BlocksKit/Install/Lockfile.swift:3: Decodable",
                "Sources/BlocksKit/Install/Lockfile.swift:4: JSONDecoder",
                "Sources/BlocksKit/Install/Lockfile.swift:5: JSONEncoder",
                "Sources/BlocksKit/Install/Lockfile.swift:6: JSONSerialization",
            ])
    }
}

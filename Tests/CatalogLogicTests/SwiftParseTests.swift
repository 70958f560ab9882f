import Foundation
import Testing

/// SwiftUI does not exist on Linux, so the catalog's view files cannot be compiled here.
/// This suite at least makes sure every Swift file in `Catalog/` parses, with the same
/// compiler that builds the package.
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

    /// `SWIFTC` when set, else `swiftc` on the PATH, else the toolchain's default place.
    static func compilerCommand() -> [String] {
        let environment = ProcessInfo.processInfo.environment
        if let explicit = environment["SWIFTC"], !explicit.isEmpty { return [explicit] }
        let onPath = (environment["PATH"] ?? "").split(separator: ":").contains {
            FileManager.default.isExecutableFile(atPath: "\($0)/swiftc")
        }
        return onPath ? ["/usr/bin/env", "swiftc"] : ["/opt/swift/usr/bin/swiftc"]
    }

    /// Runs `swiftc -parse` on one file and returns its exit status and output.
    static func parse(_ path: String) throws -> (status: Int32, output: String) {
        let command = compilerCommand()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst()) + ["-parse", path]
        process.currentDirectoryURL = repositoryRoot
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test func catalogHasSwiftFiles() {
        // Five blocks, each with a component, a logic file and a demo.
        #expect(Self.catalogSwiftFiles().count >= 15)
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

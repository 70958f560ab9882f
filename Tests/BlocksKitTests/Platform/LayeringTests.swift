import Foundation
import Testing

/// Dependencies point down (docs/ARCHITECTURE.md, "The layers"). Each folder of
/// `Sources/BlocksKit` may use the folders its row names; this scans the code (comments and
/// string literals left out, interpolations kept) for a type declared at the top level of a
/// folder it may not use.
@Suite struct LayeringTests {
    /// Which folders each folder may use, from the bottom up. docs/ARCHITECTURE.md holds the
    /// same table, and `theDocumentHoldsTheSameTable` keeps the two equal.
    static let layers: [(folder: String, mayUse: [String])] = [
        ("Platform", []),
        ("Support", ["Platform"]),
        ("HTTP", ["Support", "Platform"]),
        ("Archive", ["Support", "Platform"]),
        // The progress bar draws an HTTP transfer's progress.
        ("Output", ["HTTP", "Support", "Platform"]),
        ("Templates", ["Output", "Support", "Platform"]),
        ("Catalog", ["Templates", "Output", "Archive", "HTTP", "Support", "Platform"]),
        // Plugins transform a block's files and, later, fetch registries: below Registry.
        ("Plugins", ["Catalog", "Templates", "Output", "Archive", "HTTP", "Support", "Platform"]),
        ("Registry", ["Plugins", "Catalog", "Templates", "Output", "Archive", "HTTP", "Support", "Platform"]),
        ("Search", ["Registry", "Plugins", "Catalog", "Templates", "Output", "Archive", "HTTP", "Support", "Platform"]),
        ("Publish", ["Search", "Registry", "Plugins", "Catalog", "Templates", "Output", "Archive", "HTTP", "Support", "Platform"]),
        // A mirror rebuilds the registry it copies (its index, signature and site).
        ("Mirror", ["Publish", "Search", "Registry", "Plugins", "Catalog", "Templates", "Output", "Archive", "HTTP", "Support", "Platform"]),
        // Xcode membership is a step of `add` and `remove`: it reads the install plan, the
        // lock, the target folder and the project paths. Install and Xcode are one layer in
        // two folders; splitting them is a refactor of its own.
        ("Xcode", ["Install", "Search", "Registry", "Plugins", "Catalog", "Templates", "Output", "Archive", "HTTP", "Support", "Platform"]),
        ("Install", ["Xcode", "Search", "Registry", "Plugins", "Catalog", "Templates", "Output", "Archive", "HTTP", "Support", "Platform"]),
        // The front ends: the entry point lists the commands, the commands use its parser
        // and context, and `blocks mcp` runs the commands in-process.
        ("MCP", ["CLI", "Commands", "Install", "Xcode", "Mirror", "Publish", "Search", "Registry", "Plugins", "Catalog", "Templates", "Output", "Archive", "HTTP", "Support", "Platform"]),
        ("Commands", ["CLI", "MCP", "Install", "Xcode", "Mirror", "Publish", "Search", "Registry", "Plugins", "Catalog", "Templates", "Output", "Archive", "HTTP", "Support", "Platform"]),
        ("CLI", ["Commands", "MCP", "Install", "Xcode", "Mirror", "Publish", "Search", "Registry", "Plugins", "Catalog", "Templates", "Output", "Archive", "HTTP", "Support", "Platform"]),
    ]

    /// One type a folder uses against the table, with why. Each must still be used
    /// (`everyExceptionSaysWhyAndIsUsed`), so a fixed one is taken out.
    struct Exception: Sendable {
        var folder: String
        var type: String
        var reason: String
    }

    static let exceptions: [Exception] = [
        Exception(
            folder: "Registry", type: "ProjectConfig",
            reason: "blocks.json names the project's registries, their headers and pinned keys; RegistrySet.open and RegistrySources.pinning take it from the command's Project, and moving it down takes its InstallError with it"),
    ]

    static func allowed(_ folder: String) -> Set<String> {
        Set(layers.first { $0.folder == folder }?.mayUse ?? []).union([folder])
    }

    /// Every use of a type from a folder the table forbids, as `path:line: Type (Folder)`.
    static func violations(in library: URL, exceptions: [Exception] = exceptions) throws -> [String] {
        let files = try swiftFiles(in: library)
        var owners: [String: Set<String>] = [:]
        for (path, lines) in files {
            for line in lines {
                if let name = declaredType(in: line, topLevel: true) { owners[name, default: []].insert(folder(of: path)) }
            }
        }
        var found: [String] = []
        for (path, lines) in files {
            let folder = folder(of: path)
            let allowed = allowed(folder)
            // A type this file declares (nested ones too) is its own, whatever its name.
            let own = Set(lines.compactMap { declaredType(in: $0, topLevel: false) })
            for (number, line) in lines.enumerated() {
                for name in identifiers(in: line) where !own.contains(name) {
                    guard let folders = owners[name], folders.isDisjoint(with: allowed) else { continue }
                    if exceptions.contains(where: { $0.folder == folder && $0.type == name }) { continue }
                    found.append("\(path):\(number + 1): \(name) (\(folders.sorted().joined(separator: ", ")))")
                }
            }
        }
        return found
    }

    /// The code lines of every Swift file under `library`, by path relative to it.
    static func swiftFiles(in library: URL) throws -> [(path: String, lines: [String])] {
        try SourceCode.swiftFiles(under: library, keepingInterpolations: true).filter { $0.path.contains("/") }
    }

    static func folder(of path: String) -> String { String(path.prefix { $0 != "/" }) }

    static let declaration = #"(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|internal|package|fileprivate|private|open|final|indirect|nonisolated)\s+)*(?:struct|enum|class|protocol|actor|typealias)\s+([A-Z]\w*)"#

    /// The name a line declares, when it declares a type (at column 0 for `topLevel`).
    static func declaredType(in line: String, topLevel: Bool) -> String? {
        let pattern = topLevel ? "^" + declaration : #"^\s*"# + declaration
        guard let expression = try? NSRegularExpression(pattern: pattern),
            let match = expression.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)),
            let range = Range(match.range(at: 1), in: line)
        else { return nil }
        return String(line[range])
    }

    /// Capitalized identifiers that are not members (`.Name`) or parts of longer names.
    static func identifiers(in line: String) -> [String] {
        PublicAPIGuardTests.matches(of: #"(?<![\w.])[A-Z]\w*"#, in: line)
    }

    @Test func everyFolderUsesOnlyTheFoldersBelowIt() throws {
        let violations = try Self.violations(in: repositoryRoot.appendingPathComponent("Sources/BlocksKit"))
        #expect(violations == [], "\(violations.joined(separator: "\n"))")
    }

    @Test func theTableNamesEveryFolderOnce() throws {
        let library = repositoryRoot.appendingPathComponent("Sources/BlocksKit")
        let folders = try FileManager.default.contentsOfDirectory(atPath: library.path).filter {
            var isFolder: ObjCBool = false
            return FileManager.default.fileExists(atPath: library.appendingPathComponent($0).path, isDirectory: &isFolder) && isFolder.boolValue
        }
        #expect(Self.layers.map(\.folder).sorted() == folders.sorted())
        for layer in Self.layers {
            #expect(Set(layer.mayUse).isSubset(of: Set(folders)) && !layer.mayUse.contains(layer.folder), "\(layer.folder)")
        }
    }

    @Test func everyExceptionSaysWhyAndIsUsed() throws {
        let library = repositoryRoot.appendingPathComponent("Sources/BlocksKit")
        let withoutExceptions = try Self.violations(in: library, exceptions: [])
        for exception in Self.exceptions {
            #expect(exception.reason.count > 40, "\(exception.type)")
            #expect(
                withoutExceptions.contains { $0.hasPrefix(exception.folder + "/") && $0.contains(": \(exception.type) (") },
                "\(exception.folder) no longer uses \(exception.type): take the exception out")
        }
    }

    /// docs/ARCHITECTURE.md's table of layers: `| folder | may use |`, one row per folder.
    @Test func theDocumentHoldsTheSameTable() throws {
        let text = try String(contentsOf: repositoryRoot.appendingPathComponent("docs/ARCHITECTURE.md"), encoding: .utf8)
        var rows: [String: [String]] = [:]
        for line in text.split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count == 4, cells[1].hasPrefix("`"), cells[1].hasSuffix("/`"), cells[2].hasPrefix("`") || cells[2] == "nothing" else { continue }
            let used = cells[2] == "nothing" ? [] : cells[2].components(separatedBy: ", ").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "`/")) }
            rows[String(cells[1].dropFirst().dropLast(2))] = used
        }
        for layer in Self.layers {
            #expect(rows[layer.folder] == layer.mayUse, "docs/ARCHITECTURE.md's row for \(layer.folder)/")
        }
        #expect(rows.count == Self.layers.count)
    }

    /// A type of `Commands/` used from `Support/` is caught; the same name in a comment, in a
    /// string, or declared by the file itself is not, and a use of a lower folder is fine.
    @Test func theScanCatchesAnUpwardUse() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        try folder.write("Commands/RunCommand.swift", "public struct RunCommand {\n    let stamp = Clock()\n}\n")
        try folder.write("Support/Clock.swift", "struct Clock {}\n")
        try folder.write("Support/Bad.swift", "// RunCommand is mentioned here\nlet text = \"RunCommand\"\nfunc run() { _ = RunCommand() }\n")
        try folder.write("Support/Told.swift", "let said = \"\\(RunCommand.self)\"\n")
        try folder.write("Platform/Own.swift", "enum Outer {\n    struct RunCommand {}\n    static let run = RunCommand()\n}\n")
        #expect(try Self.violations(in: folder.url) == ["Support/Bad.swift:3: RunCommand (Commands)", "Support/Told.swift:1: RunCommand (Commands)"])
    }
}

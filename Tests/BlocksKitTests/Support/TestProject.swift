import Foundation

@testable import BlocksKit

/// A real SwiftPM project in a temporary folder (Package.swift and Sources/<T>/x.swift;
/// never built), plus ways to run `blocks` on it in-process or as the real binary.
struct TestProject {
    let root: URL

    /// A package with the given source targets and `platforms:` entries.
    static func make(targets: [String] = ["App"], platforms: String? = ".iOS(.v18)") throws -> TestProject {
        let root = try temporaryFolder("project")
        let platformLine = platforms.map { "    platforms: [\($0)],\n" } ?? ""
        let targetLines = targets.map { "        .target(name: \"\($0)\"),\n" }.joined()
        let manifest = """
            // swift-tools-version:6.0
            import PackageDescription

            let package = Package(
                name: "TestApp",
            \(platformLine)    targets: [
            \(targetLines)        .testTarget(name: "AppTests", dependencies: [.target(name: "\(targets.first ?? "App")")]),
                ]
            )

            """
        let project = TestProject(root: root)
        try project.write("Package.swift", manifest)
        for target in targets { try project.write("Sources/\(target)/x.swift", "let x = 1\n") }
        return project
    }

    /// The smallest SwiftPM package, `App` with one target `App` (Package.swift and
    /// Sources/App/`source`), written in `root` (a folder the caller owns; never built).
    /// `platforms` is the manifest's `platforms:` entry, or nil for none.
    @discardableResult
    static func app(
        at root: URL, platforms: String? = ".iOS(.v18)", source: (path: String, text: String) = ("App.swift", "struct App {}\n")
    ) throws -> TestProject {
        let project = TestProject(root: root)
        let platformList = platforms.map { ", platforms: [\($0)]" } ?? ""
        try project.write(
            "Package.swift",
            "// swift-tools-version:6.0\nimport PackageDescription\nlet package = Package(name: \"App\"\(platformList), targets: [.target(name: \"App\")])\n"
        )
        try project.write("Sources/App/\(source.path)", source.text)
        return project
    }

    /// An empty folder with no project markers.
    static func makeEmpty() throws -> TestProject {
        TestProject(root: try temporaryFolder("project"))
    }

    func delete() { try? FileManager.default.removeItem(at: root) }

    func url(_ relative: String) -> URL { root.appendingPathComponent(relative) }

    func write(_ relative: String, _ text: String) throws {
        try TemporaryFolder(existing: root).write(relative, text)
    }

    func read(_ relative: String) -> String? {
        TemporaryFolder(existing: root).read(relative)
    }

    func exists(_ relative: String) -> Bool { FileManager.default.fileExists(atPath: url(relative).path) }

    func lock() throws -> Lockfile { try Lockfile.read(root: root) }

    /// A digest of every path, kind, mode and content under the root: any change to
    /// the tree, even an empty folder or a leftover temporary file, changes it.
    func treeHash() throws -> String {
        var lines: [String] = []
        let keys: [Foundation.URLResourceKey] = [.isDirectoryKey, .isSymbolicLinkKey]
        guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: keys) else { return "" }
        for case let item as URL in walker {
            let relative = ProjectPaths.relative(item, to: root) ?? item.path
            let values = try item.resourceValues(forKeys: Set(keys))
            if values.isSymbolicLink == true {
                lines.append("link \(relative) -> \((try? FileManager.default.destinationOfSymbolicLink(atPath: item.path)) ?? "")")
            } else if values.isDirectory == true {
                lines.append("dir \(relative)")
            } else {
                lines.append("file \(relative) \(try SHA256.hex(fileAt: item))")
            }
        }
        return SHA256.hex(lines.sorted().joined(separator: "\n"))
    }

    /// Runs `blocks ARGS` in-process in `directory` (default: the root).
    func run(
        _ arguments: [String], in directory: String? = nil, interactive: Bool = false, answers: [String] = [],
        environment: [String: String] = [:]
    ) -> CommandResult {
        let output = BufferSink()
        let errors = BufferSink()
        let queue = AnswerQueue(answers)
        var context = CommandContext(
            standardOutput: output, standardError: errors, environment: environment,
            workingDirectory: directory.map { url($0) } ?? root, transport: CurlTransport.forTests,
            isInteractive: interactive, readLine: { queue.next() })
        let code = BlocksCLI.run(arguments, context: &context)
        return CommandResult(code: code, output: output.text, errors: errors.text)
    }

    /// The environment the real binary runs with: this process's, no colour, no registry
    /// from outside, plus `extra`.
    func binaryEnvironment(_ extra: [String: String]) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        environment["BLOCKS_REGISTRY"] = nil
        environment.merge(extra) { $1 }
        return environment
    }

    /// Starts the real binary in the root, without waiting.
    func startBinary(_ arguments: [String], environment extra: [String: String] = [:]) throws -> TestProcess {
        try TestProcess.start(try Self.binary(), arguments, in: root, environment: binaryEnvironment(extra))
    }

    /// Runs the real binary in the root and waits for it.
    func runBinary(_ arguments: [String], environment: [String: String] = [:]) throws -> CommandResult {
        let result = try runProcess(try Self.binary(), arguments, in: root, environment: binaryEnvironment(environment))
        return CommandResult(code: result.code, output: result.out, errors: result.err)
    }

    /// The built binary (see `blocksBinary`), or an error saying how to build it.
    static func binary() throws -> URL {
        guard FileManager.default.isExecutableFile(atPath: blocksBinary.path) else {
            throw TestSupportError("the blocks binary is not at \(blocksBinary.path); run 'swift build' first")
        }
        return blocksBinary
    }

    static func temporaryFolder(_ label: String) throws -> URL {
        try TemporaryFolder("blocks-tests-\(label)").url.standardizedFileURL
    }
}

/// A catalog folder with made-up blocks, for `--registry DIR`.
struct TestCatalog {
    let root: URL

    struct Block {
        var name: String
        var version = "1.0.0"
        var platforms: [String: String] = ["iOS": "18.0"]
        var authors = ["Ada Lovelace"]
        /// File name, role and body.
        var files: [(String, String, String)]
        var dependencies: BlockDependencies? = nil
        var recommendedTransforms: [String] = []

        /// A block with a component, a logic file and a demo, named after `type`.
        static func standard(_ name: String, type: String, version: String = "1.0.0", platforms: [String: String] = ["iOS": "18.0"]) -> Block {
            Block(
                name: name, version: version, platforms: platforms,
                files: [
                    (
                        "\(type).swift", "component",
                        "import SwiftUI\n\n@available(iOS 18.0, *)\npublic struct \(type): View {\n    public var body: some View { Text(\"\(version)\") }\n}\n"
                    ),
                    ("\(type)Logic.swift", "logic", "public enum \(type)Logic {\n    public static let version = \"\(version)\"\n}\n"),
                    ("\(type)Demo.swift", "demo", "import SwiftUI\n\nstruct \(type)Demo: View {\n    var body: some View { \(type)() }\n}\n"),
                ])
        }
    }

    static func make(_ blocks: [Block]) throws -> TestCatalog {
        let catalog = TestCatalog(root: try TestProject.temporaryFolder("catalog"))
        for block in blocks { try catalog.put(block) }
        return catalog
    }

    /// Writes (or rewrites) one block's folder.
    func put(_ block: Block) throws {
        let folder = root.appendingPathComponent(block.name)
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let manifest = BlockManifest(
            name: block.name, version: block.version, title: ["en": block.name, "es": block.name],
            summary: ["en": "A test block.", "es": "Un bloque de prueba."], category: "tabs", platforms: block.platforms,
            level: "beginner", origin: "Original work", tags: ["en": ["tabs"], "es": ["pestañas"]], api: [],
            files: block.files.map { BlockFile(path: $0.0, role: BlockFile.Role(rawValue: $0.1) ?? .component) },
            authors: block.authors, license: "MIT", accessibility: [:], dependencies: block.dependencies,
            recommendedTransforms: block.recommendedTransforms)
        try StableJSON.data(manifest.jsonValue).write(to: folder.appendingPathComponent("block.json"))
        for (path, _, body) in block.files {
            let file = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(body.utf8).write(to: file)
        }
    }

    func delete() { try? FileManager.default.removeItem(at: root) }
}

struct CommandResult {
    var code: Int32
    var output: String
    var errors: String
}

struct TestSupportError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Answers for prompts, one per `readLine`; nil when they run out.
final class AnswerQueue: @unchecked Sendable {
    private let lock = NSLock()
    private var answers: [String]

    init(_ answers: [String]) { self.answers = answers }

    func next() -> String? {
        lock.lock()
        defer { lock.unlock() }
        return answers.isEmpty ? nil : answers.removeFirst()
    }
}

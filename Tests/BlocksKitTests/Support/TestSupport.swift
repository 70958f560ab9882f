import Foundation
import Testing

@testable import BlocksKit

/// A fresh folder under the system temp folder, removed by `cleanUp`.
struct TemporaryFolder {
    let url: URL

    /// Helpers over a folder that already exists; `cleanUp` removes it.
    init(existing url: URL) {
        self.url = url
    }

    init(_ label: String = "blocks") throws {
        url = HostTools.temporaryDirectory
            .appendingPathComponent("\(label)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func path(_ relative: String) -> URL { url.appendingPathComponent(relative) }

    func write(_ relative: String, _ text: String) throws {
        let file = path(relative)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: file)
    }

    func read(_ relative: String) -> String? {
        FileManager.default.contents(atPath: path(relative).path).map { String(decoding: $0, as: UTF8.self) }
    }

    func cleanUp() { try? FileManager.default.removeItem(at: url) }
}

/// The repository root, found from this file's path.
let repositoryRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// One cache folder per test process, under the system temp folder.
let testCacheFolder = perProcessFolder("blocks-test-cache")

/// A folder the tests of this process share, `PREFIX-PID` in the system temp folder. No
/// teardown runs after the last test, so the folders of earlier runs, whose processes are
/// gone, are removed here instead.
func perProcessFolder(_ prefix: String) -> URL {
    let temporary = FileManager.default.temporaryDirectory
    for name in (try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? [] where name.hasPrefix(prefix + "-") {
        guard let owner = Int32(name.dropFirst(prefix.count + 1)), owner != getpid(), kill(owner, 0) != 0, errno == ESRCH else { continue }
        try? FileManager.default.removeItem(at: temporary.appendingPathComponent(name))
    }
    return temporary.appendingPathComponent("\(prefix)-\(getpid())")
}

/// A context whose streams are buffers, for running commands in-process.
func makeContext(
    directory: URL, environment: [String: String] = [:], terminal: Bool = false,
    transport: HTTPTransport = CurlTransport.forTests
) -> (CommandContext, BufferSink, BufferSink) {
    let output = BufferSink(isTerminal: terminal)
    let errors = BufferSink(isTerminal: terminal)
    var environment = environment
    if environment["PATH"] == nil { environment["PATH"] = "/usr/bin:/bin" }
    // Keep caches (search indexes, downloads) out of the real home folder.
    if environment["XDG_CACHE_HOME"] == nil { environment["XDG_CACHE_HOME"] = testCacheFolder.path }
    let context = CommandContext(
        standardOutput: output, standardError: errors, environment: environment,
        workingDirectory: directory, transport: transport)
    return (context, output, errors)
}

/// Runs a command line in-process and returns the exit code, stdout and stderr.
func runBlocks(
    _ arguments: [String], in directory: URL = repositoryRoot, environment: [String: String] = [:], terminal: Bool = false,
    transport: HTTPTransport = CurlTransport.forTests
) -> (code: Int32, out: String, err: String) {
    var (context, output, errors) = makeContext(directory: directory, environment: environment, terminal: terminal, transport: transport)
    let code = BlocksCLI.run(arguments, context: &context)
    return (code, output.text, errors.text)
}

/// A manifest with sensible defaults, for tests that need a block of their own.
func sampleManifestJSON(
    name: String, version: String = "1.0.0", titleEnglish: String = "Sample", titleSpanish: String = "Muestra",
    tagsEnglish: [String] = ["tabs"], tagsSpanish: [String] = ["pestañas"], platforms: [String: String] = ["iOS": "18.0"],
    level: String = "beginner", files: [(String, String)] = [("Sample.swift", "component")]
) -> String {
    let object: [String: Any] = [
        "name": name, "version": version,
        "title": ["en": titleEnglish, "es": titleSpanish],
        "summary": ["en": "A sample block.", "es": "Un bloque de muestra."],
        "category": "tabs", "platforms": platforms, "level": level, "origin": "Original work",
        "tags": ["en": tagsEnglish, "es": tagsSpanish],
        "api": [["name": "selection", "type": "Binding<String>", "default": NSNull(), "description": "The selected tab."]],
        "files": files.map { ["path": $0.0, "role": $0.1] },
        "authors": ["Test Author"], "license": "MIT",
        "accessibility": ["voiceOver": "Buttons.", "dynamicType": "Scales.", "reduceMotion": "Jumps."],
    ]
    let data = try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .prettyPrinted])
    return String(decoding: data, as: UTF8.self)
}

/// Writes a catalog block folder with its manifest and files.
func writeBlock(
    in folder: TemporaryFolder, catalog: String = "Catalog", name: String, manifest: String? = nil,
    files: [String: String] = ["Sample.swift": "struct Sample {}\n"]
) throws {
    try folder.write("\(catalog)/\(name)/block.json", manifest ?? sampleManifestJSON(name: name))
    for (path, text) in files { try folder.write("\(catalog)/\(name)/\(path)", text) }
}

/// The built `blocks` binary, which `swift test` builds alongside the tests.
var blocksBinary: URL {
    let candidates = [".build/debug/blocks", ".build/x86_64-unknown-linux-gnu/debug/blocks", ".build/aarch64-unknown-linux-gnu/debug/blocks"]
    for candidate in candidates {
        let url = repositoryRoot.appendingPathComponent(candidate)
        if FileManager.default.isExecutableFile(atPath: url.path) { return url }
    }
    return repositoryRoot.appendingPathComponent(candidates[0])
}

/// Runs the real binary and collects its output, with `BLOCKS_REGISTRY` cleared unless given.
func runBinary(
    _ arguments: [String], in directory: URL = repositoryRoot, environment: [String: String]? = nil
) throws -> (code: Int32, out: String, err: String) {
    var env = environment ?? ProcessInfo.processInfo.environment
    env["BLOCKS_REGISTRY"] = env["BLOCKS_REGISTRY"] ?? ""
    return try runProcess(blocksBinary, arguments, in: directory, environment: env)
}

/// A new key pair from the real `blocks keygen` in `keys`: the public key's base64, as
/// blocks.json's `keys` and `minisign -P` take it.
func keygenPublicKey(into keys: URL) throws -> String {
    let result = try runBinary(["keygen", "--out", keys.path])
    guard result.code == 0 else { throw TestSupportError("keygen failed: \(result.err)") }
    return try String(contentsOf: keys.appendingPathComponent("blocks.pub"), encoding: .utf8).split(separator: "\n").last.map(String.init) ?? ""
}

extension CurlTransport {
    /// One transport for the in-process tests, with the process's environment, as the
    /// command line builds its own at start-up.
    static let forTests = CurlTransport(environment: ProcessInfo.processInfo.environment)
}

/// A one-target SwiftPM package (iOS 18) in `folder/name`, never built, for tests that add
/// blocks from a registry (`TestProject.app`).
func makeProject(in folder: TemporaryFolder, name: String = "app") throws -> URL {
    try TestProject.app(at: folder.path(name)).root
}

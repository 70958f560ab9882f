import Foundation

/// Runs the Swift compiler that builds the package, for the checks on the catalog's view
/// files: `SWIFTC` when set, else `swiftc` on the PATH, else the toolchain's default place.
enum Swiftc {
    static func command() -> [String] {
        let environment = ProcessInfo.processInfo.environment
        if let explicit = environment["SWIFTC"], !explicit.isEmpty { return [explicit] }
        let onPath = (environment["PATH"] ?? "").split(separator: ":").contains {
            FileManager.default.isExecutableFile(atPath: "\($0)/swiftc")
        }
        return onPath ? ["/usr/bin/env", "swiftc"] : ["/opt/swift/usr/bin/swiftc"]
    }

    /// Runs swiftc with `arguments` and returns its exit status and its output (stdout and
    /// stderr together). A compiler that runs longer than `timeout` seconds is stopped.
    static func run(_ arguments: [String], in folder: URL, timeout: TimeInterval = 300) throws -> (status: Int32, output: String) {
        let command = command()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst()) + arguments
        process.currentDirectoryURL = folder
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let watchdog = DispatchWorkItem { if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: watchdog)
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        watchdog.cancel()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}

/// Type-checks the catalog's view files on Linux against the SwiftUI declaration stub in
/// `Tests/SwiftUIStub`, the way Xcode would compile them in an app target: Swift 6, once
/// with the default isolation and once with the main actor as the default isolation, at
/// the block's minimum iOS. See the stub's header for what this does and does not prove.
enum ViewTypeCheck {
    /// Whether the stub is the only SwiftUI the compiler can find, as on Linux. On macOS a
    /// module of that name built for the host would meet Apple's own and check iOS
    /// availability against a macOS target, so the suite runs on Linux only.
    static let stubIsTheOnlySwiftUI: Bool = {
        #if os(Linux)
        return true
        #else
        return false
        #endif
    }()

    static let repositoryRoot = SwiftParseTests.repositoryRoot
    static let stubFolder = repositoryRoot.appendingPathComponent("Tests/SwiftUIStub")
    static let catalogFolder = repositoryRoot.appendingPathComponent("Catalog")

    /// The two isolation settings an app target can have.
    enum Isolation: String, CaseIterable, Sendable, CustomStringConvertible {
        /// The Swift 6 language mode's default: nonisolated unless stated.
        case swift6 = "Swift 6"
        /// `-default-isolation MainActor`, what new Xcode app projects use.
        case mainActorByDefault = "Swift 6, main actor by default"

        var flags: [String] {
            switch self {
            case .swift6: return ["-swift-version", "6"]
            case .mainActorByDefault: return ["-swift-version", "6", "-default-isolation", "MainActor"]
            }
        }

        var description: String { rawValue }
    }

    /// Why a check could not run or did not pass; the description is the whole report.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    // MARK: Blocks

    /// A block's Swift files and its minimum iOS, from its `block.json`.
    struct Block: Sendable, CustomStringConvertible {
        struct File: Sendable {
            var path: String
            var role: String
        }

        var name: String
        var folder: URL
        var minimumIOS: String
        var files: [File]

        var description: String { name }
    }

    /// Every block in `Catalog/`, sorted by name.
    static func catalogBlocks() throws -> [Block] {
        let names = try FileManager.default.contentsOfDirectory(atPath: catalogFolder.path).sorted()
        return try names.compactMap { name in
            let folder = catalogFolder.appendingPathComponent(name)
            let manifest = folder.appendingPathComponent("block.json")
            guard FileManager.default.fileExists(atPath: manifest.path) else { return nil }
            return try block(at: folder)
        }
    }

    static func block(at folder: URL) throws -> Block {
        let data = try Data(contentsOf: folder.appendingPathComponent("block.json"))
        guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any],
            let name = object["name"] as? String,
            let platforms = object["platforms"] as? [String: String],
            let files = object["files"] as? [[String: String]]
        else { throw Failure(description: "\(folder.lastPathComponent)/block.json lacks name, platforms or files") }
        guard let minimum = platforms["iOS"] else {
            throw Failure(description: "\(name): block.json lists no iOS minimum, and the stub describes iOS only")
        }
        let swiftFiles = files.compactMap { file -> Block.File? in
            guard let path = file["path"], let role = file["role"], path.hasSuffix(".swift") else { return nil }
            return Block.File(path: path, role: role)
        }
        return Block(name: name, folder: folder, minimumIOS: minimum, files: swiftFiles)
    }

    // MARK: Stub variants

    /// The stub with every API introduced after `minimumIOS` made unavailable. Each
    /// introduction must be an `@available(iOS N, *)` line of its own; anything else that
    /// mentions `@available` is reported, so no introduction is silently ignored.
    static func stubVariant(_ stub: String, minimumIOS: String) throws -> String {
        var lines: [String] = []
        for (number, line) in stub.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let text = String(line)
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix("@available") else {
                if text.contains("@available("), !trimmed.hasPrefix("//") {
                    throw Failure(description: "SwiftUI.swift:\(number + 1): put @available on a line of its own: \(trimmed)")
                }
                lines.append(text)
                continue
            }
            guard let version = introduction(in: trimmed) else {
                throw Failure(description: "SwiftUI.swift:\(number + 1): write availability as '@available(iOS N.M, *)': \(trimmed)")
            }
            if isVersion(version, laterThan: minimumIOS) {
                let indent = text.prefix { $0 == " " }
                lines.append("\(indent)@available(*, unavailable, message: \"introduced in iOS \(version)\")")
            } else {
                lines.append(text)
            }
        }
        return lines.joined(separator: "\n")
    }

    /// "17.0" for `@available(iOS 17.0, *)`, nil for any other form.
    static func introduction(in line: String) -> String? {
        let prefix = "@available(iOS "
        let suffix = ", *)"
        guard line.hasPrefix(prefix), line.hasSuffix(suffix) else { return nil }
        let version = line.dropFirst(prefix.count).dropLast(suffix.count)
        guard !version.isEmpty, version.allSatisfy({ $0.isNumber || $0 == "." }) else { return nil }
        return String(version)
    }

    static func isVersion(_ version: String, laterThan other: String) -> Bool {
        let left = version.split(separator: ".").map { Int($0) ?? 0 }
        let right = other.split(separator: ".").map { Int($0) ?? 0 }
        for index in 0..<max(left.count, right.count) {
            let a = index < left.count ? left[index] : 0
            let b = index < right.count ? right[index] : 0
            if a != b { return a > b }
        }
        return false
    }

    /// Builds (once per content) the CoreGraphics and SwiftUI stub modules for
    /// `minimumIOS` and returns the folder to pass with `-I`. Builds are kept under
    /// `.build/swiftui-stub/<hash>`, so a later run with the same stub and compiler reuses them.
    /// Each minimum is built once per test run; different minimums build in parallel.
    static func stubModules(minimumIOS: String) throws -> URL {
        let build = stubBuilds.withLock { builds -> BuildOnce in
            if let existing = builds[minimumIOS] { return existing }
            let created = BuildOnce()
            builds[minimumIOS] = created
            return created
        }
        return try build.value { try buildStubModules(minimumIOS: minimumIOS) }
    }

    private static let stubBuilds = LockedDictionary<String, BuildOnce>()

    private static func buildStubModules(minimumIOS: String) throws -> URL {
        let coreGraphics = try String(contentsOf: stubFolder.appendingPathComponent("CoreGraphics.swift"), encoding: .utf8)
        let swiftUI = try stubVariant(
            try String(contentsOf: stubFolder.appendingPathComponent("SwiftUI.swift"), encoding: .utf8),
            minimumIOS: minimumIOS)
        let key = fnv1a([compilerVersion, coreGraphics, swiftUI].joined(separator: "\u{0}"))
        let root = repositoryRoot.appendingPathComponent(".build/swiftui-stub")
        let folder = root.appendingPathComponent(String(key, radix: 16))
        if FileManager.default.fileExists(atPath: folder.appendingPathComponent("SwiftUI.swiftmodule").path) { return folder }

        // Built in a folder of its own and renamed into place, so a reader never sees half a build.
        let building = root.appendingPathComponent("building-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: building, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: building) }
        let sources = [("CoreGraphics", coreGraphics), ("SwiftUI", swiftUI)]
        for (module, text) in sources {
            let source = building.appendingPathComponent("\(module).swift")
            try Data(text.utf8).write(to: source)
            let result = try Swiftc.run(
                [
                    "-emit-module", "-module-name", module, "-parse-as-library", "-swift-version", "6",
                    "-I", building.path, "-emit-module-path", building.appendingPathComponent("\(module).swiftmodule").path,
                    source.path,
                ], in: building)
            guard result.status == 0 else {
                throw Failure(
                    description: "the \(module) stub for iOS \(minimumIOS) does not build, so fix Tests/SwiftUIStub/\(module).swift:\n\(result.output)")
            }
        }
        do {
            try FileManager.default.moveItem(at: building, to: folder)
        } catch  where FileManager.default.fileExists(atPath: folder.appendingPathComponent("SwiftUI.swiftmodule").path) {
            // Another run finished the same build first.
        }
        return folder
    }

    static let compilerVersion: String = (try? Swiftc.run(["--version"], in: repositoryRoot).output) ?? ""

    static func fnv1a(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return hash
    }

    // MARK: Preparing the sources

    /// A block file as the compiler sees it: the `#if os(iOS)` wrapper of a view file
    /// opened, and each `#Preview` turned into a view whose body is the preview's code.
    /// Lines keep their numbers, so diagnostics point at the catalog file.
    static func prepared(_ source: String, path: String, role: String) throws -> String {
        var lines = source.components(separatedBy: "\n")
        if role != "logic" {
            try openPlatformWrapper(&lines, path: path)
        } else if lines.contains(where: { $0.hasPrefix("#if os(") }) {
            throw Failure(description: "\(path): a logic file compiles on every platform (its tests run on Linux); keep it free of '#if os(...)'")
        }
        try cutPreviews(&lines, path: path)
        return lines.joined(separator: "\n")
    }

    /// View files are iOS code: the whole file sits inside `#if os(iOS)` ... `#endif`, so a
    /// multiplatform target still builds on the other platforms. Both lines become blank.
    static func openPlatformWrapper(_ lines: inout [String], path: String) throws {
        let code = lines.indices.filter {
            let line = lines[$0].trimmingCharacters(in: .whitespaces)
            return !line.isEmpty && !line.hasPrefix("//")
        }
        guard let first = code.first, let last = code.last,
            lines[first].trimmingCharacters(in: .whitespaces) == "#if os(iOS)",
            lines[last].trimmingCharacters(in: .whitespaces) == "#endif"
        else {
            throw Failure(description: "\(path): wrap the whole file in '#if os(iOS)' ... '#endif'; the block's views are iOS code")
        }
        lines[first] = ""
        lines[last] = ""
    }

    /// Replaces `#Preview("Name") {` with `@MainActor private struct CutPreviewN: View { var body: some View {`
    /// and its closing brace with `} }`. The preview macro needs Apple's compiler plugin;
    /// the code inside it is an ordinary view body and is checked as one.
    static func cutPreviews(_ lines: inout [String], path: String) throws {
        var count = 0
        var index = 0
        while index < lines.count {
            let line = lines[index]
            guard line.hasPrefix("#Preview") else {
                index += 1
                continue
            }
            guard line.hasSuffix("{"), let close = closingLine(of: lines, openingAt: index) else {
                throw Failure(description: "\(path):\(index + 1): write a preview as '#Preview(\"Name\") {' on one line with its body below and a closing '}'")
            }
            count += 1
            lines[index] = "@MainActor private struct CutPreview\(count): View { var body: some View {"
            lines[close] += " }"
            index = close + 1
        }
    }

    /// The line of the brace that closes the last `{` on line `start`, skipping braces in
    /// string literals and comments. Nil when the file ends first.
    static func closingLine(of lines: [String], openingAt start: Int) -> Int? {
        var depth = 0
        var inBlockComment = false
        var inMultilineString = false
        for number in start..<lines.count {
            let characters = Array(lines[number])
            var position = 0
            var inString = false
            while position < characters.count {
                let character = characters[position]
                let next = position + 1 < characters.count ? characters[position + 1] : nil
                if inBlockComment {
                    if character == "*" && next == "/" {
                        inBlockComment = false
                        position += 1
                    }
                } else if inMultilineString {
                    if characters[position...].starts(with: "\"\"\"") {
                        inMultilineString = false
                        position += 2
                    }
                } else if inString {
                    if character == "\\" { position += 1 } else if character == "\"" { inString = false }
                } else if character == "/" && next == "/" {
                    break
                } else if character == "/" && next == "*" {
                    inBlockComment = true
                    position += 1
                } else if characters[position...].starts(with: "\"\"\"") {
                    inMultilineString = true
                    position += 2
                } else if character == "\"" {
                    inString = true
                } else if character == "{" {
                    depth += 1
                } else if character == "}" {
                    depth -= 1
                    if depth == 0 { return number }
                }
                position += 1
            }
        }
        return nil
    }

    // MARK: Checking

    /// One problem the compiler reported, with the catalog file and line it is about.
    struct Diagnostic: CustomStringConvertible {
        var file: String
        var line: Int
        var column: Int
        var severity: String
        var message: String

        var description: String {
            "\(file):\(line):\(column): \(severity): \(message)"
                + (Self.missingName(in: message).map {
                    "\n    The stub declares no '\($0)'. If Apple's SwiftUI has it, add it to Tests/SwiftUIStub/SwiftUI.swift as its documentation page declares it; if not, the block is wrong."
                } ?? "")
        }

        /// The name a "cannot find" or "has no member" message is about.
        static func missingName(in message: String) -> String? {
            for marker in ["cannot find type '", "cannot find '", "has no member '", "has no member named '"] {
                guard let range = message.range(of: marker) else { continue }
                let rest = message[range.upperBound...]
                guard let end = rest.firstIndex(of: "'") else { continue }
                return String(rest[..<end])
            }
            return nil
        }
    }

    /// Type-checks the Swift files of `block` (all in one compiler run, as one app target
    /// would build them) and returns every error and warning. Warnings count: Swift 6
    /// reports some data-race problems in SwiftUI's `@preconcurrency` API as warnings.
    static func check(_ block: Block, isolation: Isolation) throws -> [Diagnostic] {
        let modules = try stubModules(minimumIOS: block.minimumIOS)
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("view-typecheck-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        var originals: [String: String] = [:]
        var inputs: [String] = []
        for file in block.files {
            let relative = "Catalog/\(block.name)/\(file.path)"
            let source = try String(contentsOf: block.folder.appendingPathComponent(file.path), encoding: .utf8)
            let copy = work.appendingPathComponent(file.path)
            try Data(try prepared(source, path: relative, role: file.role).utf8).write(to: copy)
            originals[copy.path] = relative
            inputs.append(copy.path)
        }
        let result = try Swiftc.run(["-typecheck"] + isolation.flags + ["-I", modules.path] + inputs, in: work)
        let diagnostics = parseDiagnostics(result.output, files: originals)
        if result.status != 0 && diagnostics.isEmpty {
            throw Failure(description: "swiftc failed on \(block.name) without a diagnostic:\n\(result.output)")
        }
        return diagnostics
    }

    /// The `file:line:column: error|warning: message` lines of compiler output, with the
    /// temporary paths put back to catalog paths. Notes belong to a diagnostic and are dropped.
    static func parseDiagnostics(_ output: String, files: [String: String]) -> [Diagnostic] {
        var found: [Diagnostic] = []
        for line in output.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 4, omittingEmptySubsequences: false)
            guard parts.count == 5, let number = Int(parts[1]), let column = Int(parts[2]) else { continue }
            let severity = parts[3].trimmingCharacters(in: .whitespaces)
            guard severity == "error" || severity == "warning" else { continue }
            let path = String(parts[0])
            let diagnostic = Diagnostic(
                file: files[path] ?? files.first(where: { path.hasSuffix($0.key) })?.value ?? path,
                line: number, column: column, severity: severity,
                message: parts[4].trimmingCharacters(in: .whitespaces))
            if !found.contains(where: { $0.description == diagnostic.description }) { found.append(diagnostic) }
        }
        return found
    }
}

/// A dictionary behind a lock, for values the parallel test cases build once and share.
final class LockedDictionary<Key: Hashable, Value>: @unchecked Sendable {
    private var storage: [Key: Value] = [:]
    private let lock = NSLock()

    func withLock<Result>(_ body: (inout [Key: Value]) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&storage)
    }
}

/// The result of one build, made by the first caller while later callers wait for it.
final class BuildOnce: @unchecked Sendable {
    private var result: Result<URL, any Error>?
    private let lock = NSLock()

    func value(_ build: () throws -> URL) throws -> URL {
        lock.lock()
        defer { lock.unlock() }
        if let result { return try result.get() }
        let built = Result { try build() }
        result = built
        return try built.get()
    }
}

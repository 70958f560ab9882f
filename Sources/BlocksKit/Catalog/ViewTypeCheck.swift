/// Type-checks a catalog's view files against a SwiftUI declaration stub (the repository's
/// `Tests/SwiftUIStub`), the way Xcode would compile them in an app target, at the block's
/// minimum iOS and in each `LanguageMode` an app can have. Where Apple's SwiftUI is absent
/// (Linux) this is the only check that the views compile; see the stub's header for what it
/// does and does not prove.
///
/// The one implementation of the check: the repository's tests (ViewTypeCheckTests) and
/// `blocks lint --typecheck` both run it.
struct ViewTypeCheck: Sendable {
    /// The folder that holds the stub's `SwiftUI.swift` and `CoreGraphics.swift`.
    let stubFolder: URL
    /// The Swift compiler (`swiftc`).
    let compiler: URL
    /// Where stub modules are built, one folder per stub content and compiler, so a later
    /// check with the same stub and compiler reuses them.
    let moduleCache: URL

    private let builds = StubBuilds()

    init(stubFolder: URL, compiler: URL, moduleCache: URL) {
        self.stubFolder = stubFolder
        self.compiler = compiler
        self.moduleCache = moduleCache
    }

    /// Whether `folder` holds a stub this check can use.
    static func isStubFolder(_ folder: URL) -> Bool {
        ["SwiftUI.swift", "CoreGraphics.swift"].allSatisfy {
            PathKind(folder.appendingPathComponent($0).path) == .other
        }
    }

    /// The three ways an app target compiles the same files.
    enum LanguageMode: String, CaseIterable, Sendable, CustomStringConvertible {
        /// The Swift 5 language mode, an Xcode app's default: concurrency problems are
        /// mostly warnings, which the check counts as failures.
        case swift5 = "Swift 5"
        /// The Swift 6 language mode, a package's default: nonisolated unless stated.
        case swift6 = "Swift 6"
        /// Swift 6 with `-default-isolation MainActor`, what Xcode 26's app template uses.
        case swift6MainActor = "Swift 6, main actor by default"

        var flags: [String] {
            switch self {
            case .swift5: return ["-swift-version", "5"]
            case .swift6: return ["-swift-version", "6"]
            case .swift6MainActor: return ["-swift-version", "6", "-default-isolation", "MainActor"]
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
        /// The folder as diagnostics show it, such as `Catalog/pager`.
        var shownFolder: String
        var minimumIOS: String
        var files: [File]

        var description: String { name }
    }

    /// The block in `folder`, shown in diagnostics as `shownFolder` (by default
    /// `Catalog/<folder name>`). A block without an iOS minimum cannot be checked: the stub
    /// describes iOS only.
    static func block(at folder: URL, shownFolder: String? = nil) throws -> Block {
        let manifest = folder.appendingPathComponent("block.json")
        guard let data = FileManager.default.contents(atPath: manifest.path), let object = try? JSONReader.parse(data),
            let name = object["name"]?.string, let platforms = object["platforms"]?.object,
            let files = object["files"]?.array
        else { throw Failure(description: "\(folder.lastPathComponent)/block.json lacks name, platforms or files") }
        guard let minimum = platforms["iOS"]?.string else {
            throw Failure(description: "\(name): block.json lists no iOS minimum, and the stub describes iOS only")
        }
        let swiftFiles = files.compactMap { file -> Block.File? in
            guard let path = file["path"]?.string, let role = file["role"]?.string, path.hasSuffix(".swift") else { return nil }
            return Block.File(path: path, role: role)
        }
        return Block(
            name: name, folder: folder, shownFolder: shownFolder ?? "Catalog/\(folder.lastPathComponent)",
            minimumIOS: minimum, files: swiftFiles)
    }

    // MARK: Stub variants

    /// The stub with every API introduced after `minimumIOS` made unavailable and every API
    /// deprecated at or before it made deprecated. Each `@available` stands on a line of
    /// its own, in one of these forms; anything else that mentions `@available` is
    /// reported, so no attribute is silently ignored:
    ///
    /// - `@available(iOS N, *)`: introduced in iOS N; later than the minimum, it becomes
    ///   `@available(*, unavailable, message: "introduced in iOS N")`.
    /// - `@available(iOS, deprecated: N, message: "…")`: deprecated in iOS N, as the SDK
    ///   writes it; at a minimum of N or later it becomes `@available(*, deprecated,
    ///   message: "…")`, below N a blank line (the compiler warns only from N on).
    /// - `@available(*, deprecated, message: "…")` and `@available(*, unavailable)` (with
    ///   or without a message): kept as they are, on every minimum.
    static func stubVariant(_ stub: String, minimumIOS: String) throws -> String {
        var lines: [String] = []
        for (number, line) in stub.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let text = String(line)
            let trimmed = text.trimmingWhitespace()
            let indent = text.prefix { $0 == " " }
            guard trimmed.hasPrefix("@available") else {
                if text.contains("@available("), !trimmed.hasPrefix("//") {
                    throw Failure(description: "SwiftUI.swift:\(number + 1): put @available on a line of its own: \(trimmed)")
                }
                lines.append(text)
                continue
            }
            guard let availability = availability(in: trimmed) else {
                throw Failure(
                    description: "SwiftUI.swift:\(number + 1): write availability as '@available(iOS N.M, *)', "
                        + "'@available(iOS, deprecated: N.M, message: \"…\")', '@available(*, deprecated, message: \"…\")' "
                        + "or '@available(*, unavailable)': \(trimmed)")
            }
            switch availability {
            case .introduced(let version):
                lines.append(
                    isVersion(version, laterThan: minimumIOS)
                        ? "\(indent)@available(*, unavailable, message: \"introduced in iOS \(version)\")" : text)
            case .deprecated(let version, let message):
                lines.append(
                    isVersion(version, laterThan: minimumIOS) ? "" : "\(indent)@available(*, deprecated, message: \(message))")
            case .kept:
                lines.append(text)
            }
        }
        return lines.joined(separator: "\n")
    }

    /// What one `@available` line of the stub says.
    enum Availability: Equatable {
        case introduced(String)
        /// The version and the message as written, quotes included.
        case deprecated(String, message: String)
        case kept
    }

    /// The meaning of an `@available` line, nil for any form the stub may not use.
    static func availability(in line: String) -> Availability? {
        if let version = introduction(in: line) { return .introduced(version) }
        if line == "@available(*, unavailable)" || line == "@available(*, deprecated)" { return .kept }
        for prefix in ["@available(*, unavailable, message: ", "@available(*, deprecated, message: "] {
            if line.hasPrefix(prefix), isStringLiteral(line.dropFirst(prefix.count).dropLast()), line.hasSuffix(")") { return .kept }
        }
        let prefix = "@available(iOS, deprecated: "
        guard line.hasPrefix(prefix), line.hasSuffix(")"), let comma = line.firstRange(of: ", message: ") else { return nil }
        let version = line[line.index(line.startIndex, offsetBy: prefix.count)..<comma.lowerBound]
        let message = line[comma.upperBound..<line.index(before: line.endIndex)]
        guard isVersionNumber(version), isStringLiteral(message) else { return nil }
        return .deprecated(String(version), message: String(message))
    }

    /// "17.0" for `@available(iOS 17.0, *)`, nil for any other form.
    static func introduction(in line: String) -> String? {
        let prefix = "@available(iOS "
        let suffix = ", *)"
        guard line.hasPrefix(prefix), line.hasSuffix(suffix) else { return nil }
        let version = line.dropFirst(prefix.count).dropLast(suffix.count)
        return isVersionNumber(version) ? String(version) : nil
    }

    static func isVersionNumber(_ text: Substring) -> Bool {
        !text.isEmpty && text.first != "." && text.allSatisfy { $0.isNumber || $0 == "." }
    }

    /// A one-line string literal without interpolation: `"…"`, no other quote unescaped.
    static func isStringLiteral(_ text: Substring) -> Bool {
        guard text.count >= 2, text.first == "\"", text.last == "\"" else { return false }
        var escaped = false
        for character in text.dropFirst().dropLast() {
            if escaped {
                if character == "(" { return false }
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == "\"" {
                return false
            }
        }
        return !escaped
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
    /// `moduleCache/<hash>`. Each minimum is built once per checker; different minimums
    /// build in parallel.
    func stubModules(minimumIOS: String) throws -> URL {
        try builds.once(minimumIOS).value { try buildStubModules(minimumIOS: minimumIOS) }
    }

    private func buildStubModules(minimumIOS: String) throws -> URL {
        let coreGraphics = try read(stubFolder.appendingPathComponent("CoreGraphics.swift"))
        let swiftUI = try Self.stubVariant(try read(stubFolder.appendingPathComponent("SwiftUI.swift")), minimumIOS: minimumIOS)
        let key = Self.fnv1a([compilerIdentity(), coreGraphics, swiftUI].joined(separator: "\u{0}"))
        let folder = moduleCache.appendingPathComponent(String(key, radix: 16))
        let built = folder.appendingPathComponent("SwiftUI.swiftmodule").path
        if FileManager.default.fileExists(atPath: built) { return folder }

        // Built in a folder of its own and renamed into place, so a reader never sees half a build.
        let building = moduleCache.appendingPathComponent("building-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: building, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: building) }
        for (module, text) in [("CoreGraphics", coreGraphics), ("SwiftUI", swiftUI)] {
            let source = building.appendingPathComponent("\(module).swift")
            try Data(text.utf8).write(to: source)
            let outcome = try ChildProcess.run(
                compiler.path,
                arguments: [
                    "-emit-module", "-module-name", module, "-parse-as-library", "-swift-version", "6",
                    "-I", building.path, "-emit-module-path", building.appendingPathComponent("\(module).swiftmodule").path,
                    source.path,
                ],
                discardOutput: true, captureErrors: true)
            guard outcome.exitCode == 0 else {
                throw Failure(
                    description: "the \(module) stub for iOS \(minimumIOS) does not build, so fix \(stubFolder.path)/\(module).swift:\n\(outcome.standardError)")
            }
        }
        do {
            try FileManager.default.moveItem(at: building, to: folder)
        } catch where FileManager.default.fileExists(atPath: built) {
            // Another run finished the same build first.
        }
        return folder
    }

    private func read(_ file: URL) throws -> String {
        guard let data = FileManager.default.contents(atPath: file.path) else {
            throw Failure(description: "cannot read the SwiftUI stub's \(file.path)")
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// The compiler's resolved path, size and modification time: a new toolchain builds
    /// new stub modules, since a module is read only by the compiler that wrote it.
    private func compilerIdentity() -> String {
        let path = compiler.resolvingSymlinksInPath().path
        let attributes = (try? FileManager.default.attributesOfItem(atPath: path)) ?? [:]
        let size = attributes[.size].map { "\($0)" } ?? "?"
        let modified = attributes[.modificationDate].map { "\($0)" } ?? "?"
        return "\(path) \(size) \(modified)"
    }

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
            let line = lines[$0].trimmingWhitespace()
            return !line.isEmpty && !line.hasPrefix("//")
        }
        guard let first = code.first, let last = code.last,
            lines[first].trimmingWhitespace() == "#if os(iOS)",
            lines[last].trimmingWhitespace() == "#endif"
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
    struct Diagnostic: Sendable, CustomStringConvertible {
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
                guard let range = message.firstRange(of: marker) else { continue }
                let rest = message[range.upperBound...]
                guard let end = rest.firstIndex(of: "'") else { continue }
                return String(rest[..<end])
            }
            return nil
        }
    }

    /// Type-checks the Swift files of `block` (all in one compiler run, as one app target
    /// would build them) in `mode` and returns every error and warning. Warnings count:
    /// Swift 6 reports some data-race problems in SwiftUI's `@preconcurrency` API as
    /// warnings, Swift 5 most of them, and deprecations are warnings everywhere.
    func check(_ block: Block, mode: LanguageMode) throws -> [Diagnostic] {
        let modules = try stubModules(minimumIOS: block.minimumIOS)
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("blocks-view-typecheck-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        var originals: [String: String] = [:]
        var inputs: [String] = []
        for file in block.files {
            let shown = "\(block.shownFolder)/\(file.path)"
            guard let data = FileManager.default.contents(atPath: block.folder.appendingPathComponent(file.path).path) else {
                throw Failure(description: "\(shown): cannot be read")
            }
            // Files in subfolders keep their place, so two files of one name stay apart.
            let copy = work.appendingPathComponent(file.path)
            try FileManager.default.createDirectory(at: copy.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(try Self.prepared(String(decoding: data, as: UTF8.self), path: shown, role: file.role).utf8).write(to: copy)
            originals[copy.path] = shown
            inputs.append(copy.path)
        }
        let outcome = try ChildProcess.run(
            compiler.path, arguments: ["-typecheck"] + mode.flags + ["-I", modules.path, "-module-name", "BlockViews"] + inputs,
            discardOutput: true, captureErrors: true)
        let diagnostics = Self.parseDiagnostics(outcome.standardError, files: originals)
        if outcome.exitCode != 0 && diagnostics.isEmpty {
            throw Failure(description: "swiftc failed on \(block.name) without a diagnostic:\n\(outcome.standardError)")
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
            let severity = parts[3].trimmingWhitespace()
            guard severity == "error" || severity == "warning" else { continue }
            let path = String(parts[0])
            let diagnostic = Diagnostic(
                file: files[path] ?? files.first(where: { path.hasSuffix($0.key) })?.value ?? path,
                line: number, column: column, severity: severity,
                message: parts[4].trimmingWhitespace())
            if !found.contains(where: { $0.description == diagnostic.description }) { found.append(diagnostic) }
        }
        return found
    }
}

/// The stub builds of one checker, one per minimum iOS, each made by its first caller
/// while later callers of that minimum wait for it.
private final class StubBuilds: @unchecked Sendable {
    private let lock = Lock()
    private var builds: [String: BuildOnce] = [:]

    func once(_ minimumIOS: String) -> BuildOnce {
        lock.withLock {
            if let existing = builds[minimumIOS] { return existing }
            let created = BuildOnce()
            builds[minimumIOS] = created
            return created
        }
    }
}

/// The result of one build, made by the first caller while later callers wait for it.
private final class BuildOnce: @unchecked Sendable {
    private var result: Result<URL, any Error>?
    private let lock = Lock()

    func value(_ build: () throws -> URL) throws -> URL {
        try lock.withLock {
            if let result { return try result.get() }
            let built = Result { try build() }
            result = built
            return try built.get()
        }
    }
}

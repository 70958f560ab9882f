/// Checks a whole catalog folder: every manifest, the files it lists, Swift files it
/// forgot to list, that every Swift file parses and, when asked, that each block's views
/// type-check against the SwiftUI stub. It reports every problem it finds.
public struct CatalogLinter {
    public let root: URL
    /// The Swift compiler used for `swiftc -parse`, or nil to skip that check.
    public let swiftCompiler: URL?
    /// The view check (`lint --typecheck`), or nil to skip it.
    let typeCheck: ViewTypeCheck?

    public init(root: URL, swiftCompiler: URL?) {
        self.init(root: root, swiftCompiler: swiftCompiler, typeCheck: nil)
    }

    init(root: URL, swiftCompiler: URL?, typeCheck: ViewTypeCheck?) {
        self.root = root
        self.swiftCompiler = swiftCompiler
        self.typeCheck = typeCheck
    }

    /// Whether a module named SwiftUI built from the stub is the only one the compiler can
    /// find, as on Linux; on macOS it would meet Apple's own.
    static var stubIsTheOnlySwiftUI: Bool { HostSystem.hasNoSwiftUI }

    /// The SwiftUI stub for `lint --typecheck`: `--stub DIR` when given, else
    /// `BLOCKS_SWIFTUI_STUB`, else the first `Tests/SwiftUIStub` in the catalog's parent
    /// folder or one above it (a catalog repository laid out as this one is). Nil when none
    /// holds `SwiftUI.swift` and `CoreGraphics.swift`; a given folder that does not is an error.
    static func findSwiftUIStub(option: URL?, environment: [String: String], catalog: URL) throws -> URL? {
        if let given = option ?? environment["BLOCKS_SWIFTUI_STUB"].flatMap({ $0.isEmpty ? nil : URL(fileURLWithPath: $0) }) {
            guard ViewTypeCheck.isStubFolder(given) else { throw LintSetupError.notAStub(given.path) }
            return given
        }
        var folder = catalog.standardizedFileURL.deletingLastPathComponent()
        while true {
            let candidate = folder.appendingPathComponent("Tests/SwiftUIStub")
            if ViewTypeCheck.isStubFolder(candidate) { return candidate }
            let parent = folder.deletingLastPathComponent()
            if parent.path == folder.path { return nil }
            folder = parent
        }
    }

    /// `swiftc` from `SWIFTC`, then PATH.
    public static func findSwiftCompiler(environment: [String: String]) -> URL? {
        if let explicit = environment["SWIFTC"], FileManager.default.isExecutableFile(atPath: explicit) {
            return URL(fileURLWithPath: explicit)
        }
        for folder in (environment["PATH"] ?? "").split(separator: ":") {
            let path = "\(folder)/swiftc"
            if FileManager.default.isExecutableFile(atPath: path) { return URL(fileURLWithPath: path) }
        }
        return nil
    }

    public struct Report: Sendable {
        public var blockCount: Int
        public var problems: [LintProblem]
        public var parseChecked: Bool
        /// How many blocks the view check type-checked (0 without `--typecheck`).
        public var typeCheckedCount: Int = 0
    }

    public func run() throws -> Report {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: root.path) else {
            throw CatalogError.notACatalog(path: root.path)
        }
        var problems: [LintProblem] = []
        var swiftFiles: [String] = []
        var names: Set<String> = []
        var dependencies: [Dependency] = []
        var blockFolders: [URL] = []
        for folderName in entries.sorted() where !folderName.hasPrefix(".") {
            let folder = root.appendingPathComponent(folderName)
            guard PathKind(folder.path) == .folder else { continue }
            blockFolders.append(folder)
            let block = lintBlock(in: folder, named: folderName)
            problems += block.problems
            guard block.hasManifest else { continue }
            names.insert(folderName)
            dependencies += block.dependencies
            swiftFiles += block.swiftFiles
        }
        if blockFolders.isEmpty { throw CatalogError.notACatalog(path: root.path) }
        problems += Self.unknownDependencyProblems(dependencies, names: names)
        if let swiftCompiler, !swiftFiles.isEmpty {
            problems += try parseProblems(swiftFiles, compiler: swiftCompiler)
        }
        var typeChecked = 0
        if let typeCheck {
            // A block with a problem already is checked once that is fixed: a file that does
            // not parse, or a manifest that lists a missing file, would only be said again.
            let clean = blockFolders.filter { folder in
                let shown = relative(folder) + "/"
                return !problems.contains { $0.file.hasPrefix(shown) }
            }
            let (found, count) = try typeCheckProblems(clean, check: typeCheck)
            problems += found
            typeChecked = count
        }
        return Report(blockCount: blockFolders.count, problems: problems, parseChecked: swiftCompiler != nil, typeCheckedCount: typeChecked)
    }

    /// A block's requirement on another block: the manifest that states it, and where.
    struct Dependency {
        var file: String
        var index: Int
        var requirement: BlockRequirement
    }

    /// What one block folder's lint finds: its problems, and, when it has a manifest,
    /// the blocks it depends on and its Swift files (for the catalog-wide checks).
    struct BlockFindings {
        var problems: [LintProblem] = []
        var hasManifest = false
        var dependencies: [Dependency] = []
        var swiftFiles: [String] = []
    }

    /// One block folder: its manifest, the files it lists against those present, and
    /// each Swift file's license header.
    func lintBlock(in folder: URL, named folderName: String) -> BlockFindings {
        let fileManager = FileManager.default
        var findings = BlockFindings()
        let manifestFile = folder.appendingPathComponent("block.json")
        let shownManifest = relative(manifestFile)
        guard let data = fileManager.contents(atPath: manifestFile.path) else {
            findings.problems.append(LintProblem(file: shownManifest, field: "", message: "missing block.json"))
            return findings
        }
        findings.hasManifest = true
        findings.problems += ManifestValidator.problems(in: data, file: shownManifest, folderName: folderName)
        findings.problems += Self.placeholderProblems(in: data, file: shownManifest)
        let texts = (try? JSONReader.parse(data))?["dependencies"]?["blocks"]?.strings ?? []
        for (index, text) in texts.enumerated() {
            if let requirement = BlockRequirement(text) { findings.dependencies.append(Dependency(file: shownManifest, index: index, requirement: requirement)) }
        }
        let present = Self.swiftFiles(under: folder)
        // A manifest that is not JSON lists nothing: its one error is enough, without
        // every file of the block then "not listed".
        if let listed = Self.listedFiles(in: data) {
            for path in listed where !fileManager.fileExists(atPath: folder.appendingPathComponent(path).path) {
                findings.problems.append(LintProblem(file: shownManifest, field: "files", message: "lists \(path), which does not exist"))
            }
            for path in present where !listed.contains(path) {
                findings.problems.append(LintProblem(file: relative(folder.appendingPathComponent(path)), field: "files", message: "is not listed in block.json"))
            }
        }
        for path in present {
            let file = folder.appendingPathComponent(path)
            if let problem = Self.licenseProblem(in: file, shown: relative(file)) { findings.problems.append(problem) }
        }
        findings.swiftFiles = present.map { folder.appendingPathComponent($0).path }
        return findings
    }

    /// A bare name is a block of this catalog; `@namespace/name` is another registry's,
    /// which the project that adds it names in blocks.json.
    static func unknownDependencyProblems(_ dependencies: [Dependency], names: Set<String>) -> [LintProblem] {
        dependencies.filter { $0.requirement.reference.namespace == nil && !names.contains($0.requirement.reference.name) }.map { dependency in
            let name = dependency.requirement.reference.name
            let hint = EditDistance.suggestions(for: name, in: names.sorted()).first.map { "; did you mean '\($0)'?" } ?? ""
            return LintProblem(
                file: dependency.file, field: "dependencies.blocks[\(dependency.index)]",
                message: "names '\(name)', which is not a block of this catalog\(hint)")
        }
    }

    /// The view check over `folders`: each block with an iOS minimum in every language
    /// mode, blocks and modes in parallel. A diagnostic found in several modes is one
    /// problem that names them. Blocks without an iOS minimum are skipped: the stub
    /// describes iOS only. Returns the problems and how many blocks were checked.
    func typeCheckProblems(_ folders: [URL], check: ViewTypeCheck) throws -> (problems: [LintProblem], checked: Int) {
        var blocks: [ViewTypeCheck.Block] = []
        for folder in folders {
            guard let data = FileManager.default.contents(atPath: folder.appendingPathComponent("block.json").path),
                (try? JSONReader.parse(data))?["platforms"]?["iOS"]?.string != nil
            else { continue }
            blocks.append(try ViewTypeCheck.block(at: folder, shownFolder: relative(folder)))
        }
        // The stub for each minimum first: a stub that does not build stops the check.
        for minimum in Set(blocks.map(\.minimumIOS)).sorted() { _ = try check.stubModules(minimumIOS: minimum) }
        let runs = blocks.flatMap { block in ViewTypeCheck.LanguageMode.allCases.map { (block, $0) } }
        let outcomes = ConcurrentMap.map(runs) { block, mode in Result { try check.check(block, mode: mode) } }
        var problems: [LintProblem] = []
        var modes: [String: [String]] = [:]
        var order: [(key: String, diagnostic: ViewTypeCheck.Diagnostic, minimum: String)] = []
        var failedBlocks: Set<String> = []
        for ((block, mode), outcome) in zip(runs, outcomes) {
            let diagnostics: [ViewTypeCheck.Diagnostic]
            do {
                diagnostics = try outcome.get()
            } catch let failure as ViewTypeCheck.Failure {
                // The block's own files are at fault (no `#if os(iOS)` wrapper, a preview
                // written differently): one problem per block, not one per mode.
                if failedBlocks.insert(block.shownFolder).inserted {
                    problems.append(LintProblem(file: block.shownFolder, field: "", message: "cannot be type-checked: \(failure.description)"))
                }
                continue
            }
            for diagnostic in diagnostics {
                let key = "\(diagnostic.file):\(diagnostic.line):\(diagnostic.column): \(diagnostic.severity): \(diagnostic.message)"
                if modes[key] == nil { order.append((key, diagnostic, block.minimumIOS)) }
                modes[key, default: []].append(mode.description)
            }
        }
        for (key, diagnostic, minimum) in order {
            let modeList = (modes[key] ?? []).joined(separator: "; ")
            problems.append(
                LintProblem(
                    file: diagnostic.file, field: "",
                    message: "\(diagnostic.line):\(diagnostic.column): \(diagnostic.severity) at iOS \(minimum) (\(modeList)): \(diagnostic.message)"))
        }
        return (problems, blocks.count)
    }

    func relative(_ url: URL) -> String {
        let base = root.standardizedFileURL.path
        let path = url.standardizedFileURL.path
        let name = root.lastPathComponent
        return path.hasPrefix(base + "/") ? name + "/" + path.dropFirst(base.count + 1) : path
    }

    /// The paths the manifest lists, or nil when it is not JSON.
    /// The texts `blocks new` leaves for the author to replace ("Describe what the block
    /// does.", "Your Name", "Say what VoiceOver reads."...), by their path in block.json,
    /// read from the scaffold itself so the two never drift apart. The scaffold's other
    /// values (version, category, level, tags...) are real choices and stay allowed.
    static let scaffoldPlaceholders: [String: String] = {
        guard let template = try? JSONReader.parse(Data(TemplateText.named("scaffold/block.json").utf8)) else { return [:] }
        return Dictionary(
            stringLeaves(of: template).filter { path, text in
                !text.contains("{{") && ["summary", "authors", "accessibility"].contains { path == $0 || path.hasPrefix($0 + ".") || path.hasPrefix($0 + "[") }
            }, uniquingKeysWith: { first, _ in first })
    }()

    /// A manifest field that still holds the scaffold's placeholder: a lint error naming
    /// the file and the field, since a registry would publish it as it is.
    static func placeholderProblems(in data: Data, file: String) -> [LintProblem] {
        guard let document = try? JSONReader.parse(data) else { return [] }
        return stringLeaves(of: document).compactMap { path, text in
            guard scaffoldPlaceholders[path] == text else { return nil }
            return LintProblem(file: file, field: path, message: "still holds the scaffold's placeholder \"\(text)\"; write the block's own")
        }
    }

    /// Every string in a JSON document with its path (`summary.en`, `authors[0]`), in order.
    static func stringLeaves(of value: JSONValue, path: String = "") -> [(String, String)] {
        switch value {
        case .string(let text): return [(path, text)]
        case .array(let elements): return elements.enumerated().flatMap { stringLeaves(of: $0.element, path: path + "[\($0.offset)]") }
        case .object(let members):
            return members.sorted { $0.key < $1.key }.flatMap { stringLeaves(of: $0.value, path: path.isEmpty ? $0.key : path + "." + $0.key) }
        default: return []
        }
    }

    static func listedFiles(in data: Data) -> [String]? {
        guard let root = try? JSONReader.parse(data) else { return nil }
        return root["files"]?.array?.compactMap { $0["path"]?.string } ?? []
    }

    /// A Swift file whose SPDX line names a license other than the MIT every block ships
    /// under: `add`, `build` and `export` refuse it (`LicenseHeader`), so lint says so first.
    static func licenseProblem(in file: URL, shown: String) -> LintProblem? {
        guard let data = FileManager.default.contents(atPath: file.path), let text = String(data: data, encoding: .utf8),
            let identifier = LicenseHeader.spdxIdentifier(in: text), !LicenseHeader.isMIT(identifier)
        else { return nil }
        return LintProblem(
            file: shown, field: "",
            message: "declares 'SPDX-License-Identifier: \(identifier)', but blocks ship under MIT; "
                + "remove the line (the MIT header is added for you) or relicense the file")
    }

    static func swiftFiles(under folder: URL) -> [String] {
        let paths = (try? FileManager.default.subpathsOfDirectory(atPath: folder.path)) ?? []
        return paths.filter { $0.hasSuffix(".swift") }.sorted()
    }

    /// `swiftc -parse` over every file, many per run on every core (`SwiftSyntaxCheck`);
    /// each broken file names itself.
    func parseProblems(_ files: [String], compiler: URL) throws -> [LintProblem] {
        try SwiftSyntaxCheck(compiler: compiler).firstErrors(in: files).map {
            LintProblem(file: relative(URL(fileURLWithPath: $0.file)), field: "", message: "does not parse: \($0.error)")
        }
    }
}

/// Why `lint --typecheck` cannot run at all.
enum LintSetupError: Error, Equatable, CustomStringConvertible {
    case notAStub(String)
    case noStub(catalog: String)
    case noCompiler
    case notLinux

    var description: String {
        switch self {
        case .notAStub(let path):
            return "\(path) is not a SwiftUI stub folder: it needs SwiftUI.swift and CoreGraphics.swift"
        case .noStub(let catalog):
            return "--typecheck needs the SwiftUI stub: pass --stub DIR or set BLOCKS_SWIFTUI_STUB "
                + "(no Tests/SwiftUIStub was found above \(catalog))"
        case .noCompiler:
            return "--typecheck needs swiftc: none on PATH (or SWIFTC)"
        case .notLinux:
            return "--typecheck runs on Linux only: the stub stands in for SwiftUI where Apple's is absent, "
                + "and here it would meet Apple's own; build the blocks for iOS with Xcode instead"
        }
    }
}

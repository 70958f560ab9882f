/// Checks a whole catalog folder: every manifest, the files it lists, Swift files it
/// forgot to list, and that every Swift file parses. It reports every problem it finds.
public struct CatalogLinter {
    public let root: URL
    /// The Swift compiler used for `swiftc -parse`, or nil to skip that check.
    public let swiftCompiler: URL?

    public init(root: URL, swiftCompiler: URL?) {
        self.root = root
        self.swiftCompiler = swiftCompiler
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
    }

    public func run() throws -> Report {
        let fileManager = FileManager.default
        guard let entries = try? fileManager.contentsOfDirectory(atPath: root.path) else {
            throw CatalogError.notACatalog(path: root.path)
        }
        var problems: [LintProblem] = []
        var blockCount = 0
        var swiftFiles: [String] = []
        var names: Set<String> = []
        var dependencies: [(file: String, index: Int, requirement: BlockRequirement)] = []
        for folderName in entries.sorted() where !folderName.hasPrefix(".") {
            let folder = root.appendingPathComponent(folderName)
            guard PathKind(folder.path) == .folder else { continue }
            blockCount += 1
            let manifestFile = folder.appendingPathComponent("block.json")
            let shownManifest = relative(manifestFile)
            guard let data = fileManager.contents(atPath: manifestFile.path) else {
                problems.append(LintProblem(file: shownManifest, field: "", message: "missing block.json"))
                continue
            }
            problems += ManifestValidator.problems(in: data, file: shownManifest, folderName: folderName)
            names.insert(folderName)
            let texts = (try? JSONReader.parse(data))?["dependencies"]?["blocks"]?.strings ?? []
            for (index, text) in texts.enumerated() {
                if let requirement = BlockRequirement(text) { dependencies.append((shownManifest, index, requirement)) }
            }
            let present = Self.swiftFiles(under: folder)
            // A manifest that is not JSON lists nothing: its one error is enough, without
            // every file of the block then "not listed".
            if let listed = Self.listedFiles(in: data) {
                for path in listed where !fileManager.fileExists(atPath: folder.appendingPathComponent(path).path) {
                    problems.append(LintProblem(file: shownManifest, field: "files", message: "lists \(path), which does not exist"))
                }
                for path in present where !listed.contains(path) {
                    problems.append(LintProblem(file: relative(folder.appendingPathComponent(path)), field: "files", message: "is not listed in block.json"))
                }
            }
            for path in present {
                let file = folder.appendingPathComponent(path)
                if let problem = Self.licenseProblem(in: file, shown: relative(file)) { problems.append(problem) }
            }
            swiftFiles += present.map { folder.appendingPathComponent($0).path }
        }
        if blockCount == 0 { throw CatalogError.notACatalog(path: root.path) }
        // A bare name is a block of this catalog; `@namespace/name` is another registry's,
        // which the project that adds it names in blocks.json.
        for (file, index, requirement) in dependencies where requirement.reference.namespace == nil && !names.contains(requirement.reference.name) {
            let hint = EditDistance.suggestions(for: requirement.reference.name, in: names.sorted()).first.map { "; did you mean '\($0)'?" } ?? ""
            problems.append(
                LintProblem(
                    file: file, field: "dependencies.blocks[\(index)]",
                    message: "names '\(requirement.reference.name)', which is not a block of this catalog\(hint)"))
        }
        if let swiftCompiler, !swiftFiles.isEmpty {
            problems += try parseProblems(swiftFiles, compiler: swiftCompiler)
        }
        return Report(blockCount: blockCount, problems: problems, parseChecked: swiftCompiler != nil)
    }

    func relative(_ url: URL) -> String {
        let base = root.standardizedFileURL.path
        let path = url.standardizedFileURL.path
        let name = root.lastPathComponent
        return path.hasPrefix(base + "/") ? name + "/" + path.dropFirst(base.count + 1) : path
    }

    /// The paths the manifest lists, or nil when it is not JSON.
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

/// The folder blocks are added to, and why it was chosen, which `add` prints.
public struct TargetFolder: Sendable, Equatable {
    public var url: URL
    /// Relative to the project root; "." for the root itself.
    public var relativePath: String
    public var reason: String
    /// In an Xcode project: the target the blocks join, and how.
    public var xcode: XcodeMembership? = nil

    /// Asks a person to pick one of `options` (by index), or nil when they do not answer.
    /// Passed only when someone can answer; without one, several targets are an error.
    public typealias Chooser = (_ question: String, _ options: [String]) -> Int?

    /// Chooses the folder, in this order: `blocks.json`'s `path`; `--path`; for a SwiftPM
    /// package with exactly one source target, `Sources/<Target>/Blocks` (with several,
    /// ask on a terminal or fail listing them); `Blocks/` in an Xcode project's target
    /// folder; or `Blocks/` in the current folder.
    /// In an Xcode project, the folder is inside the chosen target's folder (`targetOption`,
    /// else `blocks.json`'s `target`, else the one app target, else asked): see `XcodeProjects`.
    public static func resolve(
        root: URL, config: ProjectConfig?, pathOption: String?, paths: PathContext, notices: NoticeHandler, chooser: Chooser?,
        targetOption: String? = nil
    ) throws -> TargetFolder {
        if let configured = config?.path, !configured.isEmpty {
            // Like --path, except that a relative path is from the root: an absolute one (or
            // one from ~) is taken as it is, and must be inside the project like any other.
            let absolute = configured.hasPrefix("/") || configured == "~" || configured.hasPrefix("~/")
            let folder = try inside(
                absolute ? paths.resolve(configured) : root.appendingPathComponent(configured), root: root,
                spelled: "\(configured) (the path in \(ProjectConfig.fileName))", option: nil)
            if let pathOption, paths.resolve(pathOption).standardizedFileURL != folder.url {
                notices(
                    .warning(
                        "--path \(pathOption) is ignored: \(ProjectConfig.fileName) sets the folder to \(folder.relativePath); change it with 'blocks init --path DIR'"
                    ))
            }
            return TargetFolder(url: folder.url, relativePath: folder.relativePath, reason: "from \(ProjectConfig.fileName)")
        }
        if let pathOption {
            var folder = try inside(paths.resolve(pathOption), root: root, spelled: pathOption, option: "--path")
            folder.reason = "from --path"
            return folder
        }
        let package = root.appendingPathComponent("Package.swift")
        if let text = try? String(contentsOf: package, encoding: .utf8) {
            let targets = packageTargets(text: text, root: root)
            if targets.count == 1, let target = targets.first {
                return try named(target.path + "/Blocks", root: root, reason: "the package's only target, \(target.name)")
            }
            if targets.count > 1 {
                let target = try choose(among: targets, chooser: chooser)
                return try named(target.path + "/Blocks", root: root, reason: "target \(target.name)")
            }
        }
        let bundles = XcodeProjects.bundles(at: root)
        if bundles.isEmpty, let generator = XcodeProjects.generator(at: root) {
            // Its manifest says where sources go, in a language of its own: without the
            // generated project to read, only the user can say.
            throw XcodeProjectError.unsupportedLayout(
                project: generator, reason: "the project it generates is not there to read the target's folder from; generate it first, or")
        }
        if !bundles.isEmpty {
            return try xcodeFolder(bundles: bundles, root: root, target: targetOption ?? config?.target, chooser: chooser)
        }
        let current = paths.workingDirectory.appendingPathComponent("Blocks")
        var folder = try inside(current, root: root, spelled: current.path, option: nil)
        folder.reason = "in the current folder"
        return folder
    }

    /// Writes the choice of `folder` to the project's `blocks.json`, keeping what else it
    /// says: an Xcode target as `target` (so `add` finds its folder and membership), any
    /// other folder as `path`. The file is replaced atomically.
    public static func saveChoice(_ folder: TargetFolder, root: URL) throws {
        var config = try ProjectConfig.read(root: root) ?? ProjectConfig()
        if let membership = folder.xcode {
            config.target = membership.target
            config.path = nil
        } else {
            config.path = folder.relativePath
        }
        let url = root.appendingPathComponent(ProjectConfig.fileName)
        try StagingArea.writeAtomically(try config.encoded(), to: url, root: root, displayPath: ProjectConfig.fileName)
    }

    /// The package's source targets: the declared ones, or when none can be read from
    /// the text (targets built in a loop, say), the folders under `Sources/`.
    static func packageTargets(text: String, root: URL) -> [PackageManifestScanner.Target] {
        let declared = PackageManifestScanner.targets(in: text)
        if !declared.isEmpty { return declared }
        let sources = root.appendingPathComponent("Sources")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: sources.path)) ?? []
        return names.sorted().filter { name in
            !name.hasPrefix(".") && PathKind(sources.appendingPathComponent(name).path) == .folder
        }.map { PackageManifestScanner.Target(name: $0, path: "Sources/\($0)") }
    }

    static func choose(
        among targets: [PackageManifestScanner.Target], chooser: Chooser?
    ) throws -> PackageManifestScanner.Target {
        let labels = targets.map { "\($0.name) (\($0.path)/Blocks)" }
        guard let chooser, let index = chooser("This package has several targets. Which one gets the blocks?", labels), targets.indices.contains(index)
        else { throw InstallError.severalTargets(targets.map(\.name)) }
        return targets[index]
    }

    /// The `Blocks` folder of a target of an Xcode project. A generated project (XcodeGen,
    /// Tuist) is never edited: the folder is found the same way, from the generated
    /// project, and the next generation picks the files up from the target's folder.
    static func xcodeFolder(bundles: [URL], root: URL, target name: String?, chooser: Chooser?) throws -> TargetFolder {
        var projects: [XcodeProject] = []
        for bundle in bundles { projects.append(try XcodeProject(bundle: bundle)) }
        let (project, target) = try XcodeProjects.chooseTarget(in: projects, named: name, chooser: chooser)
        let bundle = project.bundle
        let placement = try XcodeProjects.blocksFolder(in: project, target: target)
        guard let relative = ProjectPaths.relative(project.sourceRoot.appendingPathComponent(placement.folder), to: root) else {
            throw InstallError.pathEscapesProject(path: placement.folder, root: root.path)
        }
        if let generator = XcodeProjects.generator(at: root) {
            var folder = try named(relative, root: root, reason: "target \(target.name) of \(bundle.lastPathComponent), generated by \(generator): the next generation picks the files up")
            folder.xcode = nil
            return folder
        }
        var folder = try named(relative, root: root, reason: "target \(target.name) of \(bundle.lastPathComponent)")
        folder.xcode = XcodeMembership(bundle: bundle, target: target.name, synchronized: placement.synchronized)
        return folder
    }

    static func named(_ relative: String, root: URL, reason: String) throws -> TargetFolder {
        var folder = try inside(root.appendingPathComponent(relative), root: root, spelled: relative, option: nil)
        folder.reason = reason
        return folder
    }

    /// The folder, if it is inside the project root lexically and through symbolic links.
    /// A lexical escape given as an option is a usage error.
    static func inside(_ url: URL, root: URL, spelled: String, option: String?) throws -> TargetFolder {
        let standardized = url.standardizedFileURL
        let relative = standardized.path == root.standardizedFileURL.path ? "." : ProjectPaths.relative(standardized, to: root)
        guard let relative else {
            if let option {
                throw UsageError.invalidValue(option: option, value: spelled, expected: "a folder inside the project root \(root.path)")
            }
            throw InstallError.pathEscapesProject(path: spelled, root: root.path)
        }
        guard ProjectPaths.staysInside(standardized, root: root) else {
            throw InstallError.pathEscapesProject(path: spelled, root: root.path)
        }
        return TargetFolder(url: standardized, relativePath: relative, reason: "")
    }
}

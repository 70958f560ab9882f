/// How a block becomes part of an Xcode target: the project, the chosen target, and
/// whether its folder is synchronized (Xcode 16 and later: any file in it is a member,
/// no project edit needed) or classic (the project file lists each file).
public struct XcodeMembership: Sendable, Equatable {
    public var bundle: URL
    public var target: String
    public var synchronized: Bool
    /// The project file's change that makes the planned files members, once planned.
    public var edit: ProjectFileEdit? = nil

    /// What `add` prints about it.
    public var summary: String {
        synchronized
            ? "target \(target) of \(bundle.lastPathComponent): a synchronized folder, so no project file edit is needed"
            : "target \(target) of \(bundle.lastPathComponent): its project.pbxproj lists the new files"
    }
}

/// A `project.pbxproj` before and after an edit: written in one rename, within the
/// install transaction (`InstallTransaction.apply`).
public struct ProjectFileEdit: Sendable, Equatable {
    public var url: URL
    public var old: Data
    public var new: Data

    /// The edit as a unified diff, for `--dry-run`.
    public func diff(root: URL) -> String {
        let name = ProjectPaths.relative(url, to: root) ?? url.path
        return LineDiff.unified(
            old: String(decoding: old, as: UTF8.self), new: String(decoding: new, as: UTF8.self), oldName: "a/\(name)", newName: "b/\(name)")
    }
}

/// Finding an Xcode project at a project root, choosing its target, placing blocks in it
/// and keeping its project file in step with the files a block has.
public enum XcodeProjects {
    /// The `.xcodeproj` at `root` (the first by name when there are several), or nil.
    public static func bundle(at root: URL) -> URL? {
        bundles(at: root).first
    }

    /// The Xcode projects at `root`: its `.xcodeproj`, else every project its
    /// `.xcworkspace` lists (`contents.xcworkspacedata`), one level up from them.
    public static func bundles(at root: URL) -> [URL] {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []).sorted()
        if let project = names.first(where: { $0.hasSuffix(".xcodeproj") }) { return [root.appendingPathComponent(project, isDirectory: true)] }
        guard let workspace = names.first(where: { $0.hasSuffix(".xcworkspace") }),
            let data = FileManager.default.contents(atPath: root.appendingPathComponent("\(workspace)/contents.xcworkspacedata").path),
            data.count <= 1024 * 1024
        else { return [] }
        return workspaceProjects(String(decoding: data, as: UTF8.self)).compactMap { location in
            guard let relative = ProjectPaths.normalizedRelative(location), relative.hasSuffix(".xcodeproj") else { return nil }
            let url = root.appendingPathComponent(relative, isDirectory: true)
            return FileManager.default.fileExists(atPath: url.appendingPathComponent("project.pbxproj").path) ? url : nil
        }
    }

    /// The `location` of each `FileRef` of a workspace, for the `group:` and `container:`
    /// kinds (relative to the workspace's folder); absolute ones are not followed.
    static func workspaceProjects(_ text: String) -> [String] {
        var found: [String] = []
        var rest = Substring(text)
        while let start = rest.firstRange(of: "location = \"") {
            rest = rest[start.upperBound...]
            guard let end = rest.firstIndex(of: "\"") else { break }
            let value = String(rest[..<end])
            rest = rest[end...]
            for prefix in ["group:", "container:"] where value.hasPrefix(prefix) {
                found.append(String(value.dropFirst(prefix.count)).replacingXMLEntities())
            }
        }
        return found
    }

    /// The tool that generates the project at `root`, whose `.xcodeproj` is never edited
    /// since the next generation would undo it: XcodeGen or Tuist.
    public static func generator(at root: URL) -> String? {
        if FileManager.default.fileExists(atPath: root.appendingPathComponent("project.yml").path) { return "XcodeGen (project.yml)" }
        if FileManager.default.fileExists(atPath: root.appendingPathComponent("Project.swift").path) { return "Tuist (Project.swift)" }
        return nil
    }

    /// The target blocks go to: `name` when given; else the one application target; else
    /// the person's choice, when someone can answer; else an error listing them.
    public static func chooseTarget(
        in project: XcodeProject, named name: String?, chooser: TargetFolder.Chooser?
    ) throws(XcodeProjectError) -> XcodeProject.Target {
        try chooseTarget(in: [project], named: name, chooser: chooser).target
    }

    /// The same over the projects of a workspace: targets of all of them, one choice.
    public static func chooseTarget(
        in projects: [XcodeProject], named name: String?, chooser: TargetFolder.Chooser?
    ) throws(XcodeProjectError) -> (project: XcodeProject, target: XcodeProject.Target) {
        let projectName = projects.map(\.bundle.lastPathComponent).joined(separator: ", ")
        let all = projects.flatMap { project in project.targets.map { (project: project, target: $0) } }
        let names = all.map(\.target.name)
        if let name {
            guard let found = all.first(where: { $0.target.name == name }) else { throw .unknownTarget(name, project: projectName, targets: names) }
            return found
        }
        guard !all.isEmpty else { throw .noTarget(project: projectName) }
        let applications = all.filter(\.target.isApplication)
        if applications.count == 1, let only = applications.first { return only }
        if all.count == 1, let only = all.first { return only }
        let labels = all.map { "\($0.target.name) (\($0.target.kind)\(projects.count > 1 ? ", " + $0.project.bundle.lastPathComponent : ""))" }
        guard let chooser, let index = chooser("\(projectName) has several targets. Which one gets the blocks?", labels), all.indices.contains(index)
        else { throw .severalTargets(project: projectName, targets: names) }
        return all[index]
    }

    /// The folder (relative to the source root) that blocks go to in `target`, and whether
    /// it is synchronized: `Blocks` inside the target's synchronized folder, or inside the
    /// folder of its source group.
    public static func blocksFolder(in project: XcodeProject, target: XcodeProject.Target) throws(XcodeProjectError) -> (folder: String, synchronized: Bool) {
        let groups = target.synchronizedGroupIDs
        if !groups.isEmpty {
            let named = groups.first { project.objects[$0]?["path"]?.string == target.name } ?? groups[0]
            let folder = try project.folder(ofGroup: named)
            for exception in project.membershipExceptions(ofGroup: named, target: target) {
                let excluded = exception.hasSuffix("/") ? String(exception.dropLast()) : exception
                if excluded == "Blocks" || "Blocks".hasPrefix(excluded + "/") {
                    throw .excludedFolder(project: project.bundle.lastPathComponent, folder: join(folder, "Blocks"), target: target.name)
                }
            }
            return (join(folder, "Blocks"), true)
        }
        return (join(try project.folder(ofGroup: project.sourceGroup(of: target)), "Blocks"), false)
    }

    /// The membership `update` keeps in step: the project at `root` (never a generated
    /// one) and its target `name`, or its one app target. Nil when there is none, or when
    /// nothing says which target without asking.
    public static func membership(at root: URL, target name: String?) -> XcodeMembership? {
        let projects = bundles(at: root).compactMap { try? XcodeProject(bundle: $0) }
        guard generator(at: root) == nil, !projects.isEmpty, let chosen = try? chooseTarget(in: projects, named: name, chooser: nil),
            let placement = try? blocksFolder(in: chosen.project, target: chosen.target)
        else { return nil }
        return XcodeMembership(bundle: chosen.project.bundle, target: chosen.target.name, synchronized: placement.synchronized)
    }

    /// The Swift files of `lock`'s blocks that a classic Xcode project at `root` no longer
    /// references (the user took them out of the target), by block: `status` reports them.
    public static func unreferencedFiles(lock: Lockfile, root: URL, target: String?) -> [String: [String]] {
        guard let membership = membership(at: root, target: target), !membership.synchronized,
            let project = try? XcodeProject(bundle: membership.bundle)
        else { return [:] }
        let editor = XcodeProjectEditor(project: project)
        var missing: [String: [String]] = [:]
        for (name, block) in lock.blocks {
            guard let folder = relative(block.folder, root, project) else { continue }
            let referenced = Set(editor.referencedFiles(under: folder))
            let files = block.files.map(\.path).filter { path in
                path.hasSuffix(".swift") && FileManager.default.fileExists(atPath: root.appendingPathComponent(path).path)
                    && relative(path, root, project).map { !referenced.contains($0) } ?? false
            }
            if !files.isEmpty { missing[name] = files.sorted() }
        }
        return missing
    }

    static func join(_ folder: String, _ name: String) -> String { folder.isEmpty ? name : "\(folder)/\(name)" }

    /// The project file with each block of `plan` a member of the target exactly with the
    /// Swift files it will have; nil when it needs no change (a synchronized folder, or
    /// references already in step).
    public static func projectFile(after plan: InstallPlan, membership: XcodeMembership) throws -> ProjectFileEdit? {
        guard !membership.synchronized else { return nil }
        var project = try XcodeProject(bundle: membership.bundle)
        let original = project.bytes
        guard let target = project.targets.first(where: { $0.name == membership.target }) else {
            throw XcodeProjectError.unknownTarget(membership.target, project: membership.bundle.lastPathComponent, targets: project.targets.map(\.name))
        }
        for block in plan.blocks {
            let files = block.files.map(\.path) + block.untouchedFiles.map(\.path)
            guard let folder = relative(block.folder, plan.root, project) else { continue }
            let paths = files.compactMap { relative($0, plan.root, project) }
            if let edited = try XcodeProjectEditor.synced(project, target: target, blockFolder: folder, files: paths) {
                project = try XcodeProject(bundle: membership.bundle, bytes: edited)
            }
        }
        return project.bytes == original ? nil : ProjectFileEdit(url: project.file, old: Data(original), new: Data(project.bytes))
    }

    /// The project file at `root` without the references `add` made for the files of each
    /// block folder (relative to the root) but those kept; nil when there is no project
    /// or nothing to take out. `remove` writes it just after the lock.
    public static func projectFile(removing folders: [(folder: String, kept: [String])], root: URL) -> ProjectFileEdit? {
        // In a workspace, the project whose folder holds the blocks.
        let candidates = bundles(at: root).filter { bundle in
            folders.contains { ProjectPaths.relative(root.appendingPathComponent($0.folder), to: bundle.deletingLastPathComponent()) != nil }
        }
        guard generator(at: root) == nil, let bundle = candidates.first, var project = try? XcodeProject(bundle: bundle) else { return nil }
        let original = project.bytes
        for (folder, kept) in folders {
            guard let relativeFolder = relative(folder, root, project) else { continue }
            let keptPaths = kept.compactMap { relative($0, root, project) }
            guard let edited = try? XcodeProjectEditor.synced(project, target: nil, blockFolder: relativeFolder, files: keptPaths),
                let reread = try? XcodeProject(bundle: bundle, bytes: edited)
            else { continue }
            project = reread
        }
        return project.bytes == original ? nil : ProjectFileEdit(url: project.file, old: Data(original), new: Data(project.bytes))
    }

    /// A path relative to the project root, made relative to the Xcode project's source
    /// root (the same folder, unless the project sits deeper).
    static func relative(_ path: String, _ root: URL, _ project: XcodeProject) -> String? {
        ProjectPaths.relative(root.appendingPathComponent(path), to: project.sourceRoot)
    }
}

extension String {
    /// The text of an XML attribute value with its five predefined entities decoded.
    func replacingXMLEntities() -> String {
        var text = self
        for (entity, character) in [("&quot;", "\""), ("&apos;", "'"), ("&lt;", "<"), ("&gt;", ">"), ("&amp;", "&")] {
            text = text.replacing(entity, with: character)
        }
        return text
    }
}

/// An Xcode project (`X.xcodeproj/project.pbxproj`) as `add` needs it: its native targets
/// with their product types, and where each target's sources live, as synchronized
/// folders (Xcode 16 and later) or as classic groups.
public struct XcodeProject: Sendable {
    /// The `.xcodeproj` folder, and the folder holding it (the project's `SOURCE_ROOT`).
    public let bundle: URL
    public var sourceRoot: URL { bundle.deletingLastPathComponent() }
    public var file: URL { bundle.appendingPathComponent("project.pbxproj") }
    /// The file's bytes, as read: edits insert into and delete from these.
    public let bytes: [UInt8]
    public let objectVersion: Int
    public let targets: [Target]
    let objects: [String: PropertyListNode]
    /// Each group's (or synchronized folder's) parent group.
    let parents: [String: String]
    let mainGroupID: String

    /// One native target.
    public struct Target: Sendable, Equatable {
        public var id: String
        public var name: String
        /// `com.apple.product-type.application`, `…app-extension`, `…framework`, …
        public var productType: String
        public var sourcesPhaseID: String?
        /// Its `fileSystemSynchronizedGroups`: the folders whose files it builds.
        public var synchronizedGroupIDs: [String]

        public var isApplication: Bool { productType == "com.apple.product-type.application" }

        /// "app", "app extension", "framework", … for lists a person reads.
        public var kind: String {
            let suffix = productType.split(separator: ".").last.map(String.init) ?? productType
            return suffix.split(separator: "-").joined(separator: " ")
        }
    }

    /// Reads `bundle/project.pbxproj`.
    public init(bundle: URL) throws(XcodeProjectError) {
        let file = bundle.appendingPathComponent("project.pbxproj")
        guard let data = FileManager.default.contents(atPath: file.path) else {
            throw .unreadable(project: bundle.lastPathComponent, reason: "its project.pbxproj cannot be read")
        }
        try self.init(bundle: bundle, bytes: Array(data))
    }

    public init(bundle: URL, bytes: [UInt8]) throws(XcodeProjectError) {
        let name = bundle.lastPathComponent
        let root: PropertyListNode
        do {
            root = try PropertyListReader.read(bytes)
        } catch {
            throw .unreadable(project: name, reason: "its project.pbxproj is not a property list Xcode writes (\(error))")
        }
        guard let objectList = root["objects"]?.dictionary, let rootID = root["rootObject"]?.string,
            let project = objectList.first(where: { $0.key == rootID })?.node, let mainGroup = project["mainGroup"]?.string
        else { throw .unreadable(project: name, reason: "its project.pbxproj has no objects, root object or main group") }
        var objects: [String: PropertyListNode] = [:]
        for (id, node) in objectList {
            guard Self.isIdentifier(id) else { throw .unreadable(project: name, reason: "an object identifier \(id.debugDescription) is not 24 hex digits") }
            objects[id] = node
        }
        var parents: [String: String] = [:]
        for (id, node) in objectList where ["PBXGroup", "PBXVariantGroup"].contains(node["isa"]?.string ?? "") {
            for child in node["children"]?.strings ?? [] { parents[child] = id }
        }
        var targets: [Target] = []
        for id in project["targets"]?.strings ?? [] {
            guard let node = objects[id], node["isa"]?.string == "PBXNativeTarget" else { continue }
            let targetName = node["name"]?.string ?? id
            guard TerminalText.firstControl(in: targetName) == nil else {
                throw .unreadable(project: name, reason: "a target's name holds control characters")
            }
            let phase = (node["buildPhases"]?.strings ?? []).first { objects[$0]?["isa"]?.string == "PBXSourcesBuildPhase" }
            targets.append(
                Target(
                    id: id, name: targetName, productType: node["productType"]?.string ?? "",
                    sourcesPhaseID: phase, synchronizedGroupIDs: node["fileSystemSynchronizedGroups"]?.strings ?? []))
        }
        self.bundle = bundle
        self.bytes = bytes
        self.objectVersion = Int(root["objectVersion"]?.string ?? "") ?? 0
        self.targets = targets
        self.objects = objects
        self.parents = parents
        self.mainGroupID = mainGroup
    }

    static func isIdentifier(_ text: String) -> Bool {
        text.utf8.count == 24 && text.utf8.allSatisfy { PropertyListReader.Parser.hexValue($0) != nil }
    }

    /// The folder a group (or synchronized folder) stands for, relative to the source
    /// root ("" for the root itself). Refuses one that leaves the project.
    func folder(ofGroup id: String) throws(XcodeProjectError) -> String {
        var components: [String] = []
        var current: String? = id
        var steps = 0
        while let group = current, group != mainGroupID {
            steps += 1
            guard steps < 256, let node = objects[group] else { break }
            let sourceTree = node["sourceTree"]?.string ?? "<group>"
            if let path = node["path"]?.string, !path.isEmpty {
                components.insert(path, at: 0)
            }
            if sourceTree == "SOURCE_ROOT" { break }
            guard sourceTree == "<group>" else {
                throw .unsupportedLayout(project: bundle.lastPathComponent, reason: "the group \(node["name"]?.string ?? node["path"]?.string ?? group) is relative to \(sourceTree), not to the project")
            }
            current = parents[group]
        }
        if let mainPath = objects[mainGroupID]?["path"]?.string, !mainPath.isEmpty, current == mainGroupID { components.insert(mainPath, at: 0) }
        let joined = components.joined(separator: "/")
        guard let normalized = ProjectPaths.normalizedRelative(joined) else {
            throw .unsupportedLayout(project: bundle.lastPathComponent, reason: "the group path \(joined) leaves the project folder")
        }
        return normalized
    }

    /// The folders a synchronized root group leaves out of `target`
    /// (`PBXFileSystemSynchronizedBuildFileExceptionSet`'s `membershipExceptions`),
    /// relative to that group's folder.
    func membershipExceptions(ofGroup id: String, target: Target) -> [String] {
        (objects[id]?["exceptions"]?.strings ?? []).flatMap { exception -> [String] in
            guard let node = objects[exception], node["target"]?.string == target.id else { return [] }
            return node["membershipExceptions"]?.strings ?? []
        }
    }

    /// The group whose folder holds the target's sources in a classic project: the
    /// top-level group over the target's first source file, else the top-level group
    /// named like the target, else the main group.
    func sourceGroup(of target: Target) -> String {
        let buildFiles = target.sourcesPhaseID.flatMap { objects[$0]?["files"]?.strings } ?? []
        for buildFile in buildFiles {
            guard let reference = objects[buildFile]?["fileRef"]?.string, var group = parents[reference] else { continue }
            var steps = 0
            while let parent = parents[group], parent != mainGroupID, steps < 256 {
                group = parent
                steps += 1
            }
            if group != mainGroupID { return group }
        }
        let topLevel = objects[mainGroupID]?["children"]?.strings ?? []
        return topLevel.first { id in
            let node = objects[id]
            return node?["isa"]?.string == "PBXGroup" && (node?["path"]?.string ?? node?["name"]?.string) == target.name
        } ?? mainGroupID
    }
}

/// What went wrong with an Xcode project, each with the way out.
public enum XcodeProjectError: Error, Equatable, Sendable, CustomStringConvertible {
    case unreadable(project: String, reason: String)
    case unsupportedLayout(project: String, reason: String)
    case noTarget(project: String)
    case severalTargets(project: String, targets: [String])
    case unknownTarget(String, project: String, targets: [String])
    case excludedFolder(project: String, folder: String, target: String)

    public var description: String {
        switch self {
        case .unreadable(let project, let reason):
            return "cannot read \(project): \(reason); give the folder for the blocks with --path DIR (then add the files to your target in Xcode)"
        case .unsupportedLayout(let project, let reason):
            let separator = reason.hasSuffix(", or") ? " " : "; "
            return "cannot place blocks in \(project): \(reason)\(separator)give the folder with --path DIR (then add the files to your target in Xcode)"
        case .noTarget(let project):
            return "\(project) has no native target to add blocks to; give the folder with --path DIR"
        case .severalTargets(let project, let targets):
            return "\(project) has several targets (\(targets.joined(separator: ", "))); choose one with --target NAME, or save it with 'blocks init --target NAME'"
        case .unknownTarget(let name, let project, let targets):
            return "\(project) has no target \(name); its targets are \(targets.joined(separator: ", "))"
        case .excludedFolder(let project, let folder, let target):
            return "\(folder) is excluded from target \(target) in \(project); choose another folder with --path DIR"
        }
    }
}

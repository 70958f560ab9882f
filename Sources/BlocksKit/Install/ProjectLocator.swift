/// The one rule that finds the user's project, walking upward from a folder once: the
/// root is the nearest folder that holds `blocks.json`, `blocks.lock`, `Package.swift`,
/// `.git` or an Xcode project or workspace; the folder is inside a project when it, or a
/// folder above it, holds one of those but `.git`, or a project generator's manifest
/// (XcodeGen, Tuist). A `.git` folder alone is not a project: `add` there would write
/// into a folder nothing builds. `blocks init` makes any folder one. `Project.locate`
/// builds the command's `Project` from it.
public enum ProjectLocator {
    static let markers = ["blocks.json", "blocks.lock", "Package.swift", ".git"]

    /// The files that make a folder a project (with an Xcode project or workspace).
    static let projectMarkers = ["blocks.json", "blocks.lock", "Package.swift", "project.yml", "Project.swift"]

    /// What `add` and `init` say about a folder that is outside any project.
    static let projectDefinition =
        "no Package.swift, Xcode project (.xcodeproj or .xcworkspace), blocks.json or blocks.lock here or in a folder above"

    /// The root (nil when no folder upward holds a marker) and whether `start` is inside a
    /// project. Bounded, and only for absolute paths: a deleted working folder reads as "".
    /// Each folder on the way is checked with one `stat` per marker, and listed for an
    /// Xcode project only when no marker file answers.
    static func locate(from start: URL) -> (root: URL?, isInsideProject: Bool) {
        var folder = start.standardizedFileURL
        guard folder.path.hasPrefix("/") else { return (nil, false) }
        var root: URL?
        var inside = false
        for _ in 0..<256 {
            let base = folder.path.hasSuffix("/") ? folder.path : folder.path + "/"
            let holds = { (names: [String]) in names.contains { access(base + $0, F_OK) == 0 } }
            let rootMarked = root == nil && holds(markers)
            let projectMarked = !inside && holds(projectMarkers)
            let xcode = (root == nil && !rootMarked) || (!inside && !projectMarked) ? holdsXcodeProject(folder) : false
            if root == nil, rootMarked || xcode { root = folder }
            if !inside, projectMarked || xcode { inside = true }
            if root != nil, inside { break }
            let parent = folder.deletingLastPathComponent().standardizedFileURL
            if parent.path == folder.path { break }
            folder = parent
        }
        return (root, inside)
    }

    static func holdsXcodeProject(_ folder: URL) -> Bool {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.contains { $0.hasSuffix(".xcodeproj") || $0.hasSuffix(".xcworkspace") }
    }

    /// What the root found holds that makes it a project.
    static func kind(of root: URL) -> Project.Kind {
        let holds = { (name: String) in access(root.appendingPathComponent(name).path, F_OK) == 0 }
        if holds("Package.swift") { return .swiftPackage }
        if holdsXcodeProject(root) { return .xcode }
        if holds("project.yml") || holds("Project.swift") { return .generated }
        if holds("blocks.json") || holds("blocks.lock") { return .blocks }
        return .none
    }
}

/// Finds the platforms a project builds for that a block does not support.
///
/// A block's `platforms` are the systems its code is written and checked for, and only
/// those. The catalog's own blocks wrap their views in `#if os(iOS)`, so in a package that
/// also targets macOS they compile to nothing there, and the code that uses them fails to
/// build for macOS. `add` says so before the user finds out from the compiler.
public enum PlatformSupport {
    /// The platforms in `project` (Package.swift's `platforms:`, as SwiftPM spells them)
    /// that `block` (a manifest's `platforms`) does not list, sorted. A project without a
    /// `platforms:` list names none, so nothing is reported for it.
    public static func unsupported(block: [String: String], project: [String: String]) -> [String] {
        let listed = Set(block.keys.map { $0.lowercased() })
        return project.keys.sorted().filter { platform in
            !coveringNames(for: platform).contains { listed.contains($0.lowercased()) }
        }
    }

    /// The manifest names that cover a SwiftPM platform: its own name, iPadOS for iOS
    /// (an iOS app runs on both), and iOS for Mac Catalyst, which builds iOS code and
    /// where `#if os(iOS)` holds.
    static func coveringNames(for packagePlatform: String) -> [String] {
        switch packagePlatform.lowercased() {
        case "ios": return ["iOS", "iPadOS"]
        case "maccatalyst": return ["macCatalyst", "iOS"]
        default: return [packagePlatform]
        }
    }

    /// The compile-time condition for a block's platforms, such as `os(iOS)` or
    /// `os(iOS) || os(macOS)`, to wrap the code that uses it.
    static func condition(for block: [String: String]) -> String {
        let systems = Set(block.keys.map { $0.lowercased() == "ipados" ? "iOS" : $0 })
        return systems.sorted().map { "os(\($0))" }.joined(separator: " || ")
    }

    /// One warning for each block of `blocks` and platform of `project` it does not
    /// support. The caller passes only the blocks it has not warned about at this version.
    public static func warnings(for blocks: [InstallPlan.Block], project: [String: String]) -> [String] {
        blocks.flatMap { block in
            let platforms = block.manifest.platforms
            let supported = platforms.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            return unsupported(block: platforms, project: project).map { platform in
                "\(block.manifest.name) supports \(supported) only, but Package.swift also targets \(platform). "
                    + "Its code is not written or checked for \(platform), so use it only under '#if \(condition(for: platforms))'. "
                    + "This does not stop the add."
            }
        }
    }
}

import Foundation
import PackagePlugin

/// Generates `EmbeddedFiles.swift` for the library from Catalog/ and Templates/ on every
/// build in which one of their files changed, so the embedded catalog can never lag
/// behind the folders and no script has to be remembered after an edit.
@main
struct EmbedCatalog: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let root = context.package.directoryURL
        let inputs = ["Catalog", "Templates"].flatMap { files(under: root.appendingPathComponent($0)) }
        let output = context.pluginWorkDirectoryURL.appendingPathComponent("EmbeddedFiles.swift")
        return [
            .buildCommand(
                displayName: "Embedding Catalog/ and Templates/",
                executable: try context.tool(named: "blocks-embed").url,
                arguments: [root.path, output.path],
                inputFiles: inputs,
                outputFiles: [output]
            )
        ]
    }

    /// Every file under a folder (hidden ones too, so adding one re-runs the tool and the
    /// tool decides what to skip), plus the folders themselves, whose change time moves
    /// when a file is added or removed.
    private func files(under folder: URL) -> [URL] {
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else { return [] }
        return [folder] + walker.compactMap { $0 as? URL }
    }
}

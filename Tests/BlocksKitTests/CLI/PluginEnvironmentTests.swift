import Foundation
import Testing

@testable import BlocksKit

/// Issue 12 item 8: a plugin is told the registry a built-in command would read there,
/// and a project root only inside a project. The real binary runs a real script.
@Suite struct PluginEnvironmentTests {
    static let script = "#!/bin/sh\necho \"registry=${BLOCKS_REGISTRY-unset} root=${BLOCKS_PROJECT_ROOT-unset}\"\n"

    func run(_ arguments: [String], in directory: URL, bin: URL, registry: String? = nil) throws -> (code: Int32, out: String, err: String) {
        var environment = ["PATH": bin.path + ":/usr/bin:/bin", "HOME": FileManager.default.temporaryDirectory.path]
        if let registry { environment["BLOCKS_REGISTRY"] = registry }
        return try runBinary(arguments, in: directory, environment: environment)
    }

    @Test func theRegistryIsTheOneCommandsReadAndTheRootOnlyInAProject() throws {
        let folder = try TemporaryFolder("plugin-env")
        defer { folder.cleanUp() }
        try folder.write("bin/blocks-env", Self.script)
        chmod(folder.path("bin/blocks-env").path, 0o755)
        let bin = folder.path("bin")
        // A project whose blocks.json names a registry folder, run from a subfolder.
        try folder.write("app/Package.swift", "// swift-tools-version:6.0\n")
        try folder.write("app/blocks.json", #"{"registry": "vendor/registry"}"#)
        try FileManager.default.createDirectory(at: folder.path("app/Sources/App"), withIntermediateDirectories: true)
        let app = folder.path("app").path
        let saved = try run(["env"], in: folder.path("app/Sources/App"), bin: bin)
        #expect(saved.code == 0, "\(saved.err)")
        #expect(saved.out == "registry=\(app)/vendor/registry root=\(app)\n")
        // --registry and BLOCKS_REGISTRY still win, as for every command.
        #expect(try run(["--registry", "https://r.example/", "env"], in: folder.path("app"), bin: bin).out == "registry=https://r.example/ root=\(app)\n")
        #expect(try run(["env"], in: folder.path("app"), bin: bin, registry: "/srv/reg").out == "registry=/srv/reg root=\(app)\n")
        // Outside any project: the embedded catalog, and no root at all.
        let outside = folder.path("loose")
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        #expect(try run(["env"], in: outside, bin: bin).out == "registry=embedded root=unset\n")
    }

    @Test func aProjectIsFoundByAnyMarker() throws {
        let folder = try TemporaryFolder("plugin-root")
        defer { folder.cleanUp() }
        try FileManager.default.createDirectory(at: folder.path("plain"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: folder.path("xcode/App.xcodeproj"), withIntermediateDirectories: true)
        try folder.write("locked/blocks.lock", "{}")
        #expect(Plugins.enclosingProject(of: folder.path("plain")) == nil)
        #expect(Plugins.enclosingProject(of: folder.path("xcode"))?.path == folder.path("xcode").path)
        #expect(Plugins.enclosingProject(of: folder.path("locked"))?.path == folder.path("locked").path)
    }
}

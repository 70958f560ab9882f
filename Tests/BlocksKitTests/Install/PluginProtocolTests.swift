import Foundation
import Testing

@testable import BlocksKit

/// Issue 36's first part: the plugin protocol against real plugins, one in Python and one
/// in POSIX shell, and hostile ones, each refused with one error and nothing returned.
@Suite struct PluginProtocolTests {
    /// A Python transform: answers the handshake, and appends one comment line to every
    /// Swift file; with the `"hostile"` option it misbehaves in the way named.
    static let python = #"""
        #!/usr/bin/env python3
        import json, os, sys, time
        raw = sys.stdin.read()
        request = json.loads(raw)
        if os.environ.get("HOME"):
            open(os.path.join(os.environ["HOME"], "request-" + request["request"] + ".json"), "w").write(raw)
        if request["request"] == "capabilities":
            print(json.dumps({"protocolVersion": 1, "capabilities": ["transform", "future-thing"]}))
            sys.exit(0)
        hostile = request["options"].get("hostile")
        files = request["files"]
        for f in files:
            if f["path"].endswith(".swift"):
                f["content"] += "// kind: " + request["target"]["kind"] + "\n"
        if hostile == "outside": files[0]["path"] = "../Escaped.swift"
        if hostile == "header": files[0]["content"] = "struct Stripped {}\n"
        if hostile == "flood": sys.stdout.write("x" * (100 * 1024 * 1024)); sys.exit(0)
        if hostile == "hang": time.sleep(30)
        if hostile == "fail": sys.stderr.write("bad \x1b[31mthing\n"); sys.exit(3)
        if hostile == "refuse": print(json.dumps({"protocolVersion": 1, "error": {"message": "no tabs here"}})); sys.exit(0)
        if hostile == "version": print(json.dumps({"protocolVersion": 9, "files": files})); sys.exit(0)
        if hostile == "random": files[0]["content"] += "// " + str(time.time_ns()) + "\n"
        if hostile == "environment": files[0]["content"] += "// " + " ".join(sorted(os.environ)) + "\n"
        print(json.dumps({"protocolVersion": 1, "files": files}))
        """#

    /// A POSIX shell transform: the request is one line of JSON, and an answer needs only
    /// `protocolVersion` and `files`, so the request itself with the type renamed is one.
    static let shell = #"""
        #!/bin/sh
        read -r request
        case "$request" in
          *'"request":"capabilities"'*) printf '%s\n' '{"protocolVersion":1,"capabilities":["transform"]}' ;;
          *) printf '%s\n' "$request" | sed 's/TopTabs/BKTopTabs/g' ;;
        esac
        """#

    struct Plugins {
        let folder: TemporaryFolder
        var python: ExternalPlugin
        var shell: ExternalPlugin

        init() throws {
            folder = try TemporaryFolder("plugins")
            try folder.write("bin/blocks-plugin-py", PluginProtocolTests.python)
            try folder.write("bin/blocks-plugin-sh", PluginProtocolTests.shell)
            for name in ["py", "sh"] {
                _ = chmod(folder.path("bin/blocks-plugin-\(name)").path, 0o755)
            }
            python = ExternalPlugin(name: "py", command: [folder.path("bin/blocks-plugin-py").path], origin: "test")
            shell = ExternalPlugin(name: "sh", command: [folder.path("bin/blocks-plugin-sh").path], origin: "test")
        }

        var environment: [String: String] {
            ["PATH": folder.path("bin").path + ":/usr/bin:/bin", "BLOCKS_TOKEN": "secret-token-value", "HOME": folder.url.path]
        }
    }

    static func input() throws -> TransformInput {
        let content = try #require(try CatalogSource.embedded.contents(of: ["top-tabs"]).first)
        let header = LicenseHeader.render(year: 2026, holders: "blocks contributors")
        let files = content.manifest.files.map { file in
            TransformFile(path: file.path, role: file.role, content: Data((header + String(decoding: content.files[file.path] ?? Data(), as: UTF8.self)).utf8))
        }
        return TransformInput(manifest: content.manifest, files: files, targetKind: .library)
    }

    @Test func aPythonAndAShellTransformChainInOrder() throws {
        let plugins = try Plugins()
        defer { plugins.folder.cleanUp() }
        let input = try Self.input()
        let chain = TransformChain(steps: [.init(plugin: .external(plugins.shell)), .init(plugin: .external(plugins.python))])
        let output = try chain.apply(input, environment: plugins.environment, workingDirectory: plugins.folder.url)
        // The shell's rename reaches the paths too: a transform may rename its files.
        #expect(output.map(\.path) == input.files.map { $0.path.replacingOccurrences(of: "TopTabs", with: "BKTopTabs") })
        for (before, after) in zip(input.files, output) {
            let expected = String(decoding: before.content, as: UTF8.self).replacingOccurrences(of: "TopTabs", with: "BKTopTabs") + "// kind: library\n"
            #expect(String(decoding: after.content, as: UTF8.self) == expected, "\(after.path)")
            #expect(after.role == before.role)
        }
        try chain.checkDeterministic(input, environment: plugins.environment, workingDirectory: plugins.folder.url)
    }

    @Test func theHandshakeListsWhatAPluginOffers() throws {
        let plugins = try Plugins()
        defer { plugins.folder.cleanUp() }
        #expect(try PluginCatalog.capabilities(of: .external(plugins.python), environment: plugins.environment, workingDirectory: plugins.folder.url) == [.transform])
        // Found on PATH by name, and a blocks.json declaration comes first.
        let declared: [String: JSONValue] = ["mine": .object(["command": .array([.string("python3"), .string(plugins.python.command[0])])])]
        let all = try PluginCatalog.all(declared: declared, environment: plugins.environment)
        #expect(all.map(\.name) == ["mine", "access-level", "prefix", "swift-format", "py", "sh"])
        #expect(all.map(\.origin) == ["blocks.json", "built-in", "built-in", "built-in", "PATH", "PATH"])
        #expect(throws: PluginError.self) { try PluginCatalog.find("nope", declared: nil, environment: plugins.environment) }
    }

    /// Each hostile plugin is one clear error; nothing comes back to be written.
    @Test func hostilePluginsAreOneErrorEach() throws {
        var plugins = try Plugins()
        defer { plugins.folder.cleanUp() }
        plugins.python.timeout = 2
        let input = try Self.input()
        func run(_ hostile: String) -> PluginError? {
            let chain = TransformChain(steps: [.init(plugin: .external(plugins.python), options: .object(["hostile": .string(hostile)]))])
            do {
                _ = try chain.apply(input, environment: plugins.environment, workingDirectory: plugins.folder.url)
                return nil
            } catch { return error }
        }
        let outside = run("outside")
        #expect(outside?.description.contains("'../Escaped.swift', which leaves the block's folder") == true, "\(String(describing: outside))")
        #expect(run("header")?.description.contains("dropped the MIT license header") == true)
        #expect(run("flood") == .outputTooLarge(plugin: "py", limit: ExternalPlugin.outputLimit))
        let started = Date()
        #expect(run("hang") == .timedOut(plugin: "py", seconds: 2))
        #expect(Date().timeIntervalSince(started) < 10)
        let failed = run("fail")?.description ?? ""
        #expect(failed.contains("exit code 3") && failed.contains("bad \\u{1B}[31mthing"), "\(failed)")
        #expect(!failed.contains("\u{1B}"))
        #expect(run("refuse") == .refused(plugin: "py", message: "no tabs here"))
        #expect(run("version")?.description.contains("it speaks protocol 9, blocks speaks 1") == true)
    }

    @Test func aTransformThatChangesBetweenRunsIsCaught() throws {
        let plugins = try Plugins()
        defer { plugins.folder.cleanUp() }
        let chain = TransformChain(steps: [.init(plugin: .external(plugins.python), options: .object(["hostile": .string("random")]))])
        #expect(throws: PluginError.self) {
            try chain.checkDeterministic(try Self.input(), environment: plugins.environment, workingDirectory: plugins.folder.url)
        }
    }

    @Test func pluginsGetNoSecretsUnlessPassed() throws {
        var plugins = try Plugins()
        defer { plugins.folder.cleanUp() }
        let input = try Self.input()
        let options: JSONValue = .object(["hostile": .string("environment")])
        let seen = try TransformChain(steps: [.init(plugin: .external(plugins.python), options: options)])
            .apply(input, environment: plugins.environment, workingDirectory: plugins.folder.url)
        let names = String(decoding: seen[0].content, as: UTF8.self)
        #expect(names.contains("PATH") && !names.contains("BLOCKS_TOKEN"), "\(names.suffix(200))")
        plugins.python.passedEnvironment = ["BLOCKS_TOKEN"]
        let passed = try TransformChain(steps: [.init(plugin: .external(plugins.python), options: options)])
            .apply(input, environment: plugins.environment, workingDirectory: plugins.folder.url)
        #expect(String(decoding: passed[0].content, as: UTF8.self).contains("BLOCKS_TOKEN"))
    }

    @Test func pluginListShowsEachPluginAndWhatItOffers() throws {
        let plugins = try Plugins()
        defer { plugins.folder.cleanUp() }
        let project = try TestProject.make()
        defer { project.delete() }
        try project.write("blocks.json", #"{"plugins": {"broken": {"command": ["/nonexistent/tool"]}}}"#)
        let listed = project.run(["plugin", "list"], environment: plugins.environment)
        #expect(listed.code == 0, "\(listed.errors)")
        #expect(listed.output.contains("py") && listed.output.contains("transform"), "\(listed.output)")
        #expect(listed.errors.contains("plugin 'broken' could not start"), "\(listed.errors)")
        let json = project.run(["plugin", "list", "--json"], environment: plugins.environment)
        let object = try #require(CommandLineContractTests.json(json.output))
        let entries = try #require(object["plugins"] as? [[String: Any]])
        #expect(entries.compactMap { $0["name"] as? String } == ["broken", "access-level", "prefix", "swift-format", "py", "sh"])
        #expect(entries[1]["capabilities"] as? [String] == ["transform"] && entries[4]["capabilities"] as? [String] == ["transform"])
        #expect(entries[0]["error"] is String)
        // A command that rewrites blocks.json keeps the declarations.
        #expect(project.run(["registry", "add", "@local", "https://blocks.example.com"]).code == 0)
        let written = try #require(project.read("blocks.json"))
        let rewritten = try #require(CommandLineContractTests.json(written))
        #expect((rewritten["plugins"] as? [String: Any])?["broken"] != nil, "\(rewritten)")
        #expect(project.run(["plugin", "list", "--json"], environment: plugins.environment).output == json.output)
        // A transform plugin is no command: `blocks --help` does not list it as one.
        let help = project.run(["--help"], environment: plugins.environment).output
        #expect(!help.contains("plugin-py"), "\(help)")
    }

    /// The requests blocks sends and the answers of the Python plugin validate against the
    /// schemas docs/PLUGINS.md points to (checked by Python's jsonschema).
    @Test func messagesMatchTheirSchemas() throws {
        let plugins = try Plugins()
        defer { plugins.folder.cleanUp() }
        _ = try PluginCatalog.capabilities(of: .external(plugins.python), environment: plugins.environment, workingDirectory: plugins.folder.url)
        let files = try TransformChain(steps: [.init(plugin: .external(plugins.python))])
            .apply(try Self.input(), environment: plugins.environment, workingDirectory: plugins.folder.url)
        let schemas = SchemaFilesTests()
        for request in ["capabilities", "transform"] {
            #expect(try schemas.problems(plugins.folder.path("request-\(request).json"), schema: "plugin-request") == [])
        }
        let answer = StableJSONWriter.write(.object(["protocolVersion": .int(1), "files": .array(files.map(\.jsonValue))]))
        try Data(answer).write(to: plugins.folder.path("answer.json"))
        #expect(try schemas.problems(plugins.folder.path("answer.json"), schema: "plugin-response") == [])
        // The schema can fail: a path-less file is refused.
        try Data(#"{"protocolVersion": 1, "files": [{"content": "x"}]}"#.utf8).write(to: plugins.folder.path("bad.json"))
        #expect(try !schemas.problems(plugins.folder.path("bad.json"), schema: "plugin-response").isEmpty)
    }
}

import Foundation
import Testing

@testable import BlocksKit

/// Issue 12, item 20: what the command line says when it is used slightly wrong, and that
/// `export` never replaces a file unasked. Run with the real binary where a terminal is
/// not needed, in-process where a test must answer a question.
@Suite struct CommandLineContractTests {
    static func json(_ text: String) -> [String: Any]? {
        try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
    }

    @Test func exportWithoutOutputSaysTheOptionIsRequired() throws {
        let project = try TestProject.makeEmpty()
        defer { project.delete() }
        let result = try project.runBinary(["export", "pager"])
        #expect(result.code == 64)
        #expect(result.errors.contains("-o FILE is required here"), "\(result.errors)")
        #expect(!result.errors.contains("needs a value"))
    }

    @Test func exportRefusesToReplaceAFileWithoutForce() throws {
        let project = try TestProject.makeEmpty()
        defer { project.delete() }
        try project.write("tabs.tar.gz", "my only copy\n")
        let refused = try project.runBinary(["export", "pager", "-o", "tabs.tar.gz"])
        #expect(refused.code == 1)
        #expect(refused.errors.contains("already exists and was kept; give --overwrite"), "\(refused.errors)")
        #expect(project.read("tabs.tar.gz") == "my only copy\n")

        let forced = try project.runBinary(["export", "pager", "-o", "tabs.tar.gz", "--force"])
        #expect(forced.code == 0, "\(forced.errors)")
        #expect(try Archives.read(project.url("tabs.tar.gz")).files["pager/block.json"] != nil)
    }

    @Test func exportAsksOnATerminal() throws {
        let project = try TestProject.makeEmpty()
        defer { project.delete() }
        try project.write("tabs.zip", "keep me\n")
        let declined = project.run(["export", "pager", "-o", "tabs.zip"], interactive: true, answers: ["n"])
        #expect(declined.code == 1)
        #expect(declined.errors.contains("already exists. Replace it? [y/N]"), "\(declined.errors)")
        #expect(project.read("tabs.zip") == "keep me\n")
        let unanswered = project.run(["export", "pager", "-o", "tabs.zip"], interactive: true, answers: [])
        #expect(unanswered.code == 1)
        #expect(project.read("tabs.zip") == "keep me\n")

        let accepted = project.run(["export", "pager", "-o", "tabs.zip"], interactive: true, answers: ["y"])
        #expect(accepted.code == 0, "\(accepted.errors)")
        #expect(try Archives.read(project.url("tabs.zip")).topFolder == "tabs")
        // A new file is written without a question.
        let fresh = project.run(["export", "pager", "-o", "new.zip"], interactive: true, answers: [])
        #expect(fresh.code == 0 && !fresh.errors.contains("Replace"), "\(fresh.errors)")
    }

    @Test func helpHelpAndHelpDashDashHelpExplainHelp() throws {
        let project = try TestProject.makeEmpty()
        defer { project.delete() }
        for arguments in [["help", "help"], ["help", "--help"], ["help", "-h"]] {
            let result = try project.runBinary(arguments)
            #expect(result.code == 0, "\(arguments): \(result.errors)")
            #expect(result.output.hasPrefix("OVERVIEW: Show help for blocks"), "\(arguments): \(result.output)")
            #expect(result.output.contains("USAGE: blocks help [<subcommand>]"))
        }
    }

    @Test func globalOptionsMayFollowTheCommand() throws {
        let project = try TestProject.makeEmpty()
        defer { project.delete() }
        for arguments in [["search", "--version"], ["list", "--version"], ["--version"], ["info", "pager", "--version"]] {
            let result = try project.runBinary(arguments)
            #expect(result.code == 0, "\(arguments): \(result.errors)")
            #expect(result.output == "blocks \(BlocksCLI.version)\n", "\(arguments)")
        }
        // After `--` it is a search word, not an option.
        let word = try project.runBinary(["search", "--", "--version"])
        #expect(word.code == 0 && !word.output.contains("blocks \(BlocksCLI.version)"), "\(word.output)")
    }

    @Test func didYouMeanReadsAsASentence() throws {
        let project = try TestProject.makeEmpty()
        defer { project.delete() }
        let result = try project.runBinary(["serch", "tabs"])
        #expect(result.code == 64)
        #expect(result.errors == "error: unknown command 'serch'; did you mean 'search'? See 'blocks --help' for every command\n")
        let nothingClose = try project.runBinary(["zzzzzzzz"])
        #expect(nothingClose.errors == "error: unknown command 'zzzzzzzz'; see 'blocks --help' for every command\n")
    }

    /// A failed `--json` command prints one object with `error` on stdout, wherever the
    /// flag is, for usage errors and failures alike.
    @Test func aFailedJSONCommandPrintsTheErrorAsJSON() throws {
        let project = try TestProject.makeEmpty()
        defer { project.delete() }
        let cases: [([String], Int)] = [
            (["--json", "info", "no-such-block"], 1), (["info", "no-such-block", "--json"], 1),
            (["--json", "export", "pager"], 64), (["search", "--json", "--bogus"], 64), (["--json", "lint"], 1),
        ]
        for (arguments, code) in cases {
            let result = try project.runBinary(arguments)
            #expect(result.code == Int32(code), "\(arguments)")
            let error = Self.json(result.output)?["error"] as? [String: Any]
            #expect(error?["code"] as? Int == code, "\(arguments): \(result.output)")
            let message = try #require(error?["message"] as? String, "\(arguments): \(result.output)")
            #expect(result.errors == "error: \(message)\n", "\(arguments)")
        }
        // Without --json, stdout stays empty.
        #expect(try project.runBinary(["info", "no-such-block"]).output.isEmpty)
    }

    /// lint's report and the error are one object: a script gets the problems and the
    /// failure without reading two documents.
    @Test func aFailedJSONLintIsOneObjectWithTheProblems() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        try writeBlock(in: folder, name: "bad", manifest: sampleManifestJSON(name: "bad", version: "one"))
        let result = try TestProject(root: folder.url).runBinary(["lint", "--no-parse", "--json"])
        #expect(result.code == 1)
        let object = try #require(Self.json(result.output), "\(result.output)")
        #expect((object["problems"] as? [[String: Any]])?.first?["field"] as? String == "version")
        #expect((object["error"] as? [String: Any])?["message"] as? String == "lint found 1 problem")
        #expect(object["blocks"] as? Int == 1)
    }

    @Test func lintWithoutACatalogSaysNoneWasFound() throws {
        let project = try TestProject.makeEmpty()
        defer { project.delete() }
        let result = try project.runBinary(["lint"])
        #expect(result.code == 1)
        #expect(result.errors.contains("no Catalog folder was found in \(project.root.path);"), "\(result.errors)")
        #expect(!result.errors.contains("\(project.root.path)/Catalog"))
        let named = try project.runBinary(["lint", "missing-folder"])
        #expect(named.errors.contains("\(project.root.path)/missing-folder is not a folder"), "\(named.errors)")
        // A folder that is there but holds no blocks keeps its own message.
        try FileManager.default.createDirectory(at: project.url("Empty"), withIntermediateDirectories: true)
        let empty = try project.runBinary(["lint", "Empty"])
        #expect(empty.errors.contains("holds no <name>/block.json folders"), "\(empty.errors)")
    }
}

import Foundation
import Testing

@testable import BlocksKit

/// Issue 35, items 6, 9 and 12 and the wrapping of messages: a missing name shows an
/// example and, on a terminal, a list to pick from; one flag vocabulary with the old
/// spellings kept; help about the command itself, with examples.
@Suite struct FirstStepsTests {
    // MARK: Item 6: missing arguments

    @Test func addWithoutNamesShowsAnExampleAndTheWaysToFindNames() throws {
        let project = try TestProject.make()
        defer { project.delete() }
        let before = try project.treeHash()
        let result = project.run(["add"])
        #expect(result.code == 64)
        #expect(result.errors.contains("missing argument <name>; for example 'blocks add top-tabs'"), "\(result.errors)")
        #expect(result.errors.contains("'blocks list' shows every name") && result.errors.contains("--all"), "\(result.errors)")
        #expect(try project.treeHash() == before)
        // --yes asks nothing even on a terminal: the same error.
        #expect(project.run(["add", "--yes"], interactive: true).code == 64)
    }

    @Test func removeAndExportWithoutANameSayWhereNamesAre() {
        let remove = runBlocks(["remove"])
        #expect(remove.code == 64 && remove.err.contains("'blocks status' lists the blocks you added"), "\(remove.err)")
        let export = runBlocks(["export", "-o", "x.zip"])
        #expect(export.code == 64 && export.err.contains("'blocks list' shows every name"), "\(export.err)")
    }

    @Test func infoAndViewWithoutANameShowAnExample() throws {
        for command in ["info", "view"] {
            let result = runBlocks([command])
            #expect(result.code == 64)
            #expect(result.err.contains("missing argument <name>; for example 'blocks \(command) top-tabs'"), "\(result.err)")
        }
    }

    @Test func addOnATerminalOffersAListToPickFrom() throws {
        let project = try TestProject.make()
        defer { project.delete() }
        // A wrong answer is explained and asked again; numbers and names mix.
        let picked = project.run(["add"], interactive: true, answers: ["zzz", "1 top-tabs"])
        #expect(picked.code == 0, "\(picked.errors)")
        #expect(picked.errors.contains("Which blocks?"), "\(picked.errors)")
        #expect(picked.errors.contains("1) "), "\(picked.errors)")
        #expect(picked.errors.contains("'zzz' is not one of them."), "\(picked.errors)")
        let first = try #require(try CatalogSource.embedded.manifests().first?.name)
        let lock = try project.lock()
        #expect(lock.blocks[first] != nil && lock.blocks["top-tabs"] != nil, "\(lock.blocks.keys.sorted())")
        // An empty answer (or end of input) is a choice: nothing is added, no error.
        let before = try project.treeHash()
        for answers in [[""], []] {
            let none = project.run(["add"], interactive: true, answers: answers)
            #expect(none.code == 0 && none.errors.contains("Nothing added.") && !none.errors.contains("error:"), "\(none.errors)")
        }
        #expect(try project.treeHash() == before)
    }

    @Test func infoOnATerminalOffersAListToPickFrom() throws {
        let project = try TestProject.make()
        defer { project.delete() }
        let result = project.run(["info"], interactive: true, answers: ["top-tabs"])
        #expect(result.code == 0, "\(result.errors)")
        #expect(result.errors.contains("Which block?"), "\(result.errors)")
        #expect(result.output.contains("Top Tabs"), "\(result.output)")
    }

    @Test func addAllAddsEveryBlockOfTheRegistry() throws {
        let project = try TestProject.make()
        defer { project.delete() }
        let result = project.run(["add", "--all"])
        #expect(result.code == 0, "\(result.errors)")
        let every = Set(try CatalogSource.embedded.manifests().map(\.name))
        #expect(Set(try project.lock().blocks.keys) == every)
    }

    // MARK: Item 9: one vocabulary, old spellings kept

    @Test func outputIsDashOOrOutputEverywhereAndOutStillWorks() throws {
        let folder = try TemporaryFolder("first-steps-output")
        defer { folder.cleanUp() }
        for spelling in ["-o", "--output", "--out"] {
            let keys = folder.path("keys\(spelling)")
            let result = runBlocks(["keygen", spelling, keys.path])
            #expect(result.code == 0, "keygen \(spelling): \(result.err)")
            #expect(FileManager.default.fileExists(atPath: keys.appendingPathComponent("blocks.pub").path))
        }
        let missing = runBlocks(["build"])
        #expect(missing.code == 64 && missing.err.contains("-o <dir> is required here"), "\(missing.err)")
        // Usage shows a required option bare, first.
        let help = runBlocks(["build", "--help"]).out
        #expect(help.contains("USAGE: blocks build --output <dir> [--catalog <dir>]"), "\(help)")
    }

    @Test func overwriteAndForceAreOneChoice() throws {
        let project = try TestProject.makeEmpty()
        defer { project.delete() }
        try project.write("tabs.zip", "old\n")
        // export: --overwrite is the word; --force, its old spelling, still works.
        let forced = project.run(["export", "pager", "-o", "tabs.zip", "--force"])
        #expect(forced.code == 0, "\(forced.errors)")
        try project.write("tabs.zip", "old\n")
        let overwritten = project.run(["export", "pager", "-o", "tabs.zip", "--overwrite"])
        #expect(overwritten.code == 0, "\(overwritten.errors)")
        #expect(project.read("tabs.zip") != "old\n")
        // --yes asks nothing, even on a terminal, and replaces nothing without --overwrite.
        try project.write("tabs.zip", "old\n")
        let yes = project.run(["export", "pager", "-o", "tabs.zip", "--yes"], interactive: true, answers: ["y"])
        #expect(yes.code == 1 && yes.errors.contains("error:") && !yes.errors.contains("Replace it?"), "\(yes.errors)")
        #expect(project.read("tabs.zip") == "old\n")
    }

    @Test func removeTakesForceOrOverwrite() throws {
        let project = try TestProject.make()
        defer { project.delete() }
        #expect(project.run(["add", "pager"]).code == 0)
        let file = try #require(try project.lock().blocks["pager"]?.folder).appending("/Pager.swift")
        try project.write(file, "// mine\n")
        #expect(project.run(["remove", "pager"]).code != 0 || project.exists(file), "an edited file is kept without --force")
        #expect(project.exists(file))
        let removed = project.run(["remove", "pager", "--overwrite"])
        #expect(removed.code == 0, "\(removed.errors)")
        #expect(!project.exists(file))
    }

    @Test func lintTakesTheCatalogAsBuildAndNewDo() throws {
        let named = runBlocks(["lint", "--catalog", "Catalog", "--no-parse"])
        let positional = runBlocks(["lint", "Catalog", "--no-parse"])
        #expect(named.code == 0 && positional.code == 0, "\(named.err)\(positional.err)")
        #expect(named.out == positional.out)
        let both = runBlocks(["lint", "Catalog", "--catalog", "Catalog"])
        #expect(both.code == 64, "\(both.err)")
    }

    @Test func anotherToolsShortFlagFindsOurs() {
        // shadcn's `add -o` overwrites; here -o is --output, and add has none.
        let result = runBlocks(["add", "pager", "-o"])
        #expect(result.code == 64)
        #expect(result.err.contains("unknown option '-o'; did you mean '--overwrite'?"), "\(result.err)")
    }

    @Test func viewPrintsTheCodeOfEveryFile() throws {
        let manifest = try #require(try CatalogSource.embedded.manifests().first { $0.name == "top-tabs" })
        let result = runBlocks(["view", "top-tabs"])
        #expect(result.code == 0, "\(result.err)")
        for file in manifest.files { #expect(result.out.contains("// ─── \(file.path) ───"), "\(file.path)") }
        #expect(result.out.contains("struct TopTabs"), "\(result.out.prefix(300))")
        let json = runBlocks(["view", "top-tabs", "--json"])
        let object = try #require(CommandLineContractTests.json(json.out))
        let files = try #require(object["files"] as? [[String: Any]])
        #expect(files.map { $0["path"] as? String } == manifest.files.map(\.path))
        #expect(files.allSatisfy { ($0["source"] as? String)?.isEmpty == false })
    }

    // MARK: Item 12: help about the command, with examples

    @Test func commandHelpLeavesTheGlobalOptionsToTheRootHelp() {
        let list = runBlocks(["list", "--help"]).out
        #expect(!list.contains("--registry <url-or-path>"), "\(list)")
        #expect(!list.contains("--allow-expired"), "\(list)")
        #expect(list.contains("see 'blocks --help'"), "\(list)")
        #expect(list.split(separator: "\n").count < 22, "\(list)")
        let root = runBlocks(["--help"]).out
        for option in GlobalOptions.specs { #expect(root.contains("--" + option.long), "\(option.long)") }
    }

    /// Every command has examples, and each parses against the command's own spec: an
    /// example that names an option the command no longer takes fails here.
    @Test func everyCommandHasExamplesThatParse() throws {
        for command in BlocksCLI.commands {
            let spec = command.spec
            #expect(!spec.examples.isEmpty, "\(spec.name) has no example")
            var full = spec
            full.options += GlobalOptions.specs
            for example in spec.examples {
                let words = try #require(ShellWords.split(example.commandLine))
                #expect(Array(words.prefix(2)) == ["blocks", spec.name], "\(example.commandLine)")
                #expect(throws: Never.self, "\(example.commandLine)") { try ArgumentParser.parse(Array(words.dropFirst(2)), spec: full) }
            }
            let help = runBlocks([spec.name, "--help"]).out
            // Help wraps a long example: compare with its line breaks and indents folded.
            let folded = help.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            #expect(help.contains("EXAMPLES:") && folded.contains(spec.examples[0].commandLine), "\(spec.name)")
        }
    }

    // MARK: Messages wrap between words on a terminal

    /// Questions wrap too: export's replace question at 50 columns keeps `[y/N]` whole.
    @Test func promptsWrapBetweenWords() throws {
        let project = try TestProject.makeEmpty()
        defer { project.delete() }
        let name = "a-long-archive-name-that-fills-the-line.zip"
        try project.write(name, "old\n")
        var (context, _, errors) = makeContext(directory: project.root, environment: ["COLUMNS": "50", "NO_COLOR": "1"], terminal: true)
        context.isInteractive = true
        context.readLine = { "n" }
        let code = BlocksCLI.run(["export", "pager", "-o", name], context: &context)
        #expect(code == 1)
        // The answer's newline is the person's typing, not ours: end the prompt there.
        let lines = errors.text.replacingOccurrences(of: "[y/N] ", with: "[y/N]\n").split(separator: "\n")
        #expect(lines.contains { $0.hasSuffix("Replace it? [y/N]") }, "\(errors.text)")
        for line in lines {
            let words = line.split(separator: " ")
            #expect(line.count <= 50 || words.count == 1, "'\(line)'")
        }
    }

    @Test func errorsWrapBetweenWordsToTheTerminal() throws {
        let folder = try TestProject.makeEmpty()
        defer { folder.delete() }
        for width in [50, 100] {
            let result = runBlocks(["add", "pager"], in: folder.root, environment: ["COLUMNS": "\(width)", "NO_COLOR": "1"], terminal: true)
            #expect(result.code == 1)
            let lines = result.err.split(separator: "\n").map(String.init)
            #expect(lines.count > 1, "\(result.err)")
            // A word longer than the line (the temporary folder's path) runs over, alone.
            for line in lines {
                let words = line.replacingOccurrences(of: "error: ", with: "").split(separator: " ")
                #expect(line.count <= width || words.count == 1, "\(width): '\(line)'")
            }
            // Nothing is cut: the words, rejoined, are the one-line message.
            let piped = runBlocks(["add", "pager"], in: folder.root)
            #expect(piped.err.split(separator: "\n").count == 1, "\(piped.err)")
            let words = { (text: String) in text.split { $0 == " " || $0 == "\n" }.map(String.init) }
            #expect(words(result.err) == words(piped.err))
            // Continuation lines sit under the text, after "error: ".
            #expect(lines.dropFirst().allSatisfy { $0.hasPrefix(String(repeating: " ", count: "error: ".count)) }, "\(lines)")
        }
    }
}

/// Splits an example's command line into words as a shell would for the simple quoting
/// examples use: single or double quotes around words with spaces. A redirection or a
/// pipe (`> file`, `| head`) ends the command's own words.
enum ShellWords {
    static func split(_ line: String) -> [String]? {
        guard let words = splitAll(line) else { return nil }
        return Array(words.prefix { $0 != ">" && $0 != "|" })
    }

    private static func splitAll(_ line: String) -> [String]? {
        var words: [String] = []
        var current = ""
        var quote: Character?
        var inWord = false
        for character in line {
            if let open = quote {
                if character == open { quote = nil } else { current.append(character) }
            } else if character == "\"" || character == "'" {
                quote = character
                inWord = true
            } else if character == " " {
                if inWord { words.append(current) }
                current = ""
                inWord = false
            } else {
                current.append(character)
                inWord = true
            }
        }
        guard quote == nil else { return nil }
        if inWord { words.append(current) }
        return words
    }
}

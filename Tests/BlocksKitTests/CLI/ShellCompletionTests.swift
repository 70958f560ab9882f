import Foundation
import Testing

@testable import BlocksKit

/// `blocks completion bash|zsh|fish` (issue 35): each script, as the real binary prints it,
/// passes its shell's own syntax check, and the shells themselves complete partial words
/// with it: subcommands, options, block names from the registry and namespaces from
/// blocks.json. Every shell runs under a deadline.
@Suite struct ShellCompletionTests {
    /// Longest any one shell may run; a completion that calls back into blocks takes well under a second.
    static let deadline: TimeInterval = 60

    /// Runs `program` (looked up on PATH) with a deadline: past it the process is
    /// terminated and the test fails (`runProcess`).
    static func runBounded(
        _ program: String, _ arguments: [String], in directory: URL? = nil, environment: [String: String]
    ) throws -> (code: Int32, out: String, err: String) {
        try runTool(program, arguments, in: directory, environment: environment, deadline: deadline)
    }

    /// A home, a cache and a PATH that finds the built binary first, as `blocks`.
    static func environment(_ folder: TemporaryFolder) -> [String: String] {
        [
            "PATH": blocksBinary.deletingLastPathComponent().path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
            "HOME": folder.path("home").path, "XDG_CACHE_HOME": folder.path("cache").path,
            "BLOCKS_REGISTRY": "", "LANG": "C.UTF-8", "TERM": "dumb",
        ]
    }

    /// The script the real binary prints, saved in `folder`.
    static func script(_ shell: String, in folder: TemporaryFolder) throws -> URL {
        let printed = try runBinary(["completion", shell], in: folder.url, environment: environment(folder))
        #expect(printed.code == 0, "completion \(shell): \(printed.err)")
        #expect(printed.err.isEmpty, "\(printed.err)")
        try folder.write("completion.\(shell)", printed.out)
        return folder.path("completion.\(shell)")
    }

    /// A folder with a project whose blocks.json names two namespaces; @acme is a catalog
    /// folder with one block, @beta a folder that does not exist.
    static func project(in folder: TemporaryFolder) throws -> URL {
        try writeBlock(in: folder, catalog: "acme", name: "acme-tabs")
        let blocksJSON = #"{ "registries" : { "@acme" : "\#(folder.path("acme").path)", "@beta" : "\#(folder.path("beta").path)" } }"#
        try folder.write("app/blocks.json", blocksJSON + "\n")
        return folder.path("app")
    }

    /// Bash's candidates for each partial line, as its completion machinery sees them: the
    /// script is sourced, COMP_LINE, COMP_POINT, COMP_WORDS and COMP_CWORD are set as for a
    /// TAB at the end of the line, and `complete -p blocks` names the function to call.
    static func bashCandidates(_ lines: [String], script: URL, in directory: URL, folder: TemporaryFolder) throws -> [[String]] {
        let driver = """
            source "$1" || exit 3
            shift
            spec=$(complete -p blocks) || exit 4
            function=${spec#*-F }
            function=${function%% *}
            for line in "$@"; do
                COMP_LINE=$line
                COMP_POINT=${#line}
                read -ra COMP_WORDS <<< "$line"
                [[ $line == *' ' ]] && COMP_WORDS+=("")
                COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
                COMPREPLY=()
                "$function" blocks "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
                printf '%s\\n' "${COMPREPLY[@]}" | sort
                echo '--end--'
            done
            """
        try folder.write("driver.bash", driver)
        let result = try runBounded("bash", [folder.path("driver.bash").path, script.path] + lines, in: directory, environment: environment(folder))
        #expect(result.code == 0, "bash exits \(result.code): \(result.err)")
        let blocks = result.out.components(separatedBy: "--end--\n").dropLast()
        #expect(blocks.count == lines.count, "\(result.out)\(result.err)")
        return blocks.map { $0.split(separator: "\n").map(String.init).filter { !$0.isEmpty } }
    }

    // MARK: Syntax

    @Test(arguments: [("bash", ["-n"], "}"), ("zsh", ["-n"], "}"), ("fish", ["--no-execute"], "end")])
    func eachScriptPassesItsShellsSyntaxCheck(shell: String, check: [String], stray: String) throws {
        let folder = try TemporaryFolder("completion-syntax")
        defer { folder.cleanUp() }
        let script = try Self.script(shell, in: folder)
        let text = try #require(folder.read("completion.\(shell)"))
        #expect(text.count > 1000, "\(text)")
        let checked = try Self.runBounded(shell, check + [script.path], environment: Self.environment(folder))
        #expect(checked.code == 0, "\(shell) \(check.joined(separator: " ")): \(checked.out)\(checked.err)")
        #expect(checked.err.isEmpty, "\(checked.err)")
        // The check is real: the same script with a stray closing word is refused.
        try folder.write("broken.\(shell)", text + "\n\(stray)\n")
        let broken = try Self.runBounded(shell, check + [folder.path("broken.\(shell)").path], environment: Self.environment(folder))
        #expect(broken.code != 0, "\(shell) accepted a broken script")
    }

    // MARK: bash

    @Test func bashCompletesCommandsOptionsValuesAndNames() throws {
        let folder = try TemporaryFolder("completion-bash")
        defer { folder.cleanUp() }
        let script = try Self.script("bash", in: folder)
        let catalog = try CatalogSource.embedded.blockNames()
        let lines = [
            "blocks se", "blocks add --ov", "blocks add to", "blocks completion ", "blocks search --level i",
            "blocks help reg", "blocks -q info pa", "blocks export --format ", "blocks add pager ", "blocks info pager ",
            "blocks --registry @", "blocks ",
        ]
        let found = try Self.bashCandidates(lines, script: script, in: folder.url, folder: folder)
        guard found.count == lines.count else { return }
        #expect(found[0] == ["search"])
        #expect(found[1] == ["--overwrite"])
        #expect(found[2] == catalog.filter { $0.hasPrefix("to") }.sorted() && found[2].contains("top-tabs"), "\(found[2])")
        #expect(found[3] == ["bash", "fish", "zsh"])
        #expect(found[4] == ["intermediate"])
        #expect(found[5] == ["registry"])
        #expect(found[6] == ["pager"], "a global option before the command is skipped")
        #expect(found[7] == ["tar.gz", "zip"])
        // add takes several names; info one.
        #expect(found[8] == catalog.sorted(), "\(found[8])")
        #expect(found[9] == [], "\(found[9])")
        // Outside a project there is no namespace.
        #expect(found[10] == [])
        // Every command, from BlocksCLI.commands: a new one is completed with no edit here.
        #expect(found[11] == (BlocksCLI.commands.map { $0.spec.name } + ["help"]).sorted())
    }

    @Test func bashCompletesEveryOptionOfEveryCommandButTheHiddenOnes() throws {
        let folder = try TemporaryFolder("completion-options")
        defer { folder.cleanUp() }
        let script = try Self.script("bash", in: folder)
        let specs = BlocksCLI.commands.map { $0.spec }
        let found = try Self.bashCandidates(specs.map { "blocks \($0.name) -" }, script: script, in: folder.url, folder: folder)
        guard found.count == specs.count else { return }
        for (spec, candidates) in zip(specs, found) {
            for option in spec.options + GlobalOptions.specs {
                let spelled = "--" + option.long
                #expect(candidates.contains(spelled) == !option.isHidden, "blocks \(spec.name) \(spelled): \(candidates)")
                if let short = option.short { #expect(candidates.contains("-\(short)"), "blocks \(spec.name) -\(short)") }
            }
        }
        #expect(found[specs.firstIndex { $0.name == "completion" }!].allSatisfy { !$0.contains("names") })
    }

    @Test func bashCompletesNamespacesAndTheirBlocksInAProject() throws {
        let folder = try TemporaryFolder("completion-project")
        defer { folder.cleanUp() }
        let script = try Self.script("bash", in: folder)
        let app = try Self.project(in: folder)
        let lines = ["blocks --registry @", "blocks --registry @a", "blocks registry remove @", "blocks add @acme/", "blocks --registry @acme add "]
        let found = try Self.bashCandidates(lines, script: script, in: app, folder: folder)
        guard found.count == lines.count else { return }
        #expect(found[0] == ["@acme", "@beta"])
        #expect(found[1] == ["@acme"])
        #expect(found[2] == ["@acme", "@beta"])
        // The unreadable @beta gives no names and no error.
        #expect(found[3] == ["@acme/acme-tabs"], "\(found[3])")
        // --registry @acme on the line narrows the names to that registry.
        #expect(found[4] == ["@acme/acme-tabs"], "\(found[4])")
    }

    // MARK: fish

    @Test func fishCompletesCommandsOptionsNamesAndNamespaces() throws {
        let folder = try TemporaryFolder("completion-fish")
        defer { folder.cleanUp() }
        let script = try Self.script("fish", in: folder)
        let app = try Self.project(in: folder)
        func complete(_ line: String) throws -> [String] {
            let command = "source \(script.path); complete -C '\(line)'"
            let result = try Self.runBounded("fish", ["--no-config", "-c", command], in: app, environment: Self.environment(folder))
            #expect(result.code == 0, "fish: \(result.err)")
            return result.out.split(separator: "\n").map { String($0.split(separator: "\t").first ?? "") }.sorted()
        }
        #expect(try complete("blocks se") == ["search"])
        #expect(try complete("blocks add --ov") == ["--overwrite"])
        #expect(try complete("blocks add to") == ["top-tabs"])
        #expect(try complete("blocks completion ") == ["bash", "fish", "zsh"])
        #expect(try complete("blocks --registry @") == ["@acme", "@beta"])
        #expect(try complete("blocks info @acme/") == ["@acme/acme-tabs"])
        #expect(try complete("blocks ").contains("completion"))
    }

    // MARK: zsh

    /// zsh completes only inside its line editor, so an interactive zsh runs on a pseudo
    /// terminal (zsh/zpty) with compinit and the script in $fpath; TAB after a partial word
    /// must put the whole word on the line: a subcommand, a shell name, a block name.
    @Test func zshCompletesOnItsLineEditor() throws {
        let folder = try TemporaryFolder("completion-zsh")
        defer { folder.cleanUp() }
        try FileManager.default.createDirectory(at: folder.path("functions"), withIntermediateDirectories: true)
        let script = try Self.script("zsh", in: folder)
        try FileManager.default.moveItem(at: script, to: folder.path("functions/_blocks"))
        let driver = """
            zmodload zsh/zpty || exit 3
            zpty z zsh -f -i
            zpty -w z 'PS1="> "; fpath=(\(folder.path("functions").path) $fpath); autoload -Uz compinit; compinit -u -d \(folder.path("zcompdump").path); print READY'
            zpty -r -m z out '*READY*' || exit 4
            zpty -w -n z $'blocks se\\t'
            zpty -r -m z out '*blocks search*' || exit 5
            zpty -w -n z $'\\C-u blocks completion z\\t'
            zpty -r -m z out '*blocks completion zsh*' || exit 6
            zpty -w -n z $'\\C-u blocks add to\\t'
            zpty -r -m z out '*top-tabs*' || exit 7
            zpty -d z
            print DONE
            """
        try folder.write("driver.zsh", driver)
        let result = try Self.runBounded("zsh", ["-f", folder.path("driver.zsh").path], in: folder.url, environment: Self.environment(folder))
        #expect(result.code == 0, "zsh driver exits \(result.code): \(result.out)\(result.err)")
        #expect(result.out.contains("DONE"), "\(result.out)")
    }

    // MARK: The command

    @Test func aBadShellIsAUsageErrorWithASuggestion() {
        let bad = runBlocks(["completion", "bsh"])
        #expect(bad.code == 64)
        #expect(bad.err.contains("'bsh'") && bad.err.contains("did you mean 'bash'?"), "\(bad.err)")
        let missing = runBlocks(["completion"])
        #expect(missing.code == 64 && missing.err.contains("<shell>"), "\(missing.err)")
        let help = runBlocks(["completion", "--help"])
        #expect(help.code == 0 && !help.out.contains("--names") && !help.out.contains("--namespaces"), "\(help.out)")
    }

    @Test func theHiddenCallbacksPrintNamesAndNamespaces() throws {
        let folder = try TemporaryFolder("completion-callbacks")
        defer { folder.cleanUp() }
        let names = runBlocks(["--offline", "completion", "--names"], in: folder.url, environment: ["BLOCKS_REGISTRY": ""])
        #expect(names.code == 0, "\(names.err)")
        #expect(names.out.split(separator: "\n").map(String.init) == (try CatalogSource.embedded.blockNames()))
        let app = try Self.project(in: folder)
        let namespaces = runBlocks(["completion", "--namespaces"], in: app)
        #expect(namespaces.out == "@acme\n@beta\n", "\(namespaces.out)")
        // An unreadable registry gives no names, exit 0 and nothing on stderr under --quiet.
        let unreadable = runBlocks(["--offline", "--quiet", "--registry", "https://registry.invalid/", "completion", "--names"], in: folder.url)
        #expect(unreadable.code == 0 && unreadable.out.isEmpty && unreadable.err.isEmpty, "\(unreadable.out)\(unreadable.err)")
    }
}

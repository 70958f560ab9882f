import Testing

@testable import BlocksKit

@Suite struct ArgumentParserTests {
    let spec = CommandSpec(
        name: "demo", abstract: "A demo.",
        arguments: [ArgumentSpec("name", help: "A name."), ArgumentSpec("more", help: "More.", optional: true, variadic: true)],
        options: [
            OptionSpec("limit", value: "n", help: "A limit."),
            OptionSpec("json", help: "JSON."),
            OptionSpec("quiet", short: "q", help: "Quiet."),
            OptionSpec("directory", short: "C", value: "dir", help: "Folder."),
        ])

    @Test func parsesFlagsOptionsAndPositionals() throws {
        let parsed = try ArgumentParser.parse(["a", "--limit", "3", "--json", "b", "-q", "--limit=5"], spec: spec)
        #expect(parsed.positionals == ["a", "b"])
        #expect(parsed.flag("json") && parsed.flag("quiet"))
        #expect(parsed.value("limit") == "5")
        #expect(parsed.allValues("limit") == ["3", "5"])
        #expect(try parsed.integer("limit") == 5)
    }

    @Test func shortOptionsBundleAndTakeAttachedValues() throws {
        let parsed = try ArgumentParser.parse(["x", "-qC", "/tmp"], spec: spec)
        #expect(parsed.flag("quiet"))
        #expect(parsed.value("directory") == "/tmp")
        let attached = try ArgumentParser.parse(["x", "-C/var"], spec: spec)
        #expect(attached.value("directory") == "/var")
    }

    @Test func doubleDashEndsOptions() throws {
        let parsed = try ArgumentParser.parse(["--", "--json", "-q"], spec: spec)
        #expect(parsed.positionals == ["--json", "-q"])
        #expect(!parsed.flag("json"))
    }

    @Test func unknownOptionSuggestsTheNearest() {
        #expect(throws: UsageError.unknownOption("--limt", suggestion: "--limit")) {
            try ArgumentParser.parse(["a", "--limt", "3"], spec: spec)
        }
        #expect(throws: UsageError.unknownOption("-z", suggestion: nil)) {
            try ArgumentParser.parse(["a", "-z"], spec: spec)
        }
    }

    @Test func everyErrorPath() throws {
        #expect(throws: UsageError.missingValue(option: "--limit")) { try ArgumentParser.parse(["a", "--limit"], spec: spec) }
        #expect(throws: UsageError.missingValue(option: "--limit")) { try ArgumentParser.parse(["a", "--limit", "--json"], spec: spec) }
        #expect(throws: UsageError.unexpectedValue(option: "--json")) { try ArgumentParser.parse(["a", "--json=yes"], spec: spec) }
        #expect(throws: UsageError.missingArgument("name")) { try ArgumentParser.parse([], spec: spec) }
        let single = CommandSpec(name: "one", abstract: "", arguments: [ArgumentSpec("name", help: "")])
        #expect(throws: UsageError.unexpectedArgument("extra")) { try ArgumentParser.parse(["a", "extra"], spec: single) }
        for text in ["many", "0"] {
            #expect(throws: UsageError.invalidValue(option: "--limit", value: text, expected: "a whole number, 1 or more")) {
                try ArgumentParser.parse(["a", "--limit", text], spec: spec).integer("limit")
            }
        }
        #expect(try ArgumentParser.parse(["a", "--limit", "1"], spec: spec).integer("limit") == 1)
    }

    @Test func negativeNumbersAreValuesNotOptions() throws {
        let parsed = try ArgumentParser.parse(["a", "--limit", "-1"], spec: spec)
        #expect(parsed.value("limit") == "-1")
        #expect(throws: UsageError.self) { try parsed.integer("limit") }
    }

    @Test func editDistanceAndSuggestions() {
        #expect(EditDistance.distance("kitten", "sitting") == 3)
        #expect(EditDistance.distance("pagre", "pager") == 1)
        #expect(EditDistance.distance("ab", "ba") == 1)
        #expect(EditDistance.distance("", "abc") == 3)
        #expect(EditDistance.distance("same", "same") == 0)
        #expect(EditDistance.distance("abcdef", "uvwxyz", limit: 2) == 3)
        #expect(EditDistance.closest(to: "serch", in: ["search", "list", "info"]) == "search")
        #expect(EditDistance.closest(to: "zzzzzz", in: ["search", "list"]) == nil)
    }
}

@Suite struct HelpTests {
    @Test func helpHasTheSectionsOfSwiftArgumentParser() {
        let help = HelpFormatter.help(for: SearchCommand.spec)
        for section in ["OVERVIEW:", "USAGE: blocks search", "ARGUMENTS:", "OPTIONS:", "--platform <platform>", "-h, --help"] {
            #expect(help.contains(section), "missing \(section)")
        }
        let root = runBlocks(["--help"])
        #expect(root.code == 0)
        for section in ["OVERVIEW:", "USAGE:", "OPTIONS:", "SUBCOMMANDS:", "search", "lint"] {
            #expect(root.out.contains(section), "missing \(section)")
        }
    }

    @Test func everyCommandHasHelpInBothSpellings() {
        for command in BlocksCLI.commands {
            let name = command.spec.name
            let viaFlag = runBlocks([name, "--help"])
            let viaHelp = runBlocks(["help", name])
            #expect(viaFlag.code == 0 && viaHelp.code == 0)
            #expect(viaFlag.out == viaHelp.out)
            #expect(viaFlag.out.hasPrefix("OVERVIEW: "))
            #expect(viaFlag.out.contains("USAGE: blocks \(name)"))
        }
    }

    @Test func unknownCommandIsAUsageErrorWithASuggestion() {
        let result = runBlocks(["serch", "tabs"])
        #expect(result.code == 64)
        #expect(result.err.contains("did you mean 'search'?"))
        #expect(result.out.isEmpty)
        let option = runBlocks(["search", "--platfrom", "ios18"])
        #expect(option.code == 64)
        #expect(option.err.contains("did you mean '--platform'?"))
    }

    @Test func versionPrints() {
        let result = runBlocks(["--version"])
        #expect(result.code == 0 && result.out == "blocks \(BlocksCLI.version)\n")
    }
}

/// Parses a command line against a `CommandSpec`: `--flag`, `--option value`,
/// `--option=value`, `-s value`, bundled short flags (`-qj`) and `--` to end options.
public enum ArgumentParser {
    public static func parse(_ arguments: [String], spec: CommandSpec) throws -> ParsedArguments {
        var result = ParsedArguments()
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
                result.positionals.append(argument)
            } else if argument == "--" {
                optionsEnded = true
            } else if argument.hasPrefix("--") {
                try parseLong(argument, spec: spec, arguments: arguments, index: &index, into: &result)
            } else {
                try parseShort(argument, spec: spec, arguments: arguments, index: &index, into: &result)
            }
            index += 1
        }
        try checkPositionals(result.positionals, spec: spec)
        return result
    }

    /// `--name` or `--name=value`.
    private static func parseLong(
        _ argument: String, spec: CommandSpec, arguments: [String], index: inout Int, into result: inout ParsedArguments
    ) throws {
        let body = argument.dropFirst(2)
        let name = String(body.prefix { $0 != "=" })
        let inlineValue = body.contains("=") ? String(body.drop { $0 != "=" }.dropFirst()) : nil
        guard let found = spec.option(named: name) else {
            let names = spec.options.map { "--" + $0.long }
            throw UsageError.unknownOption("--" + name, suggestion: EditDistance.closest(to: "--" + name, in: names))
        }
        try record(found, spelled: "--" + name, inlineValue: inlineValue, arguments: arguments, index: &index, into: &result)
    }

    /// One or more short options: "-q", "-qj", "-C dir", "-Cdir".
    private static func parseShort(
        _ argument: String, spec: CommandSpec, arguments: [String], index: inout Int, into result: inout ParsedArguments
    ) throws {
        let letters = Array(argument.dropFirst())
        var position = 0
        while position < letters.count {
            let letter = letters[position]
            guard let found = spec.options.first(where: { $0.short == letter }) else {
                throw UsageError.unknownOption("-\(letter)", suggestion: suggestion(forShort: letter, in: spec))
            }
            if found.isFlag {
                result.flags.insert(found.long)
                position += 1
                continue
            }
            let rest = String(letters[(position + 1)...])
            try record(found, spelled: "-\(letter)", inlineValue: rest.isEmpty ? nil : rest, arguments: arguments, index: &index, into: &result)
            break
        }
    }

    /// One option as given: a flag, or its value, attached (`--name=value`, `-Cdir`) or
    /// the next argument, which `index` then steps past.
    private static func record(
        _ option: OptionSpec, spelled: String, inlineValue: String?, arguments: [String], index: inout Int, into result: inout ParsedArguments
    ) throws {
        if option.isFlag {
            if inlineValue != nil { throw UsageError.unexpectedValue(option: spelled) }
            result.flags.insert(option.long)
            return
        }
        if let inlineValue {
            result.values[option.long, default: []].append(inlineValue)
            return
        }
        index += 1
        guard index < arguments.count, !looksLikeOption(arguments[index]) else {
            throw UsageError.missingValue(option: spelled)
        }
        result.values[option.long, default: []].append(arguments[index])
    }

    /// For an unknown `-x`: the one long option starting with that letter, so a habit from
    /// another tool (shadcn's `add -o` for overwrite; here `-o` is `--output`) finds ours.
    static func suggestion(forShort letter: Character, in spec: CommandSpec) -> String? {
        let global = Set(GlobalOptions.specs.map(\.long))
        let matching = spec.options.filter { $0.long.first == letter && !global.contains($0.long) }
        return matching.count == 1 ? "--" + matching[0].long : nil
    }

    private static func looksLikeOption(_ text: String) -> Bool {
        text.count > 1 && text.hasPrefix("-") && Double(text) == nil
    }

    private static func checkPositionals(_ positionals: [String], spec: CommandSpec) throws {
        let required = spec.arguments.filter { !$0.isOptional }
        if positionals.count < required.count {
            throw UsageError.missingArgument(
                required[positionals.count].name, example: spec.examples.first?.commandLine, hint: required[positionals.count].whereToFind)
        }
        let acceptsMany = spec.arguments.contains { $0.isVariadic }
        if !acceptsMany && positionals.count > spec.arguments.count {
            throw UsageError.unexpectedArgument(positionals[spec.arguments.count])
        }
    }
}

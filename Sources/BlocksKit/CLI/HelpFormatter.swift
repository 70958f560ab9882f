/// Help text laid out like swift-argument-parser's: OVERVIEW, USAGE, ARGUMENTS, OPTIONS,
/// SUBCOMMANDS, then EXAMPLES. A command's help shows its own options only, and one line
/// pointing to `blocks --help` for the global ones, so `list --help` is about `list`.
///
/// Every line is wrapped to `width` between words (`TextWrap`), with continuation lines
/// under the text they continue: help is read on terminals of 80 columns.
public enum HelpFormatter {
    static let indent = "  "
    static let column = 26
    /// The narrowest the help column gets, however narrow the terminal.
    static let narrowestHelp = 20

    public static func help(for spec: CommandSpec, width: Int = TerminalWidth.fallback) -> String {
        var lines = [hanging("OVERVIEW: ", spec.abstract, width: width)]
        if let discussion = spec.discussion {
            // Paragraphs are reflowed: the line breaks in the source are not the terminal's.
            for paragraph in discussion.split(separator: "\n\n") {
                lines.append("")
                lines += TextWrap.lines(String(paragraph.replacing("\n", with: " ")), width: width)
            }
        }
        lines.append("")
        let usage = (spec.usage?.map(usageUnits) ?? [usageParts(spec)]).map { TextWrap.lines(words: $0, width: width - usagePrefix.count) }
        let pad = String(repeating: " ", count: usagePrefix.count)
        lines += usage.joined().enumerated().map { ($0.offset == 0 ? usagePrefix : pad) + $0.element }
        if !spec.arguments.isEmpty {
            lines += ["", "ARGUMENTS:"]
            lines += spec.arguments.map { row("<\($0.name)>" + ($0.isVariadic ? " ..." : ""), $0.help, width: width) }
        }
        lines += ["", "OPTIONS:"]
        lines += (spec.options + GlobalOptions.specs.filter { $0.long == "help" }).filter { !$0.isHidden }.map { row(optionLabel($0), $0.help, width: width) }
        lines += ["", hanging(indent, globalOptionsPointer, width: width)]
        lines += examples(spec.examples, width: width)
        return lines.joined(separator: "\n")
    }

    /// The line that stands for the global options in a command's help.
    static let globalOptionsPointer =
        "Every command also takes the global options (--registry, --json, --quiet, -C, --offline and more): see 'blocks --help'."

    /// The EXAMPLES section: each command line, and under it what it does.
    static func examples(_ examples: [CommandSpec.Example], width: Int) -> [String] {
        guard !examples.isEmpty else { return [] }
        var lines = ["", "EXAMPLES:"]
        for example in examples {
            lines.append(hanging(indent, example.commandLine, width: width))
            lines.append(hanging(indent + indent + indent, example.effect, width: width))
        }
        return lines
    }

    public static func rootHelp(commands: [CommandSpec], plugins: [Plugin], width: Int = TerminalWidth.fallback) -> String {
        var lines = [
            hanging("OVERVIEW: ", "A registry of SwiftUI blocks: find, inspect and add components you then own.", width: width),
            "",
            hanging(usagePrefix, "blocks [--registry <url-or-path>] [--json] <subcommand> [<arguments>]", width: width),
            "",
            "OPTIONS:",
        ]
        lines += GlobalOptions.specs.map { row(optionLabel($0), $0.help, width: width) }
        lines.append(row("--version", "Show the version.", width: width))
        lines += ["", "SUBCOMMANDS:"]
        lines += commands.map { row($0.name, $0.abstract, width: width) }
        if !plugins.isEmpty {
            lines += ["", "PLUGINS:"]
            // File names on PATH are not the tool's own words: a name may hold ESC sequences.
            lines += plugins.map { row(TerminalText.escaped($0.name), "Runs \(TerminalText.escaped($0.path))", width: width) }
        }
        lines += examples(
            [
                .init("blocks search tabs", "Find blocks about tabs."),
                .init("blocks add top-tabs", "Copy one into your project; it is yours to edit."),
                .init("blocks status", "See what you added, what you changed and what has an update."),
            ], width: width)
        lines += ["", hanging(indent, "See 'blocks help <subcommand>' for detailed help.", width: width)]
        return lines.joined(separator: "\n")
    }

    static let usagePrefix = "USAGE: "

    /// The usage line's parts; a part such as `[--format <format>]` is never broken.
    static func usageParts(_ spec: CommandSpec) -> [String] {
        var parts = ["blocks", spec.name]
        for argument in spec.arguments {
            var text = "<\(argument.name)>"
            if argument.isVariadic { text += " ..." }
            if argument.isOptional { text = "[\(text)]" }
            parts.append(text)
        }
        // Required options first and bare; the rest in brackets.
        let shown = spec.options.filter { !$0.isHidden }
        for option in shown.filter(\.isRequired) + shown.filter({ !$0.isRequired }) {
            let text = "--\(option.long)" + (option.valueName.map { " <\($0)>" } ?? "")
            parts.append(option.isRequired ? text : "[\(text)]")
        }
        return parts
    }

    /// A written usage line's parts: words, with a bracketed group (`[--jobs <n>]`) kept whole.
    static func usageUnits(_ line: String) -> [String] {
        var units: [String] = []
        var depth = 0
        for word in line.split(separator: " ") {
            if depth > 0, let last = units.indices.last { units[last] += " " + word } else { units.append(String(word)) }
            depth += word.filter { $0 == "[" }.count - word.filter { $0 == "]" }.count
            depth = max(depth, 0)
        }
        return units
    }

    static func optionLabel(_ option: OptionSpec) -> String {
        var label = option.short.map { "-\($0), " } ?? ""
        label += "--\(option.long)"
        if let value = option.valueName { label += " <\(value)>" }
        return label
    }

    /// A label and its help in two columns; the help wraps within its column.
    static func row(_ label: String, _ help: String, width: Int = TerminalWidth.fallback) -> String {
        let start = indent + label
        let pad = String(repeating: " ", count: column)
        let help = TextWrap.lines(help, width: max(width - column, narrowestHelp))
            .enumerated().map { ($0.offset == 0 ? "" : pad) + $0.element }.joined(separator: "\n")
        if start.count >= column { return start + "\n" + pad + help }
        return start + String(repeating: " ", count: column - start.count) + help
    }

    /// `text` after `prefix`, wrapped, with its continuation lines under the text.
    static func hanging(_ prefix: String, _ text: String, width: Int) -> String {
        TextWrap.hanging(text, firstPrefix: prefix, indent: prefix.count, width: width)
    }
}

/// Help text laid out like swift-argument-parser's: OVERVIEW, USAGE, ARGUMENTS, OPTIONS, SUBCOMMANDS.
public enum HelpFormatter {
    static let indent = "  "
    static let column = 26

    public static func help(for spec: CommandSpec) -> String {
        var lines = ["OVERVIEW: \(spec.abstract)"]
        if let discussion = spec.discussion { lines += ["", discussion] }
        lines += ["", "USAGE: " + (spec.usage ?? [usageLine(spec)]).joined(separator: "\n       ")]
        if !spec.arguments.isEmpty {
            lines += ["", "ARGUMENTS:"]
            lines += spec.arguments.map { row("<\($0.name)>" + ($0.isVariadic ? " ..." : ""), $0.help) }
        }
        lines += ["", "OPTIONS:"]
        lines += (spec.options + GlobalOptions.specs).map { row(optionLabel($0), $0.help) }
        return lines.joined(separator: "\n")
    }

    public static func rootHelp(commands: [CommandSpec], plugins: [Plugin]) -> String {
        var lines = [
            "OVERVIEW: A registry of SwiftUI blocks: find, inspect and add components you then own.",
            "",
            "USAGE: blocks [--registry <url-or-path>] [--json] <subcommand> [<arguments>]",
            "",
            "OPTIONS:",
        ]
        lines += GlobalOptions.specs.map { row(optionLabel($0), $0.help) }
        lines.append(row("--version", "Show the version."))
        lines += ["", "SUBCOMMANDS:"]
        lines += commands.map { row($0.name, $0.abstract) }
        if !plugins.isEmpty {
            lines += ["", "PLUGINS:"]
            lines += plugins.map { row($0.name, "Runs \($0.path)") }
        }
        lines += ["", "  See 'blocks help <subcommand>' for detailed help."]
        return lines.joined(separator: "\n")
    }

    static func usageLine(_ spec: CommandSpec) -> String {
        var parts = ["blocks", spec.name]
        for argument in spec.arguments {
            var text = "<\(argument.name)>"
            if argument.isVariadic { text += " ..." }
            if argument.isOptional { text = "[\(text)]" }
            parts.append(text)
        }
        for option in spec.options {
            parts.append("[--\(option.long)" + (option.valueName.map { " <\($0)>" } ?? "") + "]")
        }
        return parts.joined(separator: " ")
    }

    static func optionLabel(_ option: OptionSpec) -> String {
        var label = option.short.map { "-\($0), " } ?? ""
        label += "--\(option.long)"
        if let value = option.valueName { label += " <\(value)>" }
        return label
    }

    static func row(_ label: String, _ help: String) -> String {
        let start = indent + label
        if start.count >= column { return start + "\n" + String(repeating: " ", count: column) + help }
        return start + String(repeating: " ", count: column - start.count) + help
    }
}

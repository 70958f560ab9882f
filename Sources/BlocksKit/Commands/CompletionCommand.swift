/// `blocks completion bash|zsh|fish`: prints the shell's completion script
/// (`ShellCompletion`). The scripts call back with the hidden `--names` and `--namespaces`
/// for what only the project knows: its registries' block names and blocks.json's namespaces.
public enum CompletionCommand: Command {
    public static let spec = CommandSpec(
        name: "completion",
        abstract: "Print a shell completion script for bash, zsh or fish.",
        discussion: """
            The script completes subcommands, options and their values, block names from the
            current registries and @namespaces from blocks.json, which it asks blocks for offline.
            For example, in bash: source <(blocks completion bash). The README's "Shell completions"
            says how to install it for good in each shell.
            """,
        arguments: [
            ArgumentSpec(
                "shell", help: "bash, zsh or fish.", optional: true,
                completion: .choices(ShellCompletion.Shell.allCases.map(\.rawValue)))
        ],
        options: [namesOption, namespacesOption],
        examples: [
            .init("blocks completion zsh > ~/.zfunc/_blocks", "Install zsh's completion (with ~/.zfunc in fpath, before compinit)."),
            .init("blocks completion fish > ~/.config/fish/completions/blocks.fish", "Install fish's; bash: source <(blocks completion bash)."),
        ])

    static let namesOption = OptionSpec(ShellCompletion.namesFlag, help: "Print the registries' block names, one a line.", hidden: true)
    static let namespacesOption = OptionSpec(ShellCompletion.namespacesFlag, help: "Print blocks.json's namespaces, one a line.", hidden: true)

    public static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> Int32 {
        if arguments.flag(namesOption) || arguments.flag(namespacesOption) {
            if let extra = arguments.positionals.first { throw UsageError.unexpectedArgument(extra) }
            if arguments.flag(namesOption) { ShellCompletion.blockNames(context: context).forEach { context.print($0) } }
            if arguments.flag(namespacesOption) { ShellCompletion.namespaces(context: context).forEach { context.print($0) } }
            return 0
        }
        guard let name = arguments.positionals.first else { throw UsageError.missingArgument("shell", example: "blocks completion bash") }
        guard let shell = ShellCompletion.Shell(rawValue: name) else {
            let names = ShellCompletion.Shell.allCases.map(\.rawValue)
            let hint = EditDistance.closest(to: name.lowercased(), in: names).map { "; did you mean '\($0)'?" } ?? ""
            throw UsageError.invalidValue(option: "<shell>", value: name, expected: "bash, zsh or fish" + hint)
        }
        context.print(ShellCompletion.script(for: shell))
        return 0
    }
}

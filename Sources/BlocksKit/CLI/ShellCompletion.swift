/// Completion scripts for bash, zsh and fish (`blocks completion SHELL`).
///
/// Every script is generated from the `CommandSpec`s of `BlocksCLI.commands` and from
/// `GlobalOptions.specs`, with each argument's and option's `ValueCompletion`, so a new
/// command or option is completed the day it is added, with no list here to keep up to
/// date. Block names and namespaces change with the project, so the scripts ask the
/// binary for them while completing (`blocks --offline --quiet completion --names` and
/// `--namespaces`): offline, that reads the cache and blocks.json and never waits on the
/// network, and any failure gives no candidates rather than an error on the prompt.
public enum ShellCompletion {
    /// The shells a script can be printed for.
    public enum Shell: String, CaseIterable, Sendable {
        case bash, zsh, fish
    }

    /// The hidden flags the scripts call back with.
    static let namesFlag = "names"
    static let namespacesFlag = "namespaces"

    /// The script for `shell`, over `commands` (the built-in ones and `help` by default)
    /// and `globals`.
    public static func script(for shell: Shell, commands: [CommandSpec]? = nil, globals: [OptionSpec] = GlobalOptions.specs) -> String {
        let commands = commands ?? defaultCommands
        let visibleGlobals = globals.filter { !$0.isHidden }
        switch shell {
        case .bash: return bash(commands: commands, globals: visibleGlobals)
        case .zsh: return zsh(commands: commands, globals: visibleGlobals)
        case .fish: return fish(commands: commands, globals: visibleGlobals)
        }
    }

    /// The built-in commands, then `help`, whose argument is one of their names.
    static var defaultCommands: [CommandSpec] {
        let specs = BlocksCLI.commands.map { $0.spec }
        var help = BlocksCLI.helpSpec
        help.arguments = help.arguments.map { argument in
            var argument = argument
            argument.completion = .choices(specs.map(\.name))
            return argument
        }
        return specs + [help]
    }

    /// Every block of the project's registries as it is typed (`name`, or
    /// `@namespace/name`), for `--names`. A registry that cannot be read (nothing cached,
    /// offline) adds none.
    public static func blockNames(context: CommandContext) -> [String] {
        var names: [String] = []
        for member in (try? context.registrySet().members) ?? separately(context) {
            guard let manifests = try? member.source.manifests() else { continue }
            names += manifests.map { member.reference($0.name).description }
        }
        return names
    }

    /// Each registry opened on its own, when opening them together failed (a namespace's
    /// folder is gone, nothing of it is cached): one unreadable registry hides no other's names.
    static func separately(_ context: CommandContext) -> [RegistrySet.Member] {
        let narrowed = context.registry?.hasPrefix("@") == true
        var members: [RegistrySet.Member] = []
        if !narrowed, let source = try? context.registrySource() { members.append(RegistrySet.Member(namespace: nil, source: source)) }
        let namespaced = (try? context.project().namespacedRegistries()) ?? []
        for registry in namespaced where !narrowed || registry.namespace == context.registry {
            if let member = try? RegistrySet.open(registry, access: context.registryAccess) { members.append(member) }
        }
        return members
    }

    /// The `@namespace`s of the project's blocks.json, for `--namespaces`.
    public static func namespaces(context: CommandContext) -> [String] {
        guard let config = try? context.project().config else { return [] }
        return (config.registries ?? [:]).keys.filter(NamespacedRegistry.isValidNamespace).sorted()
    }

    // MARK: What the generators share

    /// An option's spellings: `--long` and `-s`.
    static func spellings(_ option: OptionSpec) -> [String] {
        ["--" + option.long] + (option.short.map { ["-\($0)"] } ?? [])
    }

    /// The spellings of the options that take a value, whose next word is that value.
    static func valueSpellings(_ options: [OptionSpec]) -> [String] {
        options.filter { !$0.isFlag }.flatMap(spellings)
    }

    static func visibleOptions(_ spec: CommandSpec) -> [OptionSpec] {
        spec.options.filter { !$0.isHidden }
    }

    /// Text between single quotes in bash or zsh: `'` becomes `'\''`.
    static func singleQuoted(_ text: String) -> String {
        "'" + text.replacing("'", with: #"'\''"#) + "'"
    }

    /// Help text on one line, for a description.
    static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).map { $0.trimmingWhitespace() }.joined(separator: " ")
    }

    // MARK: bash

    static func bash(commands: [CommandSpec], globals: [OptionSpec]) -> String {
        let globalValues = valueSpellings(globals)
        let globalWords = (globals.flatMap(spellings) + ["--version"]).joined(separator: " ")
        var lines = bashHelperFunctions
        for spec in commands {
            lines += bashCommandFunction(spec, globalValues: globalValues, globalWords: globalWords)
            lines.append("")
        }
        lines += bashEntryFunction(commands: commands, globals: globals, globalValues: globalValues, globalWords: globalWords)
        lines += ["", "complete -F _blocks blocks"]
        return lines.joined(separator: "\n")
    }

    /// The script's header and the helpers every command's function calls: asking blocks
    /// for names, adding lines to COMPREPLY, and the candidates of each kind of value.
    static var bashHelperFunctions: [String] {
        [
            "# bash completion for blocks, generated by 'blocks completion bash' from its own",
            "# commands and options. Load it with: source <(blocks completion bash)",
            "",
            "# Block names or namespaces (--names, --namespaces), asked of blocks itself: offline,",
            "# so only the cache and blocks.json are read, with the line's --registry and -C.",
            "_blocks_ask() {",
            "    local program=${words[0]} i",
            "    [[ $program == */* ]] || program=blocks",
            "    local -a passed=()",
            "    for ((i = 1; i < cword; i++)); do",
            "        case ${words[i]} in",
            "            --registry|-C|--directory) passed+=(\"${words[i]}\" \"${words[i + 1]}\") ;;",
            "        esac",
            "    done",
            "    \"$program\" ${passed[@]+\"${passed[@]}\"} --offline --quiet completion \"$1\" 2>/dev/null",
            "}",
            "",
            "# Adds each line of its input to COMPREPLY.",
            "_blocks_reply() {",
            "    local line",
            "    while IFS= read -r line; do",
            "        [[ -n $line ]] && COMPREPLY+=(\"$line\")",
            "    done",
            "    return 0",
            "}",
            "",
            "# Candidates for the current word: words KIND [WORDS], folders, files, names or registries.",
            "_blocks_values() {",
            "    case $1 in",
            "        words) _blocks_reply < <(compgen -W \"$2\" -- \"$cur\") ;;",
            "        folders) compopt -o filenames 2>/dev/null; _blocks_reply < <(compgen -d -- \"$cur\") ;;",
            "        files) compopt -o filenames 2>/dev/null; _blocks_reply < <(compgen -f -- \"$cur\") ;;",
            "        names) _blocks_reply < <(compgen -W \"$(_blocks_ask --\(namesFlag))\" -- \"$cur\") ;;",
            "        registries)",
            "            if [[ $cur == @* ]]; then",
            "                _blocks_reply < <(compgen -W \"$(_blocks_ask --\(namespacesFlag))\" -- \"$cur\")",
            "            else",
            "                _blocks_values folders",
            "            fi ;;",
            "    esac",
            "}",
            "",
        ]
    }

    /// `_blocks`, which bash calls: it reads the line, finds the command, and completes a
    /// global option's value or the command name itself, or hands over to the command's function.
    static func bashEntryFunction(commands: [CommandSpec], globals: [OptionSpec], globalValues: [String], globalWords: String) -> [String] {
        var lines = bashLineReading(globalValues: globalValues)
        for option in globals where !option.isFlag {
            lines.append("        \(spellings(option).joined(separator: "|"))) \(bashValues(option.completion)); command=- ;;")
        }
        lines += [
            "    esac",
            "    case $command in",
            "        -) ;;",
            "        '')",
            "            if [[ $cur == -* ]]; then",
            "                _blocks_values words \(singleQuoted(globalWords))",
            "            else",
            "                _blocks_values words \(singleQuoted(commands.map(\.name).joined(separator: " ")))",
            "            fi ;;",
        ]
        for spec in commands {
            lines.append("        \(spec.name)) \(bashFunctionName(spec)) ;;")
        }
        return lines + bashWordBreakTrimming
    }

    /// The start of `_blocks`: the words of the line, the current and the previous one, and
    /// the command among them, up to the `case` on the previous word.
    static func bashLineReading(globalValues: [String]) -> [String] {
        [
            "_blocks() {",
            "    COMPREPLY=()",
            "    # The words are read from the line itself, split at blanks only, so @namespace/name",
            "    # and --option=value stay whole whatever COMP_WORDBREAKS holds.",
            "    local text=${COMP_LINE:0:COMP_POINT}",
            "    local -a words=()",
            "    read -ra words <<< \"$text\"",
            "    if [[ ${#words[@]} -eq 0 || $text == *[[:space:]] ]]; then words+=(\"\"); fi",
            "    local cword=$((${#words[@]} - 1))",
            "    local cur=${words[cword]} prev=",
            "    if ((cword > 0)); then prev=${words[cword - 1]}; fi",
            "    local command= start=0 i",
            "    for ((i = 1; i < cword; i++)); do",
            "        case ${words[i]} in",
            "            \(globalValues.joined(separator: "|"))) i=$((i + 1)) ;;",
            "            -*) ;;",
            "            *) command=${words[i]}; start=$i; break ;;",
            "        esac",
            "    done",
            "    case $prev in",
        ]
    }

    /// The end of `_blocks`: each candidate cut as bash cuts the word it replaces.
    static let bashWordBreakTrimming = [
        "    esac",
        "    # Bash replaces only the part of the word after its last COMP_WORDBREAKS",
        "    # character (an @ or a :), so each candidate loses what comes before it.",
        "    local typed=${COMP_WORDS[COMP_CWORD]}",
        "    local cut=$((${#cur} - ${#typed}))",
        "    if ((cut > 0)) && [[ ${cur:cut} == \"$typed\" ]]; then",
        "        for i in \"${!COMPREPLY[@]}\"; do COMPREPLY[i]=${COMPREPLY[i]:cut}; done",
        "    fi",
        "    return 0",
        "}",
    ]

    static func bashFunctionName(_ spec: CommandSpec) -> String {
        "_blocks_command_" + spec.name.replacing("-", with: "_")
    }

    /// The call that fills COMPREPLY with `completion`'s candidates.
    static func bashValues(_ completion: ValueCompletion) -> String {
        switch completion {
        case .anything: return ":"
        case .files: return "_blocks_values files"
        case .folders: return "_blocks_values folders"
        case .choices(let words): return "_blocks_values words " + singleQuoted(words.joined(separator: " "))
        case .blockNames: return "_blocks_values names"
        case .registries: return "_blocks_values registries"
        }
    }

    /// One command's function: an option's value, an option, else its positional argument.
    static func bashCommandFunction(_ spec: CommandSpec, globalValues: [String], globalWords: String) -> [String] {
        let options = visibleOptions(spec)
        let valueOptions = options.filter { !$0.isFlag }
        let optionWords = (options.flatMap(spellings) + [globalWords]).joined(separator: " ")
        var lines = ["\(bashFunctionName(spec))() {"]
        if !valueOptions.isEmpty {
            lines.append("    case $prev in")
            for option in valueOptions {
                lines.append("        \(spellings(option).joined(separator: "|"))) \(bashValues(option.completion)); return ;;")
            }
            lines.append("    esac")
        }
        lines += [
            "    if [[ $cur == -* ]]; then",
            "        _blocks_values words \(singleQuoted(optionWords))",
            "        return",
            "    fi",
        ]
        guard !spec.arguments.isEmpty else { return lines + ["}"] }
        lines += [
            "    local position=0 i",
            "    for ((i = start + 1; i < cword; i++)); do",
            "        case ${words[i]} in",
            "            \((valueSpellings(options) + globalValues).joined(separator: "|"))) i=$((i + 1)) ;;",
            "            -*) ;;",
            "            *) position=$((position + 1)) ;;",
            "        esac",
            "    done",
            "    case $position in",
        ]
        for (index, argument) in spec.arguments.enumerated() {
            lines.append("        \(argument.isVariadic ? "*" : String(index))) \(bashValues(argument.completion)) ;;")
        }
        lines += ["    esac", "}"]
        return lines
    }

    // MARK: zsh

    /// Text for `_arguments`' brackets and descriptions: `[`, `]` and `\` escaped.
    static func zshDescription(_ text: String) -> String {
        var escaped = ""
        for character in oneLine(text) {
            if character == "[" || character == "]" || character == "\\" { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped
    }

    /// A message or value name in an `_arguments` spec: `:` escaped.
    static func zshMessage(_ text: String) -> String {
        text.replacing("\\", with: "\\\\").replacing(":", with: "\\:")
    }

    static func zshAction(_ completion: ValueCompletion) -> String {
        switch completion {
        case .anything: return " "
        case .files: return "_files"
        case .folders: return "_files -/"
        case .choices(let words): return "(" + words.joined(separator: " ") + ")"
        case .blockNames: return "_blocks_names"
        case .registries: return "_blocks_registries"
        }
    }

    /// An option as `_arguments` takes it, quoted for the script.
    static func zshOption(_ option: OptionSpec) -> String {
        let description = "[" + zshDescription(option.help) + "]"
        let value = option.valueName.map { ":" + zshMessage($0) + ":" + zshAction(option.completion) } ?? ""
        // A value option may be given again (--key, --header); a flag once.
        let repeatable = option.isFlag ? "" : "*"
        guard let short = option.short else { return singleQuoted(repeatable + "--" + option.long + description + value) }
        let both = "-\(short) --\(option.long)"
        if option.isFlag {
            return singleQuoted("(\(both))") + "{-\(short),--\(option.long)}" + singleQuoted(description)
        }
        return singleQuoted(repeatable) + "{-\(short),--\(option.long)}" + singleQuoted(description + value)
    }

    static func zshArgument(_ argument: ArgumentSpec, index: Int) -> String {
        let message = zshMessage(argument.name)
        let action = zshAction(argument.completion)
        if argument.isVariadic { return singleQuoted("*:" + message + ":" + action) }
        return singleQuoted("\(index + 1):" + (argument.isOptional ? ":" : "") + message + ":" + action)
    }

    static func zsh(commands: [CommandSpec], globals: [OptionSpec]) -> String {
        (zshHelperFunctions + zshEntryFunction(commands: commands, globals: globals) + zshLoading).joined(separator: "\n")
    }

    /// The script's header and the helpers `_arguments` calls: asking blocks for names,
    /// then block names and registries as candidates.
    static var zshHelperFunctions: [String] {
        [
            "#compdef blocks",
            "# zsh completion for blocks, generated by 'blocks completion zsh' from its own",
            "# commands and options. Install it as _blocks in a folder of $fpath:",
            "#   blocks completion zsh > \"${fpath[1]}/_blocks\"",
            "",
            "# Block names or namespaces (--names, --namespaces), asked of blocks itself: offline,",
            "# so only the cache and blocks.json are read, with the line's --registry and -C.",
            "_blocks_ask() {",
            "  local -a passed",
            "  local i",
            "  for ((i = 2; i < _blocks_current; i++)); do",
            "    case ${_blocks_words[i]} in",
            "      (--registry|-C|--directory) passed+=(${_blocks_words[i]} ${(Q)_blocks_words[i+1]}) ;;",
            "    esac",
            "  done",
            "  ${(Q)_blocks_words[1]} $passed --offline --quiet completion $1 2>/dev/null",
            "}",
            "",
            "_blocks_names() {",
            "  local -a names",
            "  names=(${(f)\"$(_blocks_ask --\(namesFlag))\"})",
            "  _wanted blocks expl 'block' compadd -a names",
            "}",
            "",
            "_blocks_registries() {",
            "  if [[ $PREFIX == @* ]]; then",
            "    local -a namespaces",
            "    namespaces=(${(f)\"$(_blocks_ask --\(namespacesFlag))\"})",
            "    _wanted namespaces expl 'namespace' compadd -a namespaces",
            "  else",
            "    _files -/",
            "  fi",
            "}",
            "",
        ]
    }

    /// `_blocks`: the global options, then the command name, then the command's own
    /// options and arguments.
    static func zshEntryFunction(commands: [CommandSpec], globals: [OptionSpec]) -> [String] {
        var lines = [
            "_blocks() {",
            "  local curcontext=$curcontext state line ret=1",
            "  local -a _blocks_words",
            "  _blocks_words=(\"${words[@]}\")",
            "  local _blocks_current=$CURRENT",
            "  local -a globals",
            "  globals=(",
        ]
        lines += globals.map { "    " + zshOption($0) }
        lines += [
            "  )",
            "  _arguments -C $globals '(- *)--version[Show the version.]' '1: :->command' '*:: :->argument' && ret=0",
            "  case $state in",
            "    (command)",
            "      local -a commands",
            "      commands=(",
        ]
        lines += commands.map { "        " + singleQuoted($0.name + ":" + oneLine($0.abstract)) }
        lines += [
            "      )",
            "      _describe -t commands 'blocks subcommand' commands && ret=0",
            "      ;;",
            "    (argument)",
            "      curcontext=${curcontext%:*:*}:blocks-$words[1]:",
            "      case $words[1] in",
        ]
        for spec in commands {
            let specs = visibleOptions(spec).map(zshOption) + spec.arguments.enumerated().map { zshArgument($0.element, index: $0.offset) }
            lines.append("        (\(spec.name))")
            lines.append("          _arguments $globals" + specs.map { " \\\n            " + $0 }.joined() + " && ret=0")
            lines.append("          ;;")
        }
        lines += [
            "      esac",
            "      ;;",
            "  esac",
            "  return ret",
            "}",
            "",
        ]
        return lines
    }

    /// The script's end: run as `_blocks` when loaded from $fpath, registered when sourced.
    static let zshLoading = [
        "# Loaded from $fpath, this file is _blocks itself; sourced, it registers it.",
        "if [[ $funcstack[1] == _blocks ]]; then",
        "  _blocks \"$@\"",
        "else",
        "  compdef _blocks blocks",
        "fi",
    ]

    // MARK: fish

    /// Text between single quotes in fish: `\` and `'` escaped.
    static func fishQuoted(_ text: String) -> String {
        "'" + text.replacing("\\", with: "\\\\").replacing("'", with: "\\'") + "'"
    }

    /// The `complete` flags that offer `completion`'s candidates for a value.
    static func fishValues(_ completion: ValueCompletion) -> String {
        switch completion {
        case .anything: return "-x"
        case .files: return "-r -F"
        case .folders: return "-x -a '(__fish_complete_directories (commandline -ct))'"
        case .choices(let words): return "-x -a " + fishQuoted(words.joined(separator: " "))
        case .blockNames: return "-x -a '(__blocks_ask --\(namesFlag))'"
        case .registries: return "-x -a '(__blocks_registries)'"
        }
    }

    static func fishOption(_ option: OptionSpec, condition: String?) -> String {
        var parts = ["complete -c blocks"]
        if let condition { parts.append("-n " + fishQuoted(condition)) }
        parts.append("-l " + option.long)
        if let short = option.short { parts.append("-s \(short)") }
        if !option.isFlag { parts.append(fishValues(option.completion)) }
        parts.append("-d " + fishQuoted(oneLine(option.help)))
        return parts.joined(separator: " ")
    }

    static func fish(commands: [CommandSpec], globals: [OptionSpec]) -> String {
        var lines = fishValueOptionsFunction(commands: commands, globals: globals)
        lines += fishStateFunction + fishConditionFunctions + fishAskFunctions
        lines.append("complete -c blocks -f")
        lines += fishCompletions(commands: commands, globals: globals)
        return lines.joined(separator: "\n")
    }

    /// The script's header and `__blocks_value_options`: the options whose next word is
    /// their value, the globals' and each command's.
    static func fishValueOptionsFunction(commands: [CommandSpec], globals: [OptionSpec]) -> [String] {
        let globalValues = valueSpellings(globals)
        var lines = [
            "# fish completion for blocks, generated by 'blocks completion fish' from its own",
            "# commands and options. Install it with:",
            "#   blocks completion fish > ~/.config/fish/completions/blocks.fish",
            "",
            "# The options whose next word is their value, for a command (globals always).",
            "function __blocks_value_options",
            "    printf '%s\\n' \(globalValues.joined(separator: " "))",
            "    switch \"$argv[1]\"",
        ]
        for spec in commands {
            let values = valueSpellings(visibleOptions(spec))
            guard !values.isEmpty else { continue }
            lines += ["        case \(spec.name)", "            printf '%s\\n' \(values.joined(separator: " "))"]
        }
        lines += ["    end", "end", ""]
        return lines
    }

    /// `__blocks_state`: the subcommand on the line and how many arguments follow it.
    static let fishStateFunction = [
        "# The subcommand on the line, then the number of arguments after it.",
        "function __blocks_state",
        "    set -l words (commandline -opc)",
        "    set -e words[1]",
        "    set -l values (__blocks_value_options)",
        "    set -l command",
        "    set -l position 0",
        "    set -l skip 0",
        "    for word in $words",
        "        if test $skip = 1",
        "            set skip 0",
        "            continue",
        "        end",
        "        if contains -- $word $values",
        "            set skip 1",
        "            continue",
        "        end",
        "        switch $word",
        "            case '-*'",
        "                continue",
        "        end",
        "        if test -z \"$command\"",
        "            set command $word",
        "            set values (__blocks_value_options $command)",
        "        else",
        "            set position (math $position + 1)",
        "        end",
        "    end",
        "    test -n \"$command\"; or return 1",
        "    echo $command",
        "    echo $position",
        "end",
        "",
    ]

    /// The conditions the `complete` lines test: no command yet, this command, this argument.
    static let fishConditionFunctions = [
        "function __blocks_needs_command",
        "    not __blocks_state >/dev/null",
        "end",
        "",
        "function __blocks_using --argument-names command",
        "    set -l state (__blocks_state); or return 1",
        "    test \"$state[1]\" = \"$command\"",
        "end",
        "",
        "# True when the word being completed is argument INDEX (from 0) of COMMAND, or with",
        "# INDEX+ that argument or a later one.",
        "function __blocks_argument --argument-names command index",
        "    set -l state (__blocks_state); or return 1",
        "    test \"$state[1]\" = \"$command\"; or return 1",
        "    string match -q -- '-*' (commandline -ct); and return 1",
        "    if string match -q -- '*+' $index",
        "        test $state[2] -ge (string trim -r -c + -- $index)",
        "    else",
        "        test $state[2] -eq $index",
        "    end",
        "end",
        "",
    ]

    /// Block names and namespaces, asked of blocks itself, and the candidates for a registry.
    static let fishAskFunctions = [
        "# Block names or namespaces (--names, --namespaces), asked of blocks itself: offline,",
        "# so only the cache and blocks.json are read, with the line's --registry and -C.",
        "function __blocks_ask",
        "    set -l words (commandline -opc)",
        "    set -l passed",
        "    set -l i 2",
        "    while test $i -lt (count $words)",
        "        switch $words[$i]",
        "            case --registry -C --directory",
        "                set -a passed $words[$i] $words[(math $i + 1)]",
        "        end",
        "        set i (math $i + 1)",
        "    end",
        "    command $words[1] $passed --offline --quiet completion $argv 2>/dev/null",
        "end",
        "",
        "function __blocks_registries",
        "    set -l token (commandline -ct)",
        "    if string match -q -- '@*' $token",
        "        __blocks_ask --\(namespacesFlag)",
        "    else",
        "        __fish_complete_directories $token",
        "    end",
        "end",
        "",
    ]

    /// The `complete` lines: the global options, the commands, then each command's options
    /// and arguments.
    static func fishCompletions(commands: [CommandSpec], globals: [OptionSpec]) -> [String] {
        var lines = globals.map { fishOption($0, condition: nil) }
        lines.append("complete -c blocks -n __blocks_needs_command -l version -d 'Show the version.'")
        for spec in commands {
            lines.append("complete -c blocks -n __blocks_needs_command -a \(spec.name) -d " + fishQuoted(oneLine(spec.abstract)))
        }
        for spec in commands {
            lines += visibleOptions(spec).map { fishOption($0, condition: "__blocks_using \(spec.name)") }
            for (index, argument) in spec.arguments.enumerated() where argument.completion != .anything {
                let position = argument.isVariadic ? "\(index)+" : "\(index)"
                lines.append(
                    "complete -c blocks -n " + fishQuoted("__blocks_argument \(spec.name) \(position)") + " " + fishValues(argument.completion) + " -d "
                        + fishQuoted(argument.name))
            }
        }
        return lines
    }
}

/// The declared shape of a command: what `--help` prints and what the parser accepts.
public struct CommandSpec: Sendable {
    public var name: String
    public var abstract: String
    public var discussion: String?
    public var arguments: [ArgumentSpec]
    public var options: [OptionSpec]
    /// Extra lines for the USAGE section, when the generated one is not enough.
    public var usage: [String]?
    /// Command lines a newcomer can copy, each with what it does: `--help` shows them, and
    /// a missing argument quotes the first.
    public var examples: [Example]

    public init(
        name: String, abstract: String, discussion: String? = nil,
        arguments: [ArgumentSpec] = [], options: [OptionSpec] = [], usage: [String]? = nil, examples: [Example] = []
    ) {
        self.name = name
        self.abstract = abstract
        self.discussion = discussion
        self.arguments = arguments
        self.options = options
        self.usage = usage
        self.examples = examples
    }

    /// One example: the command line, and what it does.
    public struct Example: Sendable {
        public var commandLine: String
        public var effect: String

        public init(_ commandLine: String, _ effect: String) {
            self.commandLine = commandLine
            self.effect = effect
        }
    }

    /// The option spelled `long` or one of its quiet aliases.
    func option(named long: String) -> OptionSpec? {
        options.first { $0.long == long } ?? options.first { $0.aliases.contains(long) }
    }
}

/// What a shell may offer for an argument or an option's value (`ShellCompletion`). It is
/// declared beside the argument so that the completion scripts follow the specs, with no
/// list of their own to keep up to date.
public enum ValueCompletion: Sendable, Equatable {
    /// Nothing to offer: free text such as a query or a version.
    case anything
    case files
    case folders
    /// One of these words.
    case choices([String])
    /// The names of the blocks in the project's registries (`@namespace/name` for a
    /// namespaced one), asked of the binary when completing.
    case blockNames
    /// A registry: `@namespace` from blocks.json, else a folder.
    case registries

    /// The usual values of an option's value name: `dir` is a folder, `file` a file.
    static func inferred(valueName: String?) -> ValueCompletion {
        switch valueName {
        case "dir", "dest": .folders
        case "file", "keyfile": .files
        default: .anything
        }
    }
}

/// A positional argument.
public struct ArgumentSpec: Sendable {
    public var name: String
    public var help: String
    public var isOptional: Bool
    public var isVariadic: Bool
    /// What shell completion offers here.
    public var completion: ValueCompletion
    /// Where to find its values, said when it is missing: "'blocks status' lists …".
    public var whereToFind: String?

    public init(
        _ name: String, help: String, optional: Bool = false, variadic: Bool = false, completion: ValueCompletion = .anything,
        whereToFind: String? = nil
    ) {
        self.name = name
        self.help = help
        self.isOptional = optional
        self.isVariadic = variadic
        self.completion = completion
        self.whereToFind = whereToFind
    }
}

/// A `--long` option, with an optional `-s` short form. A nil `valueName` makes it a flag.
///
/// `aliases` are older or other tools' spellings (`--out` for `--output`, `--force` for
/// `--overwrite`): accepted and recorded under `long`, never shown, so scripts written for
/// them keep working while help teaches one vocabulary (`SharedOptions`).
public struct OptionSpec: Sendable {
    public var long: String
    public var short: Character?
    public var valueName: String?
    public var help: String
    public var aliases: [String]
    /// Shown in the usage line without brackets; the command itself says why it is needed.
    public var isRequired: Bool
    /// What shell completion offers for the value (by default from the value name).
    public var completion: ValueCompletion
    /// Left out of help and of completion: for the completion scripts' own calls back
    /// into the binary, which people never type.
    public var isHidden: Bool

    public init(
        _ long: String, short: Character? = nil, value: String? = nil, help: String, aliases: [String] = [], required: Bool = false,
        completion: ValueCompletion? = nil, hidden: Bool = false
    ) {
        self.long = long
        self.short = short
        self.valueName = value
        self.help = help
        self.aliases = aliases
        self.isRequired = required
        self.completion = completion ?? .inferred(valueName: value)
        self.isHidden = hidden
    }

    public var isFlag: Bool { valueName == nil }
}

/// What the parser found, looked up by long option name.
public struct ParsedArguments: Sendable, Equatable {
    public var flags: Set<String> = []
    public var values: [String: [String]] = [:]
    public var positionals: [String] = []

    public init(flags: Set<String> = [], values: [String: [String]] = [:], positionals: [String] = []) {
        self.flags = flags
        self.values = values
        self.positionals = positionals
    }

    public func flag(_ name: String) -> Bool { flags.contains(name) }
    public func flag(_ option: OptionSpec) -> Bool { flags.contains(option.long) }
    public func value(_ option: OptionSpec) -> String? { value(option.long) }
    /// The last value given for an option, so a later `--limit 3` wins over an earlier one.
    public func value(_ name: String) -> String? { values[name]?.last }
    public func allValues(_ name: String) -> [String] { values[name] ?? [] }
    /// Every value given for a repeatable option (`--header`, `--key`), in order.
    public func allValues(_ option: OptionSpec) -> [String] { allValues(option.long) }

    /// A count option (`--limit`, `--jobs`): 1 or more, or a usage error that names it.
    public func integer(_ option: OptionSpec) throws -> Int? { try integer(option.long) }

    /// A count option (`--limit`, `--jobs`): 1 or more, or a usage error that names it.
    public func integer(_ name: String) throws -> Int? {
        guard let text = value(name) else { return nil }
        guard let number = Int(text), number >= 1 else {
            throw UsageError.invalidValue(option: "--\(name)", value: text, expected: "a whole number, 1 or more")
        }
        return number
    }
}

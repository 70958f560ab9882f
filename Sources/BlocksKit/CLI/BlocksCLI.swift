/// Passes writes through and remembers whether there were any.
final class WatchedSink: TextSink, @unchecked Sendable {
    private let inner: TextSink
    private let lock = Lock()
    private var wrote = false

    init(_ inner: TextSink) { self.inner = inner }

    /// The sink it watches: `blocks mcp` asks whether that is the process's standard output.
    var watched: TextSink { inner }

    var isTerminal: Bool { inner.isTerminal }
    var columns: Int? { inner.columns }

    var wroteSomething: Bool { lock.withLock { wrote } }

    func write(_ text: String) {
        lock.withLock { wrote = true }
        inner.write(text)
    }
}

/// The entry point: parses global options, dispatches to a command or an external
/// `blocks-NAME` plugin, and turns every error into one message and an exit code.
public enum BlocksCLI {
    public static let version = ToolVersion.current

    /// Every built-in command, in the order `--help` lists them. Computed rather than
    /// stored: a stored array of metatypes needs `nonisolated(unsafe)` with Swift 6.2's
    /// standard library (no `SendableMetatype` conformance) and warns that it is
    /// unnecessary with Swift 6.1's, and the list is read a few times per run.
    public static var commands: [any Command.Type] {[
        SearchCommand.self, ListCommand.self, InfoCommand.self, ViewCommand.self,
        AddCommand.self, StatusCommand.self, UpdateCommand.self, DiffCommand.self, RemoveCommand.self, InitCommand.self, RegistryCommand.self,
        ExportCommand.self, BuildCommand.self, KeygenCommand.self, LintCommand.self, NewCommand.self, MirrorCommand.self, MCPCommand.self, PluginCommand.self,
        CompletionCommand.self,
    ]}

    /// Runs the process's command line and exits.
    ///
    /// Start-up is kept cheap because every command pays for it: only the character-type
    /// category of the locale is switched to UTF-8 (it is what C libraries consult to
    /// convert names; the other categories of "C.UTF-8" format like "C" and would cost a
    /// dozen file reads), the environment is read once, and the transport is only a value
    /// here: libcurl is loaded on the first transfer, not before.
    public static func main() -> Never {
        setlocale(LC_CTYPE, UTF8Locale.characterTypeName)
        let environment = processEnvironment()
        Tuning(environment: environment).applyToProcess()
        var context = CommandContext(
            standardOutput: FileDescriptorSink.standardOutput,
            // Standard error carries the progress bar and the spinner, cleared before each line.
            standardError: StatusLine(FileDescriptorSink.standardError),
            environment: environment,
            workingDirectory: URL(fileURLWithPath: FileManager.default.currentDirectoryPath),
            transport: CurlTransport(environment: environment),
            isInteractive: isatty(STDIN_FILENO) == 1 && isatty(STDERR_FILENO) == 1,
            readLine: { Swift.readLine() }
        )
        let code = run(Array(CommandLine.arguments.dropFirst()), context: &context)
        // Every file is closed and every temporary removed by now.
        fflush(nil)
        exitSkippingHandlers(code)
    }

    /// The environment, read from `environ` (`processEnvironmentBlock`) once: `ProcessInfo`'s
    /// copy costs ten times as much, a tenth of a millisecond of every start. The first of
    /// duplicate names wins, as with `getenv`.
    static func processEnvironment() -> [String: String] {
        var environment: [String: String] = [:]
        guard var entry = processEnvironmentBlock else { return environment }
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.utf8.firstIndex(of: UInt8(ascii: "=")) {
                let name = String(text[..<equals])
                if environment[name] == nil { environment[name] = String(text[text.index(after: equals)...]) }
            }
            entry += 1
        }
        return environment
    }

    /// Runs one command line in-process. Tests call this with their own context.
    public static func run(_ arguments: [String], context: inout CommandContext) -> Int32 {
        // Standard output is watched so that a failed `--json` command prints one object:
        // the error's, unless the command already printed its own (lint's report).
        let original = context.standardOutput
        let watched = WatchedSink(original)
        context.standardOutput = watched
        defer { context.standardOutput = original }
        do {
            return try dispatch(arguments, context: &context)
        } catch {
            let wantsJSON = context.json || optionArguments(arguments).contains("--json")
            return report(error, context: context, json: wantsJSON && !watched.wroteSomething)
        }
    }

    /// The one place where errors become a message on stderr and an exit code, and with
    /// `--json` also `{"error": {"message": …, "code": …}}` on stdout. Messages quote
    /// registries, URLs, archive names and servers, so their control characters are
    /// escaped here, once for every error.
    static func report(_ error: Error, context: CommandContext, json: Bool = false) -> Int32 {
        let message: String
        let code: Int32
        switch error {
        case let usage as UsageError:
            message = usage.description
            code = 64
        case let failure as CommandFailure:
            message = ErrorText.line(for: failure.underlying)
            code = failure.exitCode
        default:
            message = ErrorText.line(for: error)
            code = 1
        }
        let shown = TerminalText.escapedKeepingLines(URLUserinfo.masked(in: message))
        context.standardError.write(context.diagnostic(prefix: "error: ", color: .red, shown) + "\n")
        if json {
            var members = ((error as? CommandFailure)?.underlying as? JSONReportingError ?? error as? JSONReportingError)?.jsonMembers ?? [:]
            members["error"] = .object(["message": .string(shown), "code": .int(Int(code))])
            context.print(JSONOutput.encode(members))
        }
        return code
    }

    /// The arguments before `--`, where options are options.
    static func optionArguments(_ arguments: some Collection<String>) -> [String] {
        Array(arguments.prefix { $0 != "--" })
    }

    /// `blocks help`'s own help, for `blocks help help` and `blocks help --help`.
    static let helpSpec = CommandSpec(
        name: "help", abstract: "Show help for blocks, or for one of its subcommands.",
        arguments: [ArgumentSpec("subcommand", help: "The subcommand to explain, e.g. search.", optional: true)])

    static func dispatch(_ arguments: [String], context: inout CommandContext) throws -> Int32 {
        let leading = leadingOptions(arguments)
        if leading.version {
            printVersion(arguments, context: context)
            return 0
        }
        let globals = try ArgumentParser.parse(leading.options, spec: CommandSpec(name: "blocks", abstract: "", options: GlobalOptions.specs))
        if let answer = try helpOrVersion(globals: globals, rest: leading.rest, context: &context) {
            show(answer, arguments: arguments, context: context)
            return 0
        }
        // `helpOrVersion` answered when there is no command name.
        let name = leading.rest.first ?? ""
        let commandArguments = Array(leading.rest.dropFirst())
        guard let command = command(named: name) else {
            try applyGlobals(globals, to: &context)
            if let plugin = Plugins.find(name, environment: context.environment) {
                return try Plugins.run(plugin, arguments: commandArguments, context: context)
            }
            let names = commands.map { $0.spec.name } + Plugins.discover(environment: context.environment).map(\.name)
            throw UsageError.unknownCommand(name, suggestion: EditDistance.closest(to: name, in: names))
        }
        var spec = command.spec
        spec.options += GlobalOptions.specs
        var parsed = try ArgumentParser.parse(commandArguments, spec: spec)
        parsed.flags.formUnion(globals.flags)
        for (key, values) in globals.values where parsed.values[key] == nil { parsed.values[key] = values }
        try applyGlobals(parsed, to: &context)
        return try command.run(parsed, context: context)
    }

    /// The global options before the command name (they may come there too), the rest of
    /// the line, and whether `--version` came among them.
    static func leadingOptions(_ arguments: [String]) -> (options: [String], rest: ArraySlice<String>, version: Bool) {
        var rest = arguments[...]
        var leading: [String] = []
        while let first = rest.first, first.hasPrefix("-") {
            if first == "--version" { return (leading, rest, true) }
            leading.append(first)
            rest = rest.dropFirst()
            let takesValue = GlobalOptions.specs.contains { spec in
                !spec.isFlag && (first == "--" + spec.long || spec.short.map { first == "-\($0)" } == true)
            }
            if takesValue, let value = rest.first {
                leading.append(value)
                rest = rest.dropFirst()
            }
        }
        return (leading, rest, false)
    }

    /// What a line that asks for help or the version shows instead of running a command.
    enum Answer {
        /// `blocks`, `blocks help`, `blocks --help`: the commands and plugins.
        case rootHelp
        /// One command's help (or `help`'s own).
        case help(CommandSpec)
        case version
    }

    /// The one place `--help`, `-h`, `help NAME` and `--version` after the command are
    /// decided; nil: run the command (or a plugin). Global options apply first where the
    /// help shown depends on them (`-C`, color).
    static func helpOrVersion(globals: ParsedArguments, rest: ArraySlice<String>, context: inout CommandContext) throws -> Answer? {
        guard let name = rest.first, name != "help" || rest.count > 1 else {
            try applyGlobals(globals, to: &context)
            return .rootHelp
        }
        if globals.flag(GlobalOptions.helpOption) && name != "help" {
            try applyGlobals(globals, to: &context)
            if let command = command(named: name) { return .help(command.spec) }
        }
        let commandArguments = rest.dropFirst()
        if name == "help" {
            let target = commandArguments[commandArguments.startIndex]
            if target == "help" || target == "--help" || target == "-h" { return .help(helpSpec) }
            guard let command = command(named: target) else {
                throw UsageError.unknownCommand(target, suggestion: EditDistance.closest(to: target, in: commands.map { $0.spec.name }))
            }
            return .help(command.spec)
        }
        // `--help` and `--version` are global options, which may follow the command too.
        guard let command = command(named: name) else { return nil }
        let options = optionArguments(commandArguments)
        if options.contains("--help") || options.contains("-h") { return .help(command.spec) }
        if options.contains("--version") { return .version }
        return nil
    }

    static func show(_ answer: Answer, arguments: [String], context: CommandContext) {
        switch answer {
        case .rootHelp:
            context.print(
                HelpFormatter.rootHelp(
                    commands: commands.map { $0.spec }, plugins: Plugins.discover(environment: context.environment), width: context.helpWidth))
        case .help(let spec):
            context.print(HelpFormatter.help(for: spec, width: context.helpWidth))
        case .version:
            printVersion(arguments, context: context)
        }
    }

    static func command(named name: String) -> (any Command.Type)? {
        commands.first { $0.spec.name == name }
    }

    /// `blocks VERSION`, or with `--json` anywhere among the options `{"version": "…"}`.
    static func printVersion(_ arguments: [String], context: CommandContext) {
        if optionArguments(arguments).contains("--json") {
            context.print(JSONOutput.encode(["version": .string(version)]))
        } else {
            context.print("blocks \(version)")
        }
    }

    static func applyGlobals(_ parsed: ParsedArguments, to context: inout CommandContext) throws {
        if let directory = parsed.value(GlobalOptions.directoryOption) {
            let url = context.resolve(directory)
            guard PathKind(url.path) == .folder else {
                throw UsageError.invalidValue(option: "-C", value: directory, expected: "an existing folder")
            }
            context.workingDirectory = url
        }
        context.registry = parsed.value(GlobalOptions.registryOption) ?? context.environment["BLOCKS_REGISTRY"].flatMap { $0.isEmpty ? nil : $0 }
        context.offline = parsed.flag(GlobalOptions.offlineOption) || context.offline
        context.allowExpired = parsed.flag(GlobalOptions.allowExpiredOption) || context.allowExpired
        let keys = parsed.allValues(GlobalOptions.keyOption)
        if !keys.isEmpty { context.pinnedKeys = try keys.map { text throws(SignatureError) in try MinisignPublicKey(text: text).pinned(by: .option) } }
        context.json = parsed.flag(GlobalOptions.jsonOption) || context.json
        context.quiet = parsed.flag(GlobalOptions.quietOption) || context.quiet
        context.color = Style.shouldColor(
            isTerminal: context.standardOutput.isTerminal, environment: context.environment,
            noColorFlag: parsed.flag(GlobalOptions.noColorOption))
        context.errorColor = Style.shouldColor(
            isTerminal: context.standardError.isTerminal, environment: context.environment,
            noColorFlag: parsed.flag(GlobalOptions.noColorOption))
    }
}

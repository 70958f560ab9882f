/// Everything a command needs from the outside world, injected so tests can run
/// commands in-process with their own streams, environment, folder and transport.
public struct CommandContext: Sendable {
    public var standardOutput: TextSink
    public var standardError: TextSink
    public var environment: [String: String]
    /// The folder `-C` chose, or the process's working folder.
    public var workingDirectory: URL {
        didSet { projectSlot = ProjectSlot() }
    }
    /// The project, found the first time a command asks (`project()`), once per command.
    private var projectSlot = ProjectSlot()
    public var transport: HTTPTransport
    /// True when a person can answer questions on standard input.
    public var isInteractive: Bool
    /// Reads one line of the user's answer; nil at end of input.
    public var readLine: @Sendable () -> String?

    // Global options.
    public var registry: String?
    /// `--key`: public keys pinning the registry this command opens by location.
    public var pinnedKeys: [MinisignPublicKey] = []
    /// `--allow-expired`.
    public var allowExpired = false
    public var offline = false
    public var json = false
    public var quiet = false
    public var color = false
    /// Color on standard error: decided by whether standard error is a terminal, so
    /// `blocks x > out.txt` in a terminal still shows a red `error:`.
    public var errorColor = false
    /// Where `printJSON` hands a command's `--json` object instead of printing it: a front
    /// end that runs commands in-process (MCP) takes the value, not text to parse again.
    var jsonCapture: JSONCapture?

    public init(
        standardOutput: TextSink, standardError: TextSink, environment: [String: String],
        workingDirectory: URL, transport: HTTPTransport, isInteractive: Bool = false,
        readLine: @escaping @Sendable () -> String? = { nil }
    ) {
        self.standardOutput = standardOutput
        self.standardError = standardError
        self.environment = environment
        self.workingDirectory = workingDirectory
        self.transport = transport
        self.isInteractive = isInteractive
        self.readLine = readLine
    }

    /// The style for standard output: color only on a terminal and never with NO_COLOR.
    public var style: Style { Style(enabled: color) }
    public var errorStyle: Style { Style(enabled: errorColor) }

    /// A line on standard output. A URL's password never shows (`URLUserinfo.masked`).
    public func print(_ line: String = "") { standardOutput.write(URLUserinfo.masked(in: line) + "\n") }

    /// A command's one `--json` object: printed as `JSONOutput` writes it, or handed to
    /// `jsonCapture`. Either way a URL's password never shows: the handed value has every
    /// string masked as `print` masks its line.
    public func printJSON(_ object: [String: JSONValue]) {
        guard let jsonCapture else { return print(JSONOutput.encode(object)) }
        jsonCapture.hand(Self.masked(object))
    }

    /// `printJSON` of `members` and one more, `key`, an array whose elements `produce`
    /// hands over one at a time. They are printed as they come, in `printJSON`'s bytes, so
    /// `list --json` of 100,000 blocks holds a block's JSON at a time rather than all of
    /// them. A capture is handed the whole object.
    func printJSON(_ members: [String: JSONValue], array key: String, produce: ((JSONValue) -> Void) throws -> Void) rethrows {
        if jsonCapture != nil {
            var elements: [JSONValue] = []
            try produce { elements.append($0) }
            return printJSON(members.merging([key: .array(elements)]) { _, array in array })
        }
        var printer = JSONArrayPrinter(members, array: key, to: standardOutput)
        try produce { printer.add(StableJSONWriter.ArrayParts.element($0)) }
        printer.finish()
    }

    /// Where a command keeps the elements of a `--json` array that are made out of order:
    /// as the bytes `printJSON(_:array:placed:)` prints, or as values for a capture.
    func placedJSONElements() -> PlacedJSONElements {
        PlacedJSONElements(keepingValues: jsonCapture != nil)
    }

    /// `printJSON` of `members` and one more, `key`, an array of `elements` in the order
    /// of their places.
    func printJSON(_ members: [String: JSONValue], array key: String, placed elements: PlacedJSONElements) {
        if jsonCapture != nil {
            return printJSON(members.merging([key: .array(elements.values.map { $0 ?? .null })]) { _, array in array })
        }
        var printer = JSONArrayPrinter(members, array: key, to: standardOutput)
        for element in elements.encoded { printer.add(element ?? [UInt8]("    null".utf8)) }
        printer.finish()
    }

    private static func masked(_ object: [String: JSONValue]) -> [String: JSONValue] {
        func masked(_ value: JSONValue) -> JSONValue {
            switch value {
            case .string(let text): return .string(URLUserinfo.masked(in: text))
            case .array(let elements): return .array(elements.map(masked))
            case .object(let members): return .object(Self.masked(members))
            case .int, .double, .bool, .null: return value
            }
        }
        var result: [String: JSONValue] = [:]
        for (key, value) in object { result[URLUserinfo.masked(in: key)] = masked(value) }
        return result
    }
    /// A diagnostic line on standard error, unless `--quiet`. Notes and warnings often
    /// quote a registry, a URL or a server, so control characters in them are escaped.
    public func note(_ line: String) {
        if !quiet { standardError.write(diagnostic(prefix: "", TerminalText.escapedKeepingLines(URLUserinfo.masked(in: line))) + "\n") }
    }
    public func warn(_ line: String) {
        standardError.write(
            diagnostic(prefix: "warning: ", color: .yellow, TerminalText.escapedKeepingLines(URLUserinfo.masked(in: line))) + "\n")
    }

    /// A message for standard error after `prefix` (in `color`). On a terminal each of its
    /// lines is wrapped between words to the terminal's width, continuation lines under
    /// the text: a path or a command is never cut in half. Piped, it stays one line per
    /// line, for logs and scripts.
    func diagnostic(prefix: String, color: Style.Color? = nil, _ message: String) -> String {
        let shownPrefix = color.map { errorStyle.apply($0, prefix) } ?? prefix
        guard standardError.isTerminal else { return shownPrefix + message }
        let width = TerminalWidth.columns(environment: environment) ?? standardError.columns ?? TerminalWidth.fallback
        let lines = message.split(separator: "\n", omittingEmptySubsequences: false).enumerated().map { index, line in
            let leading = String(line.prefix { $0 == " " })
            let first = index == 0 ? String(repeating: " ", count: prefix.count) + leading : leading
            let indent = index == 0 ? prefix.count : leading.count + 2
            return TextWrap.hanging(String(line.dropFirst(leading.count)), firstPrefix: first, indent: indent, width: width)
        }
        return shownPrefix + lines.joined(separator: "\n").dropFirst(prefix.count)
    }

    /// The width tables are fitted to: `COLUMNS`, else the terminal's own, else 80 on a
    /// terminal. Nil when standard output is not a terminal and `COLUMNS` is unset: piped
    /// tables keep one line per row, for scripts.
    public var tableWidth: Int? {
        if let columns = TerminalWidth.columns(environment: environment) { return columns }
        guard standardOutput.isTerminal else { return nil }
        return standardOutput.columns ?? TerminalWidth.fallback
    }

    /// The width help is wrapped to: as tables, and 80 when piped too.
    public var helpWidth: Int { tableWidth ?? TerminalWidth.fallback }

    /// A path given on the command line, resolved against `-C`.
    public func resolve(_ path: String) -> URL { paths.resolve(path) }

    /// How typed paths resolve: against `-C` and `$HOME`.
    public var paths: PathContext { PathContext(workingDirectory: workingDirectory, homeDirectory: homeDirectory) }

    /// The library's notices, on standard error as `note:` lines and warnings.
    public var notices: NoticeHandler {
        { [self] notice in
            switch notice {
            case .note(let line): note(line)
            case .warning(let line): warn(line)
            }
        }
    }

    /// What the registry code needs from this command: its announcing transport, the
    /// cache, `--offline`, its paths and its notices.
    public var registryAccess: RegistryAccess {
        var access = RegistryAccess(
            transport: announcingTransport.sendingDefaultToken(to: defaultTokenOrigin), cacheDirectory: cacheDirectory, offline: offline, paths: paths, notices: notices, environment: environment)
        access.pinnedKeys = pinnedKeys
        access.allowExpired = allowExpired
        return access
    }

    /// The one origin `BLOCKS_TOKEN` goes to: the default registry's (`--registry` or
    /// `BLOCKS_REGISTRY`, else blocks.json's), when that is an http(s) URL; else none.
    /// A lock entry, an index, a redirect or an archive URL naming another origin never
    /// gets the token.
    var defaultTokenOrigin: HTTPOrigin? {
        // Without a token there is nothing to bind, and no need to read blocks.json.
        guard let token = environment["BLOCKS_TOKEN"], !token.trimmingWhitespace().isEmpty else { return nil }
        let option = registry.flatMap { $0.hasPrefix("@") ? nil : $0 }
        guard let location = try? project().registryLocation(option: option),
            RedirectPolicy.isHTTP(location)
        else { return nil }
        return HTTPOrigin(location)
    }

    /// The project this command works in, found once (`Project.locate`) and kept for the
    /// rest of the command; a new working folder finds it again.
    public func project() -> Project {
        projectSlot.project { Project.locate(from: workingDirectory) }
    }

    /// The registry this command reads (`Project.registrySource`).
    public func registrySource() throws -> RegistrySource {
        try project().registrySource(option: registry, access: registryAccess)
    }

    /// Every registry this command reads: the default one and blocks.json's namespaced
    /// ones, or the one `--registry @namespace` names (`Project.registries`). A
    /// namespaced registry whose headers need an unset variable is left out with a warning
    /// (`RegistrySet.skippingUnreadable`): the commands that read every registry do not need it.
    public func registrySet() throws -> RegistrySet {
        try project().registries(option: registry, access: registryAccess).skippingUnreadable(warn: warn)
    }

    /// The cache folder: `$XDG_CACHE_HOME/blocks`, else `~/.cache/blocks`.
    public var cacheDirectory: URL {
        if let xdg = environment["XDG_CACHE_HOME"], !xdg.isEmpty {
            return URL(fileURLWithPath: xdg).appendingPathComponent("blocks")
        }
        return URL(fileURLWithPath: homeDirectory).appendingPathComponent(".cache/blocks")
    }

    /// `$HOME`, else the account's home folder.
    var homeDirectory: String {
        environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? FileManager.default.homeDirectoryForCurrentUser.path
    }
}

extension CommandContext {
    /// The transport, telling a person at the terminal what a transfer is waiting for
    /// (`CurlTransport.announcing`) on standard error. Scripts, pipes and `--quiet` get
    /// the plain transport: the same waits, and the error at the end says what happened.
    ///
    /// On the process's own terminal (standard error is a `StatusLine`), a request that has
    /// waited half a second also shows a spinner naming the server and the file
    /// (`SpinningTransport`), cleared before any note.
    var announcingTransport: HTTPTransport {
        guard !quiet, standardError.isTerminal else { return transport }
        let sink = standardError
        let announcing = (transport as? CurlTransport).map { curl -> HTTPTransport in curl.announcing { line in sink.write("note: \(line)\n") } } ?? transport
        guard let line = standardError as? StatusLine else { return announcing }
        return SpinningTransport(announcing, sink: line)
    }

    /// Handles Ctrl-C and SIGTERM for the rest of this command (`Interruption.protect`):
    /// the progress line is cleared, `interrupted: MESSAGE` goes to standard error, the
    /// registered lock and temporary files are removed, and the process exits with 130
    /// (143 for SIGTERM). Only the real process does it (standard error is a
    /// `StatusLine` only there); commands run in-process by tests or `blocks mcp` do not.
    func protectFromInterruption(_ message: String) {
        guard let line = standardError as? StatusLine else { return }
        Interruption.protect(
            message: message, write: { text in line.write(TerminalText.escapedKeepingLines(URLUserinfo.masked(in: text)) + "\n") },
            prepare: [{ line.abandon() }])
    }
}

extension CommandContext {
    /// Asks on the terminal when a person can answer and the command allows it (`--yes`
    /// does not), else nil, so the library fails with the choices instead of asking.
    func chooser(allowPrompt: Bool) -> TargetFolder.Chooser? {
        guard allowPrompt, isInteractive else { return nil }
        return { question, options in Prompt.choose(question, options: options, context: self) }
    }
}

/// Where a command keeps its `Project` once found: shared by the copies of one context,
/// replaced when the working folder changes.
final class ProjectSlot: @unchecked Sendable {
    private let lock = Lock()
    private var found: Project?

    func project(_ locate: () -> Project) -> Project {
        lock.withLock {
            if let found { return found }
            let project = locate()
            found = project
            return project
        }
    }
}

/// The `--json` object of a command run in-process, handed over by
/// `CommandContext.printJSON` (MCP's catalog tools read it without printing and parsing).
final class JSONCapture: @unchecked Sendable {
    private let lock = Lock()
    private var captured: [String: JSONValue]?

    func hand(_ object: [String: JSONValue]) {
        lock.lock()
        captured = object
        lock.unlock()
    }

    /// The object handed over, if any.
    var object: [String: JSONValue]? {
        lock.lock()
        defer { lock.unlock() }
        return captured
    }
}

/// Prints an object of `members` and one more, an array, whose elements
/// (`StableJSONWriter.ArrayParts.element`) are added in order and written a few dozen
/// kilobytes at a time. A URL's password never shows, as in `CommandContext.print`.
private struct JSONArrayPrinter {
    private let parts: StableJSONWriter.ArrayParts
    private let output: TextSink
    private var pending: [UInt8]
    private var isFirst = true

    init(_ members: [String: JSONValue], array key: String, to output: TextSink) {
        parts = StableJSONWriter.ArrayParts(members, array: key)
        pending = parts.head
        self.output = output
    }

    mutating func add(_ element: [UInt8]) {
        parts.append(encoded: element, first: isFirst, to: &pending)
        isFirst = false
        if pending.count >= 1 << 16 { flush() }
    }

    mutating func finish() {
        pending += parts.tail
        pending.append(UInt8(ascii: "\n"))
        flush()
    }

    private mutating func flush() {
        output.write(URLUserinfo.masked(in: String(decoding: pending, as: UTF8.self)))
        pending.removeAll(keepingCapacity: true)
    }
}

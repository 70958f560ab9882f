/// A plugin the user installed or named: an executable found as `blocks-plugin-NAME` on
/// PATH, or a command declared in blocks.json's `"plugins"`. A registry can never supply
/// one: nothing a registry serves is ever run.
///
/// Each run is one request and one answer (`PluginProtocol`), with the project as the
/// working folder, bounded in time and output, and an environment without the tool's
/// secrets: `BLOCKS_TOKEN` and every variable blocks.json's headers name stay out unless
/// the declaration passes one explicitly (`"environment": ["NAME"]`).
public struct ExternalPlugin: Sendable, Equatable {
    public var name: String
    /// The executable and its first arguments.
    public var command: [String]
    /// Variables passed through from the tool's environment, by name.
    public var passedEnvironment: [String]
    /// Where it was found, for `blocks plugin list`.
    public var origin: String
    /// How long one run may take, in seconds.
    public var timeout: Double = 60
    /// blocks.json's `"options"` for it, under those a step of a chain gives.
    public var defaultOptions: [String: JSONValue] = [:]

    /// How much one run may print.
    public static let outputLimit = 64 * 1_048_576
    public static let errorLimit = 16_384

    /// The variables every plugin gets: enough to find programs (the same toolchain as the
    /// user's shell on macOS) and speak UTF-8.
    static let baseEnvironment = ["PATH", "HOME", "LANG", "LC_ALL", "LC_CTYPE", "TMPDIR"] + ProgramPaths.toolchainVariables

    public init(name: String, command: [String], passedEnvironment: [String] = [], origin: String) {
        self.name = name
        self.command = command
        self.passedEnvironment = passedEnvironment
        self.origin = origin
    }

    /// Sends `request` and returns the answer's members, after the protocol's checks.
    func ask(_ request: JSONValue, environment: [String: String], workingDirectory: URL) throws(PluginError) -> [String: JSONValue] {
        guard let executable = command.first else { throw .cannotStart(plugin: name, reason: "its command is empty") }
        var childEnvironment: [String: String] = [:]
        for key in Self.baseEnvironment + passedEnvironment { childEnvironment[key] = environment[key] }
        let exchange: ChildProcess.Exchange
        do {
            exchange = try ChildProcess.exchange(
                Self.resolve(executable, path: environment["PATH"]), arguments: Array(command.dropFirst()), input: StableJSONWriter.line(request),
                environment: childEnvironment, workingDirectory: workingDirectory.path,
                timeout: timeout, outputLimit: Self.outputLimit, errorLimit: Self.errorLimit)
        } catch {
            throw .cannotStart(plugin: name, reason: "\(error)")
        }
        switch exchange.stopped {
        case .timedOut?: throw .timedOut(plugin: name, seconds: Int(timeout.rounded()))
        case .outputTooLarge?: throw .outputTooLarge(plugin: name, limit: Self.outputLimit)
        case nil: break
        }
        // Its words are not ours: shown escaped, and cut to a few lines.
        let errors = TerminalText.escaped(String(decoding: exchange.errors, as: UTF8.self).trimmingWhitespace())
        guard exchange.exitCode == 0 else { throw .failed(plugin: name, exitCode: exchange.exitCode, errors: String(errors.prefix(500))) }
        return try PluginProtocol.members(of: exchange.output, plugin: name)
    }

    /// A bare command name looked up on PATH, as a shell would.
    static func resolve(_ executable: String, path: String?) -> String {
        guard !executable.contains("/") else { return executable }
        for folder in (path ?? "").split(separator: ":") {
            let candidate = folder + "/" + executable
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return executable
    }
}

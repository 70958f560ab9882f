/// `blocks mcp`: serves the catalog and the project to coding assistants over the Model
/// Context Protocol on standard input and output (see `MCPServer`). `blocks mcp config
/// --client NAME` prints the entry that registers it with a client, and `--write` merges
/// that entry into the client's config file.
public enum MCPCommand: Command {
    public static let spec = CommandSpec(
        name: "mcp",
        abstract: "Serve the blocks and this project to coding assistants over the Model Context Protocol.",
        discussion: """
            Without an action, speaks MCP on standard input and output (protocol 2026-07-28, and
            2025-11-25 and earlier through initialize) until the input ends; logs go to standard
            error. 'blocks mcp config --client NAME' prints the entry that registers the server
            with claude-code, claude-desktop, cursor or vscode; --write merges it into that
            client's config file, keeping everything else in it.
            """,
        arguments: [ArgumentSpec("action", help: "Leave it out to serve over standard input and output, or 'config' to print a client's entry.", optional: true, completion: .choices(["config"]))],
        options: [clientOption, writeOption],
        examples: [
            .init("blocks mcp config --client cursor --write", "Register the server with Cursor, keeping the rest of its config."),
            .init("blocks mcp", "Serve; a client starts this itself, so you rarely type it."),
        ])

    static let clientOption = OptionSpec(
        "client", value: "name", help: "With config: claude-code, claude-desktop, cursor or vscode.",
        completion: .choices(["claude-code", "claude-desktop", "cursor", "vscode"]))
    static let writeOption = OptionSpec("write", help: "With config: merge the entry into the client's config file.")

    public static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> Int32 {
        switch arguments.positionals.first {
        case nil:
            if arguments.value(clientOption) != nil { throw UsageError.inapplicableOption("--client", because: "it belongs to 'blocks mcp config'") }
            if arguments.flag(writeOption) { throw UsageError.inapplicableOption("--write", because: "it belongs to 'blocks mcp config'") }
            serve(context: context)
            return 0
        case "config":
            guard arguments.positionals.count == 1 else { throw UsageError.unexpectedArgument(arguments.positionals[1]) }
            return try config(arguments, context: context)
        case let other?:
            throw UsageError.invalidValue(option: "<action>", value: other, expected: "nothing (to serve) or 'config'")
        }
    }

    /// Serves until the end of input. In a real process the protocol gets its own copy of
    /// standard output and descriptor 1 becomes standard error, so nothing but protocol
    /// messages can reach the client's end, whatever else in the process writes there.
    static func serve(context: CommandContext) {
        var serverContext = context
        // A person who typed `blocks mcp` would otherwise wait in silence: a client starts
        // it with a pipe, never with a terminal. On standard error, so a client never reads it.
        // `BlocksCLI.run` wraps standard output to watch it; the process's own is underneath.
        // (Compared without unwrapping, a real process took the in-process path below, whose
        // `readLine` turns bytes that are not UTF-8 into U+FFFD instead of a parse error.)
        let processOutput = (context.standardOutput as? WatchedSink)?.watched ?? context.standardOutput
        let inProcess = processOutput !== FileDescriptorSink.standardOutput
        if inProcess ? context.isInteractive : isatty(STDIN_FILENO) == 1 {
            // Wrapped between words to the terminal, as every message (`CommandContext.note`).
            context.note(terminalNotice)
        }
        serverContext.isInteractive = false
        guard !inProcess else {
            // In-process (tests): the context's streams and its lines of input.
            let output = context.standardOutput
            let server = MCPServer(context: serverContext) { output.write(String(decoding: $0, as: UTF8.self)) }
            var input: [UInt8] = []
            var offset = 0
            server.serve { buffer in
                while offset == input.count {
                    guard let line = context.readLine() else { return 0 }
                    input = Array((line + "\n").utf8)
                    offset = 0
                }
                let count = min(buffer.count, input.count - offset)
                buffer.copyBytes(from: input[offset..<offset + count])
                offset += count
                return count
            }
            return
        }
        signal(SIGPIPE, SIG_IGN)
        let protocolOutput = dup(STDOUT_FILENO)
        dup2(STDERR_FILENO, STDOUT_FILENO)
        let server = MCPServer(context: serverContext) { bytes in
            _ = bytes.withUnsafeBytes { FileDescriptorIO.writeAll(protocolOutput, $0) }
        }
        server.serve { buffer in
            while true {
                let count = read(STDIN_FILENO, buffer.baseAddress, buffer.count)
                if count < 0 && errno == EINTR { continue }
                return max(count, 0)
            }
        }
        close(protocolOutput)
    }

    /// What `blocks mcp` says when started from a terminal.
    static let terminalNotice =
        "blocks mcp speaks the Model Context Protocol on standard input and output: a coding assistant starts it and talks to it;"
        + " typing here does nothing useful.\nTo register it with a client, run 'blocks mcp config --client NAME'"
        + " (\(MCPClientConfig.all.map(\.name).joined(separator: ", "))), and add --write to save the entry in the client's config file."
        + " Press Ctrl-D to quit.\n"

    static func config(_ arguments: ParsedArguments, context: CommandContext) throws -> Int32 {
        guard let name = arguments.value(clientOption) else {
            throw UsageError.missingOption(
                "--client <name>", because: "the entry's format depends on the client: " + MCPClientConfig.all.map(\.name).joined(separator: ", "))
        }
        let client = try MCPClientConfig.named(name)
        let command = MCPClientConfig.executablePath(fallback: CommandLine.arguments.first ?? "blocks")
        let root = context.project().root
        let file = client.location(projectRoot: root, home: context.homeDirectory)
        if arguments.flag(writeOption) {
            try client.write(command: command, to: file)
            if context.json {
                context.print(JSONOutput.encode(["client": .string(client.name), "file": .string(file.path), "written": .bool(true)]))
            } else {
                context.print("Registered blocks with \(client.name) in \(file.path)")
            }
            return 0
        }
        if context.json {
            context.print(JSONOutput.encode(["client": .string(client.name), "file": .string(file.path), "entry": client.document(command: command)]))
        } else {
            context.note("Add this to \(file.path) (or run 'blocks mcp config --client \(client.name) --write'):")
            context.standardOutput.write(String(decoding: StableJSON.data(client.document(command: command)), as: UTF8.self))
        }
        return 0
    }
}

/// One tool the server offers: what `tools/list` says of it and the code `tools/call` runs.
/// The tools are the command line's commands, called in-process with `--json` semantics, so
/// a tool gives exactly what `blocks … --json` gives and keeps every guarantee it keeps.
struct MCPTool: Sendable {
    var name: String
    var title: String
    /// One line, written for a model choosing a tool.
    var description: String
    var inputSchema: JSONValue
    var outputSchema: JSONValue
    var readOnly: Bool
    /// For a tool that writes: whether it may replace what is there (only with consent).
    var destructive: Bool = false
    var idempotent: Bool = true
    var run: @Sendable (MCPToolCall) throws -> MCPToolResult

    /// The `Tool` object of `tools/list`.
    var listing: JSONValue {
        var annotations: [String: JSONValue] = [
            "title": .string(title), "readOnlyHint": .bool(readOnly), "openWorldHint": .bool(false),
        ]
        if !readOnly {
            annotations["destructiveHint"] = .bool(destructive)
            annotations["idempotentHint"] = .bool(idempotent)
        }
        return .object([
            "name": .string(name), "title": .string(title), "description": .string(description),
            "inputSchema": inputSchema, "outputSchema": outputSchema, "annotations": .object(annotations),
        ])
    }
}

/// What a tool call returns: the structured value, and whether it is a tool error the
/// model should read and act on (`isError`), such as a conflict or an unknown block.
struct MCPToolResult: Sendable, Equatable {
    var structured: [String: JSONValue]
    var text: String
    var isError = false

    /// A successful result: the structured value, and as its text the same JSON, as the
    /// specification asks of a tool with an output schema.
    static func success(_ structured: [String: JSONValue]) -> MCPToolResult {
        MCPToolResult(structured: structured, text: String(decoding: StableJSONWriter.line(.object(structured)), as: UTF8.self))
    }

    /// A tool error: the message the command line would print, and what else helps.
    static func failure(_ message: String, details: [String: JSONValue] = [:]) -> MCPToolResult {
        var structured = details
        structured["error"] = .object(["message": .string(message)])
        return MCPToolResult(structured: structured, text: "Error: " + message, isError: true)
    }

    /// The `CallToolResult` object.
    func callResult() -> [String: JSONValue] {
        [
            "content": .array([.object(["type": .string("text"), "text": .string(text)])]),
            "structuredContent": .object(structured),
            "isError": .bool(isError),
        ]
    }
}

/// Why a tool refused before doing anything: a message for the model, as a tool error.
struct MCPToolError: Error, Equatable, Sendable, CustomStringConvertible {
    var message: String
    var details: [String: JSONValue] = [:]
    var description: String { message }
}

/// One `tools/call`: its checked arguments, the server's context for commands, and the
/// call's cancellation.
struct MCPToolCall: @unchecked Sendable {
    var arguments: [String: JSONValue]
    var context: CommandContext
    var cancellation: MCPCancellation

    func string(_ name: String) -> String? { arguments[name]?.string }
    func flag(_ name: String) -> Bool { arguments[name] == .bool(true) }
    func strings(_ name: String) -> [String] { arguments[name]?.strings ?? [] }

    func integer(_ name: String) -> Int? {
        switch arguments[name] {
        case .int(let number)?: return number
        case .double(let number)?: return Int(exactly: number)
        default: return nil
        }
    }

    /// The context a command runs in: output captured, no terminal, no questions, the
    /// call's cancellable transport, and the registry the call names (else the server's).
    func commandContext(workingDirectory: URL? = nil, registry: String? = nil) -> (CommandContext, BufferSink) {
        let captured = BufferSink()
        var command = context
        command.standardOutput = captured
        command.json = true
        command.color = false
        command.isInteractive = false
        command.readLine = { nil }
        command.transport = CancellableTransport(inner: context.transport, cancellation: cancellation)
        // Set even when unchanged: each call finds the project afresh, as a command does.
        command.workingDirectory = workingDirectory ?? context.workingDirectory
        if let registry { command.registry = registry }
        return (command, captured)
    }

    /// Runs a command's `run` with `--json` and returns the object it would print, handed
    /// over as a value (`CommandContext.printJSON`), not printed and parsed again.
    func runJSON(_ command: any Command.Type, _ parsed: ParsedArguments, workingDirectory: URL? = nil) throws -> [String: JSONValue] {
        var (context, _) = commandContext(workingDirectory: workingDirectory, registry: string("registry"))
        let capture = JSONCapture()
        context.jsonCapture = capture
        _ = try command.run(parsed, context: context)
        try cancellation.check()
        guard let object = capture.object else { throw MCPToolError(message: "blocks \(command.spec.name) printed no JSON object") }
        return object
    }
}

/// Every tool, in the order `tools/list` gives them (always the same, so clients can cache).
enum MCPTools {
    static let all: [MCPTool] = MCPCatalogTools.all + MCPProjectTools.all

    static func named(_ name: String) -> MCPTool? { all.first { $0.name == name } }

    /// Runs a tool: checks the arguments against its schema (a mismatch is a protocol
    /// error, -32602), then turns whatever the command throws into a tool error, with the
    /// message the command line prints for it.
    static func call(_ name: String, arguments: JSONValue?, context: CommandContext, cancellation: MCPCancellation) throws(JSONRPCError) -> MCPToolResult {
        guard let tool = named(name) else { throw JSONRPCError.invalidParams("unknown tool '\(name)'") }
        let given = arguments ?? .object([:])
        if let problem = MCPSchema.problem(with: given, against: tool.inputSchema) {
            throw JSONRPCError.invalidParams("\(problem) (tool \(name))")
        }
        let call = MCPToolCall(arguments: given.object ?? [:], context: context, cancellation: cancellation)
        do {
            return try tool.run(call)
        } catch let error as MCPToolError {
            return .failure(error.message, details: error.details)
        } catch {
            var details = (error as? JSONReportingError)?.jsonMembers ?? [:]
            details.removeValue(forKey: "error")
            return .failure(TerminalText.escapedKeepingLines(ErrorText.line(for: error)), details: details)
        }
    }
}

import Dispatch

/// The Model Context Protocol server of `blocks mcp`: one JSON-RPC message per line in,
/// one per line out, in both eras of the protocol.
///
/// - **2026-07-28** (modern, stateless): every request carries its protocol version and
///   client capabilities in `params._meta`; `server/discover` says what the server speaks;
///   every result has `resultType` and the server's identity in `_meta`.
/// - **2025-11-25 and earlier** (legacy): `initialize` negotiates a version for the rest of
///   the process, `notifications/initialized` follows, and `ping` answers.
///
/// The reader answers everything but `tools/call` at once. Calls run one at a time on a
/// worker, in the order they came, so the commands they run never overlap; meanwhile the
/// reader keeps reading, so `notifications/cancelled` reaches a running call: the call
/// stops waiting for the network and before its first write, and is never answered.
/// At the end of input the server answers the calls it accepted and returns.
public final class MCPServer: @unchecked Sendable {
    public static let modernVersions = ["2026-07-28"]
    /// Newest first: `initialize` offers the first when it does not know the client's.
    public static let legacyVersions = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"]
    public static var supportedVersions: [String] { modernVersions + legacyVersions }
    /// The longest line read; a longer one is answered with an error and dropped.
    public static let lineLimit = 4 << 20
    /// How long a client may cache `tools/list` and `server/discover`: the tools are fixed
    /// for the life of the binary.
    static let cacheMilliseconds = 3_600_000

    static let versionKey = "io.modelcontextprotocol/protocolVersion"
    static let capabilitiesKey = "io.modelcontextprotocol/clientCapabilities"
    static let serverInfoKey = "io.modelcontextprotocol/serverInfo"

    static let serverInfo: JSONValue = .object([
        "name": .string("blocks"), "title": .string("blocks: SwiftUI blocks"), "version": .string(BlocksCLI.version),
    ])
    static let capabilities: JSONValue = .object(["tools": .object(["listChanged": .bool(false)])])
    static let instructions = """
        Find SwiftUI components with search_blocks (English or Spanish), read one with get_block, \
        and see a project's blocks with project_status. Before add_blocks, show the user plan_add's \
        diffs; never pass overwrite or settle without the user's consent. projectPath is the absolute \
        path of the user's app project.
        """

    private let context: CommandContext
    private let send: @Sendable ([UInt8]) -> Void
    private let lock = Lock()
    /// Held while a message is written, apart from `lock`, so a client slow to read never
    /// holds up the reader noting a cancel.
    private let outputLock = Lock()
    /// The version `initialize` settled on; nil until a legacy client initializes.
    private var legacyVersion: String?
    /// The cancellation of every accepted call not yet answered, by its id's JSON text.
    private var calls: [String: MCPCancellation] = [:]
    private let worker = DispatchQueue(label: "blocks.mcp.tools")
    private let pending = DispatchGroup()

    /// - Parameters:
    ///   - context: what every tool's command starts from (environment, folder, registry,
    ///     transport); its standard error takes the server's log.
    ///   - send: writes one message; the server adds the newline and never writes a
    ///     message in two parts.
    public init(context: CommandContext, send: @escaping @Sendable ([UInt8]) -> Void) {
        self.context = context
        self.send = send
    }

    /// Reads until `read` returns 0 (end of input) or fails, then waits for the calls
    /// under way. `read` fills the buffer and returns how many bytes it put there.
    public func serve(read: (UnsafeMutableRawBufferPointer) -> Int) {
        var splitter = LineSplitter(limit: Self.lineLimit)
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read($0) }
            guard count > 0 else { break }
            for piece in splitter.feed(buffer[..<count]) { handle(piece) }
        }
        for piece in splitter.finish() { handle(piece) }
        pending.wait()
    }

    func handle(_ piece: LineSplitter.Piece) {
        switch piece {
        case .tooLong(let bytes):
            log("dropped a message of \(bytes) bytes, over the limit of \(Self.lineLimit)")
            reply(nil, error: .invalidRequest("the message is \(bytes) bytes, more than the \(Self.lineLimit) this server reads"))
        case .line(let line):
            guard line.contains(where: { !($0 == 0x20 || $0 == 0x09) }) else { return }
            handle(JSONRPCMessage.parse(line))
        }
    }

    func handle(_ message: JSONRPCMessage) {
        switch message {
        case .invalid(let id, let error):
            log(error.message)
            reply(id, error: error)
        case .response:
            log("ignored a response: this server sends no requests")
        case .notification(let method, let params):
            if method == "notifications/cancelled", let id = params["requestId"] {
                let cancellation = lock.withLock { calls[Self.key(id)] }
                cancellation?.cancel()
            }
        case .request(let id, let method, let params):
            do {
                try respond(id: id, method: method, params: params)
            } catch {
                reply(id, error: error)
            }
        }
    }

    private func respond(id: JSONValue, method: String, params: [String: JSONValue]) throws(JSONRPCError) {
        if method == "initialize" { return reply(id, result: try initialize(params)) }
        let modern = try era(of: method, params: params)
        switch method {
        case "ping" where !modern:
            reply(id, result: [:])
        case "server/discover" where modern:
            reply(
                id,
                result: decorated(
                    [
                        "supportedVersions": .array(Self.supportedVersions.map { .string($0) }),
                        "capabilities": Self.capabilities,
                        "instructions": .string(Self.instructions),
                        "ttlMs": .int(Self.cacheMilliseconds), "cacheScope": .string("public"),
                    ], modern: true))
        case "tools/list":
            var result: [String: JSONValue] = ["tools": .array(MCPTools.all.map(\.listing))]
            if modern {
                result["ttlMs"] = .int(Self.cacheMilliseconds)
                result["cacheScope"] = .string("public")
            }
            reply(id, result: decorated(result, modern: modern))
        case "tools/call":
            guard case .string(let name)? = params["name"] else { throw .invalidParams("tools/call needs \"name\", the tool's name") }
            try accept(id: id, tool: name, arguments: params["arguments"], modern: modern)
        default:
            throw .methodNotFound(method)
        }
    }

    /// The legacy handshake: the client's version when this server speaks it, else the newest.
    private func initialize(_ params: [String: JSONValue]) throws(JSONRPCError) -> [String: JSONValue] {
        guard case .string(let requested)? = params["protocolVersion"] else {
            throw .invalidParams("initialize needs \"protocolVersion\"")
        }
        let version = Self.legacyVersions.contains(requested) ? requested : Self.legacyVersions[0]
        lock.withLock { legacyVersion = version }
        return [
            "protocolVersion": .string(version), "capabilities": Self.capabilities,
            "serverInfo": Self.serverInfo, "instructions": .string(Self.instructions),
        ]
    }

    /// True for a modern request, false for a legacy one; throws for one that is neither:
    /// a modern request missing a required `_meta` member or naming an unsupported
    /// version, or a request with no `_meta` version before `initialize`.
    private func era(of method: String, params: [String: JSONValue]) throws(JSONRPCError) -> Bool {
        let meta = params["_meta"]?.object
        guard meta?[Self.versionKey] != nil || method == "server/discover" else {
            if method == "ping" || lock.withLock({ legacyVersion != nil }) { return false }
            throw .invalidParams(
                "params._meta must carry \"\(Self.versionKey)\" and \"\(Self.capabilitiesKey)\" (protocol 2026-07-28), or the client must send initialize first (2025-11-25 and earlier)"
            )
        }
        guard case .string(let version)? = meta?[Self.versionKey] else {
            throw .invalidParams("params._meta[\"\(Self.versionKey)\"] must be the protocol version, a string")
        }
        guard case .object? = meta?[Self.capabilitiesKey] else {
            throw .invalidParams("params._meta[\"\(Self.capabilitiesKey)\"] must be the client's capabilities, an object")
        }
        guard Self.modernVersions.contains(version) else {
            throw JSONRPCError(
                code: JSONRPCError.unsupportedProtocolVersionCode, message: "Unsupported protocol version",
                data: .object(["supported": .array(Self.supportedVersions.map { .string($0) }), "requested": .string(version)]))
        }
        return true
    }

    /// A modern result carries its type and the server's identity.
    private func decorated(_ result: [String: JSONValue], modern: Bool) -> [String: JSONValue] {
        guard modern else { return result }
        var result = result
        result["resultType"] = .string("complete")
        result["_meta"] = .object([Self.serverInfoKey: Self.serverInfo])
        return result
    }

    /// Queues a tool call behind the ones under way; it is answered unless cancelled.
    private func accept(id: JSONValue, tool: String, arguments: JSONValue?, modern: Bool) throws(JSONRPCError) {
        if let arguments, arguments.object == nil { throw .invalidParams("tools/call \"arguments\" must be an object") }
        let key = Self.key(id)
        let cancellation = MCPCancellation()
        let fresh = lock.withLock { () -> Bool in
            guard calls[key] == nil else { return false }
            calls[key] = cancellation
            return true
        }
        guard fresh else { throw .invalidRequest("request id \(key) is already in use by a call under way") }
        pending.enter()
        worker.async { [self] in
            defer {
                lock.withLock { _ = calls.removeValue(forKey: key) }
                pending.leave()
            }
            guard !cancellation.isCancelled else { return }
            let outcome = Result { () throws(JSONRPCError) in
                try MCPTools.call(tool, arguments: arguments, context: context, cancellation: cancellation)
            }
            // A cancelled request is never answered (the client has stopped listening for it).
            guard !cancellation.isCancelled else {
                log("stopped \(tool) (request \(key)): cancelled")
                return
            }
            switch outcome {
            case .success(let result): reply(id, result: decorated(result.callResult(), modern: modern))
            case .failure(let error): reply(id, error: error)
            }
        }
    }

    private func reply(_ id: JSONValue, result: [String: JSONValue]) {
        emit(JSONRPCMessage.resultLine(id: id, result: result))
    }

    private func reply(_ id: JSONValue?, error: JSONRPCError) {
        emit(JSONRPCMessage.errorLine(id: id, error: error))
    }

    private func emit(_ line: [UInt8]) {
        var message = line
        message.append(UInt8(ascii: "\n"))
        outputLock.withLock { send(message) }
    }

    private func log(_ line: String) {
        context.note("blocks mcp: " + line)
    }

    /// A request id as a dictionary key: its JSON text, so 1 and "1" stay apart.
    static func key(_ id: JSONValue) -> String {
        String(decoding: StableJSONWriter.line(id), as: UTF8.self)
    }
}

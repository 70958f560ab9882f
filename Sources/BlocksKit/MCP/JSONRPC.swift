/// A JSON-RPC error the server answers with: the code, one sentence, and the optional
/// `data` member. MCP's codes are JSON-RPC's five plus the ones its specification
/// reserves (`-32020` to `-32099`); only those below are ever sent.
public struct JSONRPCError: Error, Equatable, Sendable, CustomStringConvertible {
    public var code: Int
    public var message: String
    public var data: JSONValue?

    public init(code: Int, message: String, data: JSONValue? = nil) {
        self.code = code
        self.message = message
        self.data = data
    }

    public var description: String { "\(message) (\(code))" }

    public static let parseErrorCode = -32700
    public static let invalidRequestCode = -32600
    public static let methodNotFoundCode = -32601
    public static let invalidParamsCode = -32602
    public static let internalErrorCode = -32603
    /// MCP 2026-07-28's `UnsupportedProtocolVersionError`.
    public static let unsupportedProtocolVersionCode = -32022

    static func parseError(_ reason: String) -> JSONRPCError {
        JSONRPCError(code: parseErrorCode, message: "Parse error: \(reason)")
    }

    static func invalidRequest(_ reason: String) -> JSONRPCError {
        JSONRPCError(code: invalidRequestCode, message: "Invalid request: \(reason)")
    }

    static func methodNotFound(_ method: String) -> JSONRPCError {
        JSONRPCError(code: methodNotFoundCode, message: "Method not found: \(method)")
    }

    static func invalidParams(_ reason: String) -> JSONRPCError {
        JSONRPCError(code: invalidParamsCode, message: "Invalid params: \(reason)")
    }
}

/// One line read from the client, sorted into what JSON-RPC 2.0 (as MCP restricts it)
/// allows: a request (string or integer id, never null), a notification (no id), or a
/// response to a request of ours, which this server never sends and so ignores.
enum JSONRPCMessage: Equatable {
    case request(id: JSONValue, method: String, params: [String: JSONValue])
    case notification(method: String, params: [String: JSONValue])
    case response
    /// Not a message; `id` is the request's when it could be read, for the error response.
    case invalid(id: JSONValue?, error: JSONRPCError)

    /// Reads one line (without its newline). Never throws: every fault is an `.invalid`.
    static func parse(_ line: Data) -> JSONRPCMessage {
        let value: JSONValue
        do {
            value = try JSONReader.parse(line)
        } catch {
            return .invalid(id: nil, error: .parseError("\(error.reason) at byte \(error.offset)"))
        }
        guard case .object(let members) = value else {
            // MCP has no batches since 2025-06-18: an array is as wrong as a number.
            return .invalid(id: nil, error: .invalidRequest("a message is one JSON object"))
        }
        let id = members["id"]
        let usableID: JSONValue? =
            switch id {
            case .string?, .int?: id
            default: nil
            }
        guard members["jsonrpc"] == .string("2.0") else {
            return .invalid(id: usableID, error: .invalidRequest("\"jsonrpc\" must be \"2.0\""))
        }
        guard let method = members["method"] else {
            if members["result"] != nil || members["error"] != nil { return .response }
            return .invalid(id: usableID, error: .invalidRequest("no \"method\""))
        }
        guard case .string(let name) = method else {
            return .invalid(id: usableID, error: .invalidRequest("\"method\" must be a string"))
        }
        var params: [String: JSONValue] = [:]
        switch members["params"] {
        case nil: break
        case .object(let object)?: params = object
        default: return .invalid(id: usableID, error: .invalidParams("\"params\" must be an object"))
        }
        guard id != nil else { return .notification(method: name, params: params) }
        guard let usableID else {
            return .invalid(id: nil, error: .invalidRequest("\"id\" must be a string or an integer"))
        }
        return .request(id: usableID, method: name, params: params)
    }

    /// A result response, as one line without its newline.
    static func resultLine(id: JSONValue, result: [String: JSONValue]) -> [UInt8] {
        StableJSONWriter.line(.object(["jsonrpc": .string("2.0"), "id": id, "result": .object(result)]))
    }

    /// An error response; `id` is left out when the request's could not be read.
    static func errorLine(id: JSONValue?, error: JSONRPCError) -> [UInt8] {
        var body: [String: JSONValue] = ["code": .int(error.code), "message": .string(error.message)]
        if let data = error.data { body["data"] = data }
        var message: [String: JSONValue] = ["jsonrpc": .string("2.0"), "error": .object(body)]
        if let id { message["id"] = id }
        return StableJSONWriter.line(.object(message))
    }
}

/// Splits a byte stream into lines of at most `limit` bytes, in bounded memory: a longer
/// line is dropped as it arrives and reported once, so a runaway client cannot make the
/// server hold more than `limit` bytes. A last line without a newline still counts.
struct LineSplitter {
    enum Piece: Equatable {
        case line(Data)
        case tooLong(bytes: Int)
    }

    let limit: Int
    private var buffer: [UInt8] = []
    /// Bytes of the current over-long line dropped so far; nil while the line fits.
    private var dropped: Int?

    init(limit: Int) { self.limit = limit }

    /// Takes the next chunk of input and returns the lines it completed.
    mutating func feed(_ chunk: some Collection<UInt8>) -> [Piece] {
        var pieces: [Piece] = []
        var rest = chunk[...]
        while let newline = rest.firstIndex(of: UInt8(ascii: "\n")) {
            take(rest[..<newline])
            pieces.append(finishLine())
            rest = rest[rest.index(after: newline)...]
        }
        take(rest)
        return pieces
    }

    /// The end of input: the unfinished last line, if there is one.
    mutating func finish() -> [Piece] {
        guard !buffer.isEmpty || dropped != nil else { return [] }
        return [finishLine()]
    }

    private mutating func take(_ bytes: some Collection<UInt8>) {
        if let count = dropped {
            dropped = count + bytes.count
        } else if buffer.count + bytes.count > limit {
            dropped = buffer.count + bytes.count
            buffer = []
        } else {
            buffer.append(contentsOf: bytes)
        }
    }

    private mutating func finishLine() -> Piece {
        defer {
            buffer = []
            dropped = nil
        }
        if let dropped { return .tooLong(bytes: dropped) }
        // A client on Windows may end lines with CRLF.
        if buffer.last == UInt8(ascii: "\r") { buffer.removeLast() }
        return .line(Data(buffer))
    }
}

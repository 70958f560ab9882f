/// Problems with `blocks mcp config`.
public enum MCPConfigError: Error, Equatable, Sendable, CustomStringConvertible {
    case unknownClient(String, suggestion: String?)
    case unreadable(path: String, reason: String)

    public var description: String {
        switch self {
        case .unknownClient(let name, let suggestion):
            return "unknown client '\(name)'" + (suggestion.map { "; did you mean '\($0)'?" } ?? "")
                + " Clients: " + MCPClientConfig.all.map(\.name).joined(separator: ", ")
        case .unreadable(let path, let reason):
            return "cannot merge into \(path): \(reason); it was left as it is"
        }
    }
}

/// The entry that registers `blocks mcp` with a coding assistant, in that client's JSON
/// config format, and the file it goes in. `--write` merges it into the file: every other
/// member stays, only `blocks`'s own entry is replaced, and the file is replaced atomically.
public struct MCPClientConfig: Sendable, Equatable {
    public var name: String
    /// The member that maps server names to entries.
    public var serversKey: String
    /// Whether entries name their transport (`"type": "stdio"`).
    public var typed: Bool
    /// The config file, relative to the project folder or, when `global`, to the home folder.
    public var file: String
    public var global: Bool

    public static let all = [
        MCPClientConfig(name: "claude-code", serversKey: "mcpServers", typed: true, file: ".mcp.json", global: false),
        MCPClientConfig(name: "claude-desktop", serversKey: "mcpServers", typed: false, file: claudeDesktopFile, global: true),
        MCPClientConfig(name: "cursor", serversKey: "mcpServers", typed: false, file: ".cursor/mcp.json", global: false),
        MCPClientConfig(name: "vscode", serversKey: "servers", typed: true, file: ".vscode/mcp.json", global: false),
    ]

    static let claudeDesktopFile = ProgramPaths.claudeDesktopConfig

    /// The name servers are registered under.
    public static let serverName = "blocks"

    public static func named(_ name: String) throws -> MCPClientConfig {
        guard let client = all.first(where: { $0.name == name.lowercased() }) else {
            throw MCPConfigError.unknownClient(name, suggestion: EditDistance.closest(to: name.lowercased(), in: all.map(\.name)))
        }
        return client
    }

    /// `{"command": PATH, "args": ["mcp"]}`, with `"type": "stdio"` where the client wants it.
    public func entry(command: String) -> JSONValue {
        var entry: [String: JSONValue] = ["command": .string(command), "args": .array([.string("mcp")])]
        if typed { entry["type"] = .string("stdio") }
        return .object(entry)
    }

    /// The whole file with `blocks` registered, as it would be printed or written.
    public func document(command: String) -> JSONValue {
        .object([serversKey: .object([Self.serverName: entry(command: command)])])
    }

    /// `existing` (the file's bytes, nil when there is none) with the entry put in, keeping
    /// every other member. A file that is not a JSON object is refused, never replaced.
    public func merged(into existing: Data?, command: String, path: String) throws -> JSONValue {
        guard let existing, !existing.allSatisfy({ [0x20, 0x09, 0x0A, 0x0D].contains($0) }) else { return document(command: command) }
        let value: JSONValue
        do {
            value = try JSONReader.parse(existing)
        } catch {
            throw MCPConfigError.unreadable(path: path, reason: "it is not plain JSON (\(error.reason) at byte \(error.offset))")
        }
        guard case .object(var members) = value else { throw MCPConfigError.unreadable(path: path, reason: "it is not a JSON object") }
        var servers: [String: JSONValue] = [:]
        switch members[serversKey] {
        case nil: break
        case .object(let object)?: servers = object
        default: throw MCPConfigError.unreadable(path: path, reason: "its \"\(serversKey)\" is not an object")
        }
        servers[Self.serverName] = entry(command: command)
        members[serversKey] = .object(servers)
        return .object(members)
    }

    /// Where the file is: in the project root, or in the home folder for a global client.
    public func location(projectRoot: URL, home: String) -> URL {
        (global ? URL(fileURLWithPath: home, isDirectory: true) : projectRoot).appendingPathComponent(file)
    }

    /// Merges the entry into the file and writes it atomically, making its folder if needed.
    public func write(command: String, to url: URL) throws {
        let existing = FileManager.default.contents(atPath: url.path)
        let merged = try merged(into: existing, command: command, path: url.path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try AtomicFile.write(StableJSON.data(merged), to: url)
    }

    /// This program's absolute path, so the client starts the same `blocks` whatever its PATH.
    public static func executablePath(fallback: String) -> String {
        if let resolved = ProgramPaths.runningExecutable() { return resolved }
        if fallback.hasPrefix("/") { return fallback }
        return "blocks"
    }
}

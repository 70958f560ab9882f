/// A line the library has for the person running the tool: a note (what it is waiting
/// for, what it skipped) or a warning (something to fix). The library never writes to a
/// terminal itself; whoever calls it decides where these go, so the same code serves the
/// command line, an MCP server and in-process tests.
public enum Notice: Sendable, Equatable {
    case note(String)
    case warning(String)
}

/// Receives the library's notices as they happen.
public typealias NoticeHandler = @Sendable (Notice) -> Void

/// Where relative paths typed by a person are taken from: the folder `-C` chose (or the
/// working folder), and `~` for the home folder.
public struct PathContext: Sendable, Equatable {
    public var workingDirectory: URL
    public var homeDirectory: String

    public init(workingDirectory: URL, homeDirectory: String) {
        self.workingDirectory = workingDirectory
        self.homeDirectory = homeDirectory
    }

    /// A path as typed, absolute: `~` and `~/x` from the home folder, a relative path from
    /// the working folder.
    public func resolve(_ path: String) -> URL {
        let expanded = path == "~" || path.hasPrefix("~/") ? homeDirectory + path.dropFirst() : path
        if expanded.hasPrefix("/") { return URL(fileURLWithPath: expanded).standardizedFileURL }
        return workingDirectory.appendingPathComponent(expanded).standardizedFileURL
    }
}

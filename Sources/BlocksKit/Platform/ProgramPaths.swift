/// Where things live that differ between Linux and macOS: other programs' settings files
/// and this program's own executable.
enum ProgramPaths {
    /// Claude Desktop's settings file, relative to the home folder.
    #if os(macOS)
    static let claudeDesktopConfig = "Library/Application Support/Claude/claude_desktop_config.json"
    #else
    static let claudeDesktopConfig = ".config/Claude/claude_desktop_config.json"
    #endif

    /// The running executable's absolute path, with links resolved, where the system says
    /// (`/proc/self/exe` on Linux); nil elsewhere.
    static func runningExecutable() -> String? {
        #if os(Linux)
        guard let resolved = realpath("/proc/self/exe", nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
        #else
        return nil
        #endif
    }
}

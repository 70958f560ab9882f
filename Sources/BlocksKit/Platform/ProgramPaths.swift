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

    /// The variables that choose which developer tools a child process runs. On macOS,
    /// `/usr/bin/swift` and `/usr/bin/git` are stubs that `xcrun` routes to a toolchain
    /// picked by `DEVELOPER_DIR`, `TOOLCHAINS` and `SDKROOT` (xcrun(1)); a plugin given
    /// only PATH would run another swift-format than the user's shell. Linux has none.
    #if os(macOS)
    static let toolchainVariables = ["DEVELOPER_DIR", "TOOLCHAINS", "SDKROOT"]
    #else
    static let toolchainVariables: [String] = []
    #endif

    /// What to do when a developer tool's stub says the tools are missing: on macOS,
    /// `/usr/bin/git` exists without the Command Line Tools and fails with
    /// `xcrun: error: invalid active developer path`. Nil for any other message.
    static func missingDeveloperToolsAdvice(_ message: String) -> String? {
        #if os(macOS)
        guard message.hasPrefix("xcrun: error") else { return nil }
        return "the Command Line Tools are missing: run 'xcode-select --install'"
        #else
        return nil
        #endif
    }
}

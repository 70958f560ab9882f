/// The one rule for a relative path read from text the tool does not trust (a block
/// manifest, `blocks.lock`, a registry's index and metadata, a staging list) that must
/// stay inside the folder it is relative to.
enum RelativePath {
    /// Not empty, not absolute, and each `/`-separated part a plain name: no empty, `.` or
    /// `..` part, no backslash (a separator on Windows), no NUL, and no colon (a drive on
    /// Windows; joined to a registry's URL, a scheme).
    static func isSafe(_ path: String) -> Bool {
        guard !path.isEmpty, !path.hasPrefix("/"), !path.contains("\\"), !path.contains("\0"), !path.contains(":") else { return false }
        return path.split(separator: "/", omittingEmptySubsequences: false).allSatisfy { part in
            !part.isEmpty && part != "." && part != ".."
        }
    }
}

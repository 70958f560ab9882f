/// The tool's version: what `blocks --version` prints (`BlocksCLI.version`), the HTTP
/// user agent, and the stamp of an on-disk search index. Here, below every folder that
/// names it.
public enum ToolVersion {
    public static let current = "0.1.0"
}

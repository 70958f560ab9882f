/// The absolute bounds of every transfer, whatever an index, a metadata file or a server
/// says. A registry is untrusted input: its declared sizes only lower these.
public enum TransferLimits {
    /// The largest body any download may have, counted in decoded bytes (a gzip-encoded
    /// reply is counted as it is written): archives from a registry, a mirror's archives,
    /// an archive given by URL. A published block archive is a few kilobytes.
    public static let maximumArchiveBytes: Int64 = 256 * 1024 * 1024
    /// The most bytes of response headers one response may have. libcurl stops at 100 KB
    /// with "out of memory"; a registry sends well under 1 KB.
    public static let maximumHeaderBytes = 64 * 1024
}

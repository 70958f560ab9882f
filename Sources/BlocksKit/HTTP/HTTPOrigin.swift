/// The origin of a URL, as browsers and RFC 6454 define it: scheme, host and port.
/// A namespaced registry's headers go only to its own origin, so a redirect, or an
/// archive URL, that leads to another host, port or scheme never receives them.
public struct HTTPOrigin: Hashable, Sendable, CustomStringConvertible {
    /// In lower case: `http` or `https` (other schemes parse, and are refused elsewhere).
    public let scheme: String
    /// In lower case, without user information; an IPv6 address keeps its brackets.
    public let host: String
    /// The port, with the scheme's default filled in.
    public let port: Int

    /// Nil for text that is not an absolute `scheme://host` URL.
    public init?(_ url: String) {
        guard let separator = url.firstRange(of: "://") else { return nil }
        let scheme = url[..<separator.lowerBound].lowercased()
        guard !scheme.isEmpty, scheme.allSatisfy({ $0.isLetter || $0.isNumber || "+-.".contains($0) }) else { return nil }
        var authority = url[separator.upperBound...].prefix { !"/?#".contains($0) }
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        var host = authority
        var port: Int?
        if let colon = authority.lastIndex(of: ":"), !authority[colon...].contains("]") {
            host = authority[..<colon]
            let digits = authority[authority.index(after: colon)...]
            if !digits.isEmpty {
                guard digits.count <= 5, let number = Int(digits), number <= 65_535 else { return nil }
                port = number
            }
        }
        guard !host.isEmpty else { return nil }
        self.scheme = scheme
        self.host = host.lowercased()
        self.port = port ?? (scheme == "https" ? 443 : scheme == "http" ? 80 : 0)
    }

    public var description: String { "\(scheme)://\(host):\(port)" }
}

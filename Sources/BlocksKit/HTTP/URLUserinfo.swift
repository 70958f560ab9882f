/// The user information of a URL (`https://user:secret@host/`) is a credential. It is used
/// for the request (as HTTP Basic authentication, to that URL's origin only), and never
/// printed, logged or stored: what the tool shows and saves is the URL without it, and
/// any text quoting one shows `user:***@`.
public enum URLUserinfo {
    /// The URL without its user information, and that information ("user" or
    /// "user:password"); nil when the URL has none.
    public static func split(_ url: String) -> (url: String, userinfo: String)? {
        guard let separator = url.firstRange(of: "://") else { return nil }
        let authority = url[separator.upperBound...].prefix { !"/?#".contains($0) }
        guard let at = authority.lastIndex(of: "@") else { return nil }
        let userinfo = String(authority[..<at])
        let stripped = String(url[..<separator.upperBound]) + url[url.index(after: at)...]
        return (stripped, userinfo)
    }

    /// `url` without its user information (unchanged when it has none).
    public static func stripped(_ url: String) -> String {
        split(url)?.url ?? url
    }

    /// The `Authorization` header that carries `userinfo` ("user:password", percent
    /// escapes decoded as RFC 3986 writes them), as RFC 7617 defines Basic authentication.
    static func basicAuthorization(_ userinfo: String) -> HTTPHeader {
        let decoded = PercentEncoding.decoded(userinfo) ?? userinfo
        return HTTPHeader(name: "Authorization", value: "Basic " + Data(decoded.utf8).base64EncodedString())
    }

    /// `text` with the password (or a lone user name, which is often a token) of every URL
    /// in it replaced by `***`: `http://user:secret@host/` shows as `http://user:***@host/`.
    public static func masked(in text: String) -> String {
        guard text.contains("@"), text.contains("://") else { return text }
        var result = ""
        var rest = Substring(text)
        while let separator = rest.firstRange(of: "://") {
            result += rest[..<separator.upperBound]
            rest = rest[separator.upperBound...]
            let authority = rest.prefix { !"/?#@".contains($0) && !$0.isWhitespace && !"\"'<>".contains($0) }
            let afterAuthority = rest[authority.endIndex...]
            guard afterAuthority.first == "@" else { continue }
            if let colon = authority.firstIndex(of: ":") {
                result += authority[..<colon] + ":***"
            } else {
                result += "***"
            }
            rest = afterAuthority
        }
        return result + rest
    }
}

/// A registry whose URL carried user information: its requests to that URL's origin carry
/// the credential as a Basic `Authorization` header, and nothing else does. The header
/// makes the transport follow redirects itself, so it never reaches another origin, and
/// `BLOCKS_TOKEN` is not sent beside it.
struct UserinfoTransport: HTTPTransport {
    let base: HTTPTransport
    let origin: HTTPOrigin?
    let header: HTTPHeader

    init(base: HTTPTransport, url: String, userinfo: String) {
        self.base = base
        origin = HTTPOrigin(url)
        header = URLUserinfo.basicAuthorization(userinfo)
    }

    func credentialed(_ request: HTTPRequest) -> HTTPRequest {
        guard let origin, HTTPOrigin(request.url) == origin else { return request }
        var request = request
        request.sendsDefaultToken = false
        request.headers.append(header)
        return request
    }

    func get(_ request: HTTPRequest) throws -> HTTPResponse {
        try base.get(credentialed(request))
    }

    func download(
        _ downloads: [HTTPDownload], maxParallel: Int, progress: (@Sendable (TransferProgress) -> Void)?
    ) -> [Result<HTTPResponse, HTTPError>] {
        let credentialed = downloads.map { download in
            var download = download
            download.request = self.credentialed(download.request)
            return download
        }
        return base.download(credentialed, maxParallel: maxParallel, progress: progress)
    }

    func fetch(_ requests: [HTTPRequest], maxParallel: Int) -> [Result<HTTPResponse, HTTPError>] {
        base.fetch(requests.map(credentialed), maxParallel: maxParallel)
    }

    func prepare() { base.prepare() }

    func sendingDefaultToken(to origin: HTTPOrigin?) -> HTTPTransport {
        UserinfoTransport(base: base.sendingDefaultToken(to: origin), origin: self.origin, header: header)
    }

    private init(base: HTTPTransport, origin: HTTPOrigin?, header: HTTPHeader) {
        self.base = base
        self.origin = origin
        self.header = header
    }
}

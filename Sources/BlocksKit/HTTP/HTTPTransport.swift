extension HTTPTransport {
    public func sendingDefaultToken(to origin: HTTPOrigin?) -> HTTPTransport { self }
}

/// One GET request. Every transfer the tool makes is described by one of these.
public struct HTTPRequest: Sendable, Equatable {
    public var url: String
    /// Sent as `If-None-Match`, so an unchanged index costs a 304 and no body.
    public var ifNoneMatch: String?
    /// A body larger than this fails the request instead of filling the disk.
    public var maxBodyBytes: Int64
    /// A namespaced registry's own headers (`blocks.json` `registries`), already expanded.
    /// They go only to the origin of `url`: a redirect to another origin drops them.
    public var headers: [HTTPHeader]
    /// Whether `BLOCKS_TOKEN` goes with the request: it is the default registry's
    /// credential, so a namespaced registry's requests carry their own headers instead.
    public var sendsDefaultToken: Bool

    public init(
        url: String, ifNoneMatch: String? = nil, maxBodyBytes: Int64 = 256 * 1024 * 1024,
        headers: [HTTPHeader] = [], sendsDefaultToken: Bool = true
    ) {
        self.url = url
        self.ifNoneMatch = ifNoneMatch
        self.maxBodyBytes = maxBodyBytes
        self.headers = headers
        self.sendsDefaultToken = sendsDefaultToken
    }
}

/// One request header. Its value may be a secret, so it is never part of a message.
public struct HTTPHeader: Sendable, Equatable {
    public var name: String
    public var value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

/// What came back. For downloads to a file, `body` is empty (unless the download asked
/// to keep it) and the bytes are on disk.
public struct HTTPResponse: Sendable, Equatable {
    public var status: Int
    public var etag: String?
    public var body: Data

    public init(status: Int, etag: String? = nil, body: Data = Data()) {
        self.status = status
        self.etag = etag
        self.body = body
    }

    public var isNotModified: Bool { status == 304 }
}

/// One file to download, and where its bytes go.
public struct HTTPDownload: Sendable, Equatable {
    public var request: HTTPRequest
    /// The final file. The transport writes to `destination.part` and renames on success.
    public var destination: URL
    /// When set, the transport checks the bytes and fails without renaming on a mismatch.
    public var expectedSHA256: String?
    /// When true, a successful response's `body` holds the bytes too, so a caller about to
    /// read a small file it just downloaded need not read it back from disk.
    public var keepsBody: Bool

    public init(request: HTTPRequest, destination: URL, expectedSHA256: String? = nil, keepsBody: Bool = false) {
        self.request = request
        self.destination = destination
        self.expectedSHA256 = expectedSHA256
        self.keepsBody = keepsBody
    }
}

/// Progress of a group of downloads, for a progress bar.
public struct TransferProgress: Sendable, Equatable {
    public var filesDone: Int
    public var filesTotal: Int
    public var bytesDone: Int64

    public init(filesDone: Int, filesTotal: Int, bytesDone: Int64) {
        self.filesDone = filesDone
        self.filesTotal = filesTotal
        self.bytesDone = bytesDone
    }
}

/// How the tool talks HTTP. The real one is libcurl; tests may inject another to
/// produce faults a real server cannot.
public protocol HTTPTransport: Sendable {
    /// A small body held in memory, such as `index.json`. Retries transient failures.
    func get(_ request: HTTPRequest) throws -> HTTPResponse
    /// Many files at once, at most `maxParallel` in flight. One result per download, in order.
    func download(
        _ downloads: [HTTPDownload], maxParallel: Int,
        progress: (@Sendable (TransferProgress) -> Void)?
    ) -> [Result<HTTPResponse, HTTPError>]
    /// Many small bodies held in memory, such as per-block metadata, at most `maxParallel`
    /// in flight. One result per request, in order; a 2xx is a response, anything else an
    /// error. Nothing touches the disk, so a hundred small files cost no file creations.
    func fetch(_ requests: [HTTPRequest], maxParallel: Int) -> [Result<HTTPResponse, HTTPError>]
    /// This transport sending `BLOCKS_TOKEN` (if it holds one) to `origin` and nowhere
    /// else. Transports that hold no token return themselves.
    func sendingDefaultToken(to origin: HTTPOrigin?) -> HTTPTransport
    /// Loads whatever transfers need (for libcurl, the library and its set-up) now, so a
    /// caller can do it on another thread while it works. The first transfer otherwise
    /// pays for it.
    func prepare()
}

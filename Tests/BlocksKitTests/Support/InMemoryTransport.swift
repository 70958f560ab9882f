import Foundation

@testable import BlocksKit

/// An `HTTPTransport` that serves a folder from memory at `baseURL`, for tests that only
/// need a registry's files and the exact list of requests, not a real server: every
/// request is answered at once and recorded as `"GET /path STATUS"`, as nginx's access
/// log would show it. ETags are the body's SHA-256, so a conditional GET of an unchanged
/// file is a 304. What only a real server shows (gzip, TLS, keep-alive, faults) stays with
/// the nginx and fault-server tests.
final class InMemoryTransport: HTTPTransport, @unchecked Sendable {
    let baseURL: String
    let root: URL
    private let lock = NSLock()
    private var log: [String] = []
    private var reachable = true

    init(serving root: URL, at baseURL: String = "http://registry.test") {
        self.root = root
        self.baseURL = baseURL
    }

    /// The requests so far, in order.
    var requests: [String] { lock.withLock { log } }

    /// Makes every later request fail as an unreachable server does.
    func goDown() { lock.withLock { reachable = false } }

    func get(_ request: HTTPRequest) throws -> HTTPResponse {
        try answer(request).get()
    }

    func download(
        _ downloads: [HTTPDownload], maxParallel: Int, progress: (@Sendable (TransferProgress) -> Void)?
    ) -> [Result<HTTPResponse, HTTPError>] {
        downloads.map { download in
            answer(download.request).flatMap { response in
                if let expected = download.expectedSHA256, expected.lowercased() != SHA256.hex(response.body) {
                    return .failure(.checksumMismatch(url: download.request.url, expected: expected, actual: SHA256.hex(response.body)))
                }
                do {
                    try FileManager.default.createDirectory(at: download.destination.deletingLastPathComponent(), withIntermediateDirectories: true)
                    try AtomicFile.write(response.body, to: download.destination)
                } catch {
                    return .failure(.file(path: download.destination.path, reason: "\(error)"))
                }
                return .success(download.keepsBody ? response : HTTPResponse(status: response.status, etag: response.etag))
            }
        }
    }

    func fetch(_ requests: [HTTPRequest], maxParallel: Int) -> [Result<HTTPResponse, HTTPError>] {
        requests.map(answer)
    }

    func prepare() {}

    private func answer(_ request: HTTPRequest) -> Result<HTTPResponse, HTTPError> {
        lock.lock()
        defer { lock.unlock() }
        guard reachable else { return .failure(.transport(url: request.url, reason: "Could not connect to server")) }
        guard request.url.hasPrefix(baseURL + "/") else {
            return .failure(.transport(url: request.url, reason: "Could not resolve host"))
        }
        let path = String(request.url.dropFirst(baseURL.count))
        guard !path.contains(".."), let body = FileManager.default.contents(atPath: root.path + path) else {
            log.append("GET \(path) 404")
            return .failure(.status(url: request.url, code: 404))
        }
        if body.count > request.maxBodyBytes { return .failure(.tooLarge(url: request.url, limit: request.maxBodyBytes)) }
        let etag = "\"\(SHA256.hex(body))\""
        if request.ifNoneMatch == etag {
            log.append("GET \(path) 304")
            return .success(HTTPResponse(status: 304, etag: etag))
        }
        log.append("GET \(path) 200")
        return .success(HTTPResponse(status: 200, etag: etag, body: body))
    }
}

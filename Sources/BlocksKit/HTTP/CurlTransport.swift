import BlocksCurl
import Foundation

/// The libcurl transport. (Being written: see the HTTP issue.)
public final class CurlTransport: HTTPTransport, @unchecked Sendable {
    public static let shared = CurlTransport()

    public func get(_ request: HTTPRequest) throws -> HTTPResponse {
        throw HTTPError.transport(url: request.url, reason: "HTTP is not available yet")
    }

    public func download(
        _ downloads: [HTTPDownload], maxParallel: Int, progress: (@Sendable (TransferProgress) -> Void)?
    ) -> [Result<HTTPResponse, HTTPError>] {
        downloads.map { .failure(.transport(url: $0.request.url, reason: "HTTP is not available yet")) }
    }
}

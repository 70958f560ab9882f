import Foundation

@testable import BlocksKit

/// Settings that make faults resolve in about a second: a 1-second low-speed window
/// and 50 ms backoff.
let fastTransferSettings = TransferSettings(
    connectTimeout: 2, lowSpeedLimit: 1, lowSpeedTime: 1, retries: 3, backoffBase: 0.05, maxRetryDelay: 2)

/// Collects a transport's log lines, from whatever thread writes them.
final class LogLines: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []

    var all: [String] {
        lock.lock()
        defer { lock.unlock() }
        return lines
    }

    var text: String { all.joined(separator: "\n") }

    func append(_ line: String) {
        lock.lock()
        lines.append(line)
        lock.unlock()
    }

    /// How many retries the transport announced.
    var retryCount: Int { all.filter { $0.contains("retrying in") }.count }
}

/// A transport with fast settings whose log goes to `log`.
func fastTransport(
    token: String? = nil, log: LogLines, settings: TransferSettings = fastTransferSettings
)
    -> CurlTransport
{
    CurlTransport(token: token, settings: settings, log: { log.append($0) })
}

/// Every file under a folder, as relative paths, sorted.
/// Every file under `folder` with its bytes, by path relative to it.
func fileContents(under folder: URL) -> [String: Data] {
    Dictionary(uniqueKeysWithValues: filesUnder(folder).map { ($0, FileManager.default.contents(atPath: folder.appendingPathComponent($0).path) ?? Data()) })
}

func filesUnder(_ folder: URL) -> [String] {
    guard let enumerator = FileManager.default.enumerator(atPath: folder.path) else { return [] }
    var files: [String] = []
    while let path = enumerator.nextObject() as? String {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder.appendingPathComponent(path).path, isDirectory: &isDirectory),
            !isDirectory.boolValue
        {
            files.append(path)
        }
    }
    return files.sorted()
}

/// The error of a result, or nil for a success.
func failure(_ result: Result<HTTPResponse, HTTPError>) -> HTTPError? {
    if case .failure(let error) = result { return error }
    return nil
}

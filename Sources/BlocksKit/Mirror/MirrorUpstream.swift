/// The registry a mirror copies from: HTTP(S) through the transport, or a folder.
protocol MirrorUpstream {
    var location: String { get }
    /// The index, or nil when it is unchanged since `etag` (a 304).
    func fetchIndex(ifNoneMatch etag: String?) throws -> (data: Data, etag: String?)?
    /// Fetches archives into place, each through a `.part` file checked against its hash.
    func fetch(_ downloads: [HTTPDownload], jobs: Int, progress: (@Sendable (TransferProgress) -> Void)?) -> [Result<HTTPResponse, HTTPError>]
    func url(for path: String) -> String
    /// Small files (metadata) into memory, at most `jobs` at a time, one result each, in order.
    func fetchFiles(_ paths: [String], jobs: Int) -> [Result<Data, HTTPError>]
    /// A small file the registry may not have (the site's `site.json`): nil when it is missing.
    func fetchOptional(_ path: String, maxBytes: Int64) throws -> Data?
}

/// An http(s) registry.
struct HTTPMirrorUpstream: MirrorUpstream {
    let base: String
    let transport: HTTPTransport

    var location: String { base }

    func url(for path: String) -> String { BuiltRegistrySource.join(base, path) }

    func fetchIndex(ifNoneMatch etag: String?) throws -> (data: Data, etag: String?)? {
        let url = url(for: "index.json")
        let response = try transport.get(HTTPRequest(url: url, ifNoneMatch: etag, maxBodyBytes: RegistryIndex.maximumBytes))
        if response.isNotModified { return nil }
        guard response.status == 200 else { throw HTTPError.status(url: url, code: response.status) }
        return (response.body, response.etag)
    }

    func fetch(_ downloads: [HTTPDownload], jobs: Int, progress: (@Sendable (TransferProgress) -> Void)?) -> [Result<HTTPResponse, HTTPError>] {
        transport.download(downloads, maxParallel: jobs, progress: progress)
    }

    func fetchOptional(_ path: String, maxBytes: Int64) throws -> Data? {
        let url = url(for: path)
        let response: HTTPResponse
        do {
            response = try transport.get(HTTPRequest(url: url, maxBodyBytes: maxBytes))
        } catch HTTPError.status(_, 404) {
            return nil
        }
        if response.status == 404 { return nil }
        guard response.status == 200 else { throw HTTPError.status(url: url, code: response.status) }
        return response.body
    }
}

/// A registry folder on disk, e.g. a USB stick carried across. Its "ETag" is the index's hash.
struct FolderMirrorUpstream: MirrorUpstream {
    let root: URL

    var location: String { root.path }

    func url(for path: String) -> String { root.appendingPathComponent(path).path }

    func fetchIndex(ifNoneMatch etag: String?) throws -> (data: Data, etag: String?)? {
        let file = root.appendingPathComponent("index.json")
        guard FileManager.default.fileExists(atPath: file.path) else { throw MirrorError.unreadableSource(root.path) }
        let data = try BuiltRegistrySource.readIndexFile(file, location: root.path)
        let tag = "\"sha256-\(SHA256.hex(data))\""
        return tag == etag ? nil : (data, tag)
    }

    func fetchOptional(_ path: String, maxBytes: Int64) throws -> Data? {
        let file = root.appendingPathComponent(path)
        guard let size = MirrorState.stamp(file)?.size else { return nil }
        guard size <= maxBytes else { throw HTTPError.file(path: file.path, reason: "it is larger than \(maxBytes) bytes") }
        return FileManager.default.contents(atPath: file.path)
    }

    func fetch(_ downloads: [HTTPDownload], jobs: Int, progress: (@Sendable (TransferProgress) -> Void)?) -> [Result<HTTPResponse, HTTPError>] {
        var done = 0
        var bytes: Int64 = 0
        return downloads.map { download in
            let result = Self.copy(download)
            done += 1
            if case .success = result { bytes += (MirrorState.stamp(download.destination)?.size ?? 0) }
            progress?(TransferProgress(filesDone: done, filesTotal: downloads.count, bytesDone: bytes))
            return result
        }
    }

    static func copy(_ download: HTTPDownload) -> Result<HTTPResponse, HTTPError> {
        let source = URL(fileURLWithPath: download.request.url)
        let part = download.destination.appendingPathExtension("part")
        guard let data = FileManager.default.contents(atPath: source.path) else {
            return .failure(.file(path: source.path, reason: "missing from the source registry"))
        }
        if let expected = download.expectedSHA256 {
            do {
                try SHA256.verify(data, expected: expected) { HTTPError.checksumMismatch(url: source.path, expected: expected, actual: $0) }
            } catch {
                return .failure(error)
            }
        }
        do {
            try FileManager.default.createDirectory(at: part.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: part)
            guard rename(part.path, download.destination.path) == 0 else {
                throw HTTPError.file(path: download.destination.path, reason: String(cString: strerror(errno)))
            }
            return .success(HTTPResponse(status: 200))
        } catch {
            try? FileManager.default.removeItem(at: part)
            return .failure(.file(path: download.destination.path, reason: ErrorText.line(for: error)))
        }
    }
}

import Foundation
import Testing

@testable import BlocksKit

/// The transport against a real nginx on loopback, serving real files.
@Suite struct HTTPNginxTests {
    /// A root folder with `count` archives-like files of different sizes, and their digests.
    private func makeRoot(count: Int) throws -> (root: URL, digests: [String: String]) {
        let root = try Loopback.temporaryFolder("root")
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("archives"), withIntermediateDirectories: true)
        var digests: [String: String] = [:]
        for number in 0..<count {
            let name = "archives/block\(number)-1.0.0.tar.gz"
            var data = Data(count: 1000 + number * 7919)
            for offset in 0..<data.count { data[offset] = UInt8(truncatingIfNeeded: offset &* 31 &+ number) }
            try data.write(to: root.appendingPathComponent(name))
            digests[name] = SHA256.hex(data)
        }
        try Data("{\"blocks\":[]}\n".utf8).write(to: root.appendingPathComponent("index.json"))
        return (root, digests)
    }

    @Test func getsABodyWithItsETag() throws {
        let (root, _) = try makeRoot(count: 0)
        defer { try? FileManager.default.removeItem(at: root) }
        let nginx = try Nginx(root: root)
        defer { nginx.stop() }
        let response = try CurlTransport(settings: fastTransferSettings).get(HTTPRequest(url: nginx.url("index.json")))
        #expect(response.status == 200)
        #expect(String(decoding: response.body, as: UTF8.self) == "{\"blocks\":[]}\n")
        let etag = try #require(response.etag)
        #expect(etag.hasPrefix("\""))
    }

    @Test func conditionalGetGives304WithNoBody() throws {
        let (root, _) = try makeRoot(count: 0)
        defer { try? FileManager.default.removeItem(at: root) }
        let nginx = try Nginx(root: root)
        defer { nginx.stop() }
        let transport = CurlTransport(settings: fastTransferSettings)
        let first = try transport.get(HTTPRequest(url: nginx.url("index.json")))
        let etag = try #require(first.etag)
        let second = try transport.get(HTTPRequest(url: nginx.url("index.json"), ifNoneMatch: etag))
        #expect(second.status == 304)
        #expect(second.isNotModified)
        #expect(second.body.isEmpty)
        #expect(second.etag == etag)
        let stale = try transport.get(HTTPRequest(url: nginx.url("index.json"), ifNoneMatch: "\"stale\""))
        #expect(stale.status == 200)
        #expect(!stale.body.isEmpty)
    }

    @Test func missingFileIsOneClearErrorWithoutRetries() throws {
        let (root, _) = try makeRoot(count: 0)
        defer { try? FileManager.default.removeItem(at: root) }
        let nginx = try Nginx(root: root)
        defer { nginx.stop() }
        let log = LogLines()
        let url = nginx.url("nope/index.json")
        #expect(throws: HTTPError.status(url: url, code: 404)) {
            try fastTransport(log: log).get(HTTPRequest(url: url))
        }
        let text = HTTPError.status(url: url, code: 404).description
        #expect(text.contains(url) && text.contains("404") && text.contains("check the registry URL"))
        #expect(log.retryCount == 0)
    }

    @Test func downloadsTwentyFilesInParallelWithChecksums() throws {
        let (root, digests) = try makeRoot(count: 20)
        defer { try? FileManager.default.removeItem(at: root) }
        let nginx = try Nginx(root: root)
        defer { nginx.stop() }
        let target = try Loopback.temporaryFolder("downloads")
        defer { try? FileManager.default.removeItem(at: target) }

        let names = digests.keys.sorted()
        let downloads = names.map { name in
            HTTPDownload(
                request: HTTPRequest(url: nginx.url(name)),
                destination: target.appendingPathComponent(name), expectedSHA256: digests[name])
        }
        let reports = ProgressReports()
        let results = CurlTransport(settings: fastTransferSettings)
            .download(downloads, maxParallel: 4, progress: { reports.append($0) })

        #expect(results.count == 20)
        for (name, result) in zip(names, results) {
            let response = try result.get()
            #expect(response.status == 200)
            #expect(response.body.isEmpty)
            #expect(try SHA256.hex(fileAt: target.appendingPathComponent(name)) == digests[name])
        }
        #expect(filesUnder(target) == names)
        let last = try #require(reports.all.last)
        let totalBytes = try names.reduce(Int64(0)) { sum, name in
            let size = try FileManager.default.attributesOfItem(atPath: root.appendingPathComponent(name).path)[.size]
            return sum + Int64((size as? Int) ?? 0)
        }
        #expect(last == TransferProgress(filesDone: 20, filesTotal: 20, bytesDone: totalBytes))
        #expect(reports.all.map(\.filesDone) == reports.all.map(\.filesDone).sorted())
    }

    @Test func aWrongChecksumFailsOnlyItsOwnDownload() throws {
        let (root, digests) = try makeRoot(count: 3)
        defer { try? FileManager.default.removeItem(at: root) }
        let nginx = try Nginx(root: root)
        defer { nginx.stop() }
        let target = try Loopback.temporaryFolder("downloads")
        defer { try? FileManager.default.removeItem(at: target) }

        let names = digests.keys.sorted()
        let wrong = String(repeating: "0", count: 64)
        let downloads = names.enumerated().map { number, name in
            HTTPDownload(
                request: HTTPRequest(url: nginx.url(name)), destination: target.appendingPathComponent(name),
                expectedSHA256: number == 1 ? wrong : digests[name])
        }
        let log = LogLines()
        let results = fastTransport(log: log).download(downloads, maxParallel: 3, progress: nil)
        #expect((try? results[0].get()) != nil)
        #expect((try? results[2].get()) != nil)
        let error = try #require(failure(results[1]))
        #expect(error == .checksumMismatch(url: nginx.url(names[1]), expected: wrong, actual: digests[names[1]] ?? ""))
        #expect(error.description.contains("nothing was written"))
        #expect(filesUnder(target) == [names[0], names[2]])
        #expect(log.retryCount == 0)
    }

    @Test func conditionalDownloadLeavesTheFileAlone() throws {
        let (root, digests) = try makeRoot(count: 1)
        defer { try? FileManager.default.removeItem(at: root) }
        let nginx = try Nginx(root: root)
        defer { nginx.stop() }
        let target = try Loopback.temporaryFolder("downloads")
        defer { try? FileManager.default.removeItem(at: target) }
        let name = try #require(digests.keys.first)
        let destination = target.appendingPathComponent("kept.tar.gz")
        let transport = CurlTransport(settings: fastTransferSettings)

        let first = try transport.download(
            [HTTPDownload(request: HTTPRequest(url: nginx.url(name)), destination: destination)], maxParallel: 1,
            progress: nil)[0].get()
        let etag = try #require(first.etag)
        try Data("local copy".utf8).write(to: destination)
        let second = try transport.download(
            [HTTPDownload(request: HTTPRequest(url: nginx.url(name), ifNoneMatch: etag), destination: destination)],
            maxParallel: 1, progress: nil)[0].get()
        #expect(second.status == 304)
        #expect(try Data(contentsOf: destination) == Data("local copy".utf8))
        #expect(filesUnder(target) == ["kept.tar.gz"])
    }

    @Test func aDownloadCanKeepItsBytesInMemoryAndCreatesItsFolder() throws {
        let (root, digests) = try makeRoot(count: 2)
        defer { try? FileManager.default.removeItem(at: root) }
        let nginx = try Nginx(root: root)
        defer { nginx.stop() }
        let target = try Loopback.temporaryFolder("downloads")
        defer { try? FileManager.default.removeItem(at: target) }
        let names = digests.keys.sorted()
        let results = CurlTransport(settings: fastTransferSettings).download(
            names.enumerated().map { position, name in
                HTTPDownload(
                    request: HTTPRequest(url: nginx.url(name)), destination: target.appendingPathComponent("new/folder/\(position)"),
                    expectedSHA256: digests[name], keepsBody: position == 0)
            }, maxParallel: 2, progress: nil)
        let kept = try results[0].get()
        #expect(!kept.body.isEmpty)
        #expect(kept.body == (try Data(contentsOf: target.appendingPathComponent("new/folder/0"))))
        #expect(SHA256.hex(kept.body) == digests[names[0]])
        #expect(try results[1].get().body.isEmpty)
        #expect(filesUnder(target) == ["new/folder/0", "new/folder/1"])
    }

    @Test func missingDownloadLeavesNothing() throws {
        let (root, _) = try makeRoot(count: 0)
        defer { try? FileManager.default.removeItem(at: root) }
        let nginx = try Nginx(root: root)
        defer { nginx.stop() }
        let target = try Loopback.temporaryFolder("downloads")
        defer { try? FileManager.default.removeItem(at: target) }
        let url = nginx.url("archives/missing-1.0.0.zip")
        let results = CurlTransport(settings: fastTransferSettings).download(
            [HTTPDownload(request: HTTPRequest(url: url), destination: target.appendingPathComponent("missing.zip"))],
            maxParallel: 2, progress: nil)
        #expect(failure(results[0]) == .status(url: url, code: 404))
        #expect(filesUnder(target).isEmpty)
    }

    @Test func fetchKeepsSmallBodiesInMemoryInOrder() throws {
        let (root, digests) = try makeRoot(count: 5)
        defer { try? FileManager.default.removeItem(at: root) }
        let nginx = try Nginx(root: root)
        defer { nginx.stop() }
        let names = digests.keys.sorted()
        let missing = nginx.url("archives/missing.json")
        let results = CurlTransport(settings: fastTransferSettings)
            .fetch(names.map { HTTPRequest(url: nginx.url($0)) } + [HTTPRequest(url: missing)], maxParallel: 2)
        #expect(results.count == 6)
        for (name, result) in zip(names, results) {
            let response = try result.get()
            #expect(response.status == 200 && SHA256.hex(response.body) == digests[name])
        }
        #expect(failure(results[5]) == .status(url: missing, code: 404))
    }

    /// `add` asks for metadata, then for archives: the second call must reuse the
    /// connections the first one opened. nginx's stub_status counts accepted connections.
    @Test func laterCallsReuseTheOpenConnections() throws {
        let (root, digests) = try makeRoot(count: 6)
        defer { try? FileManager.default.removeItem(at: root) }
        let nginx = try Nginx(root: root, serverConfig: "location = /status { stub_status; }")
        defer { nginx.stop() }
        let target = try Loopback.temporaryFolder("downloads")
        defer { try? FileManager.default.removeItem(at: target) }
        let names = digests.keys.sorted()
        let transport = CurlTransport(settings: fastTransferSettings)
        for result in transport.fetch(names.map { HTTPRequest(url: nginx.url($0)) }, maxParallel: 2) {
            _ = try result.get()
        }
        let downloads = names.map {
            HTTPDownload(request: HTTPRequest(url: nginx.url($0)), destination: target.appendingPathComponent($0), expectedSHA256: digests[$0])
        }
        for result in transport.download(downloads, maxParallel: 2, progress: nil) { _ = try result.get() }
        let status = String(decoding: try transport.get(HTTPRequest(url: nginx.url("status"))).body, as: UTF8.self)
        // "server accepts handled requests\n A H R": A connections for R requests.
        let lines = status.split(separator: "\n")
        let counts = try #require(lines.firstIndex { $0.contains("accepts") }.map { lines[$0 + 1].split(separator: " ").compactMap { Int($0) } })
        #expect(counts.count == 3 && counts[2] == 13, "\(status)")
        // A new multi handle per call would open 2 + 2 + 1 = 5 connections.
        #expect(counts[0] <= 3, "13 requests over \(counts[0]) connections")
    }

    @Test func emptyBatchIsEmpty() {
        #expect(CurlTransport().download([], maxParallel: 4, progress: nil).isEmpty)
    }
}

/// Collects progress reports.
final class ProgressReports: @unchecked Sendable {
    private let lock = NSLock()
    private var reports: [TransferProgress] = []

    var all: [TransferProgress] {
        lock.lock()
        defer { lock.unlock() }
        return reports
    }

    func append(_ report: TransferProgress) {
        lock.lock()
        reports.append(report)
        lock.unlock()
    }
}

import Foundation

/// The fault-injecting HTTP server of `fault_server.py`, on 127.0.0.1 for one test.
/// It produces what a real server rarely does on demand: resets, short bodies,
/// corrupt bytes, error statuses that clear up, `Retry-After`, stalls, redirects to
/// other schemes. The routes are listed at the top of the script.
///
/// The script exits when its stdin closes, so it cannot outlive the test process;
/// `stop()` (or releasing the value) kills it at once with SIGKILL.
final class FaultServer: @unchecked Sendable {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("fault_server.py")

    let port: Int
    private let process: TestProcess
    private let lock = NSLock()
    private var stopped = false

    var baseURL: String { "http://127.0.0.1:\(port)" }

    /// The URL of a route, such as `url("/status/mine?code=500&fail=2")`.
    func url(_ path: String) -> String { baseURL + (path.hasPrefix("/") ? path : "/" + path) }

    init() throws {
        let process = try TestProcess.start(
            URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-u", Self.script.path], input: .pipe, captureErrors: false)
        self.process = process
        guard let output = process.output, let line = Self.readLine(output.fileHandleForReading.fileDescriptor, timeoutSeconds: 10),
            let port = Int(line)
        else {
            process.stop()
            throw HarnessError("the fault server did not print its port")
        }
        self.port = port
    }

    /// The deterministic body the server sends: byte i is (i * 7 + 3) % 256.
    static func pattern(size: Int) -> Data {
        Data((0..<size).map { UInt8(truncatingIfNeeded: $0 * 7 + 3) })
    }

    func stop() {
        lock.lock()
        defer { lock.unlock() }
        guard !stopped else { return }
        stopped = true
        process.stop()
        try? process.input?.fileHandleForWriting.close()
    }

    deinit { stop() }

    /// Reads one line from a descriptor, waiting at most `timeoutSeconds` in total.
    private static func readLine(_ descriptor: Int32, timeoutSeconds: Int) -> String? {
        var bytes: [UInt8] = []
        let deadline = Date().addingTimeInterval(TimeInterval(timeoutSeconds))
        while bytes.count < 64, Date() < deadline {
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 100) >= 0 else { return nil }
            guard poller.revents != 0 else { continue }
            var byte: UInt8 = 0
            guard read(descriptor, &byte, 1) == 1 else { return nil }
            if byte == UInt8(ascii: "\n") { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(byte)
        }
        return nil
    }
}

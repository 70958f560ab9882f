import Foundation

/// A real nginx on 127.0.0.1, started from a temporary config for one test and
/// killed when the test is done (or when the value is released). It serves `root`
/// with ETags, like the static hosting a registry lives on. With `tls: true` it serves
/// https with a fresh self-signed certificate for 127.0.0.1 (`certificateFile`, which
/// a client must trust explicitly).
///
/// `master_process off` keeps nginx to one process, so SIGKILL stops all of it.
/// Foundation's `terminate()` can be ignored by a child started from a test thread
/// (its signal mask is inherited blocked), hence SIGKILL.
final class Nginx: @unchecked Sendable {
    static let executable = HostTools.nginx

    let port: Int
    let root: URL
    /// The self-signed certificate (PEM) when serving https, else nil.
    let certificateFile: URL?
    /// Holds the config, the logs and nginx's temp folders; removed by `stop()`.
    let folder: URL
    private let process: TestProcess
    private let lock = NSLock()
    private var stopped = false

    var baseURL: String { "\(certificateFile == nil ? "http" : "https")://127.0.0.1:\(port)" }

    /// The URL of a path under the root, such as `url("index.json")`.
    func url(_ path: String) -> String {
        baseURL + "/" + (path.hasPrefix("/") ? String(path.dropFirst()) : path)
    }

    /// One line of the access log (nginx's combined format:
    /// `127.0.0.1 - - [time] "GET /index.json HTTP/1.1" 304 0 "-" "agent"`), parsed.
    /// A line that does not parse keeps empty fields, so a test comparing them fails.
    struct Request: Equatable, CustomStringConvertible {
        /// The whole line, as nginx wrote it.
        let line: String
        let method: String
        let path: String
        /// The status and the body bytes sent, as logged ("200", "1234").
        let status: String
        let bytes: String

        init(line: Substring) {
            self.line = String(line)
            let parts = line.split(separator: "\"")
            let request = parts.count > 2 ? parts[1].split(separator: " ") : []
            let sent = parts.count > 2 ? parts[2].split(separator: " ") : []
            method = request.count >= 2 ? String(request[0]) : ""
            path = request.count >= 2 ? String(request[1]) : ""
            status = sent.count >= 1 ? String(sent[0]) : ""
            bytes = sent.count >= 2 ? String(sent[1]) : ""
        }

        /// "GET /path status".
        var summary: String { "\(method) \(path) \(status)" }
        var description: String { line }
    }

    /// The access log's requests once it has at least `count` (nginx writes a request's
    /// line just after its last byte is sent, so a client can finish first), waiting at
    /// most two seconds; then whatever it has. With `count` 0 it reads at once.
    func requests(atLeast count: Int = 0) -> [Request] {
        Self.logLines(folder.appendingPathComponent("access.log"), atLeast: count).map(Request.init(line:))
    }

    /// The lines of a log file nginx writes (the access log, or one a test's
    /// `access_log` names), once it has at least `count`, waiting at most two seconds.
    static func logLines(_ file: URL, atLeast count: Int = 0) -> [Substring] {
        var lines: [Substring] = []
        for _ in 0..<100 {
            lines = ((try? String(contentsOf: file, encoding: .utf8)) ?? "").split(separator: "\n")
            if lines.count >= count { break }
            usleep(20_000)
        }
        return lines
    }

    /// A log file's whole text (empty when there is none yet), read at once.
    static func logText(_ file: URL) -> String {
        (try? String(contentsOf: file, encoding: .utf8)) ?? ""
    }

    /// Starts nginx serving `root`. `serverConfig` is pasted inside the `server` block,
    /// `httpConfig` (a `log_format`, say) inside the `http` block before it.
    init(root: URL, serverConfig: String = "", httpConfig: String = "", tls: Bool = false) throws {
        self.root = root
        folder = try Loopback.temporaryFolder("nginx")
        do {
            certificateFile = tls ? try Self.makeCertificate(in: folder) : nil
        } catch {
            try? FileManager.default.removeItem(at: folder)
            throw error
        }
        var lastError = ""
        attempts: for _ in 0..<3 {
            let port = try Loopback.freePort()
            let process = try Self.launch(
                folder: folder, root: root, port: port, serverConfig: serverConfig, httpConfig: httpConfig, tls: tls)
            switch Loopback.waitUntilListening(port: port, process: process) {
            case .listening:
                self.port = port
                self.process = process
                return
            case .exited, .timedOut:
                process.stop()
                lastError = (try? String(contentsOf: folder.appendingPathComponent("error.log"), encoding: .utf8)) ?? ""
                if !lastError.contains("Address already in use") { break attempts }
            }
        }
        try? FileManager.default.removeItem(at: folder)
        throw HarnessError("nginx did not start: \(lastError)")
    }

    /// A self-signed EC certificate for 127.0.0.1, made by the openssl command.
    private static func makeCertificate(in folder: URL) throws -> URL {
        let certificate = folder.appendingPathComponent("cert.pem")
        let process = try TestProcess.start(
            URL(fileURLWithPath: "/usr/bin/env"),
            [
            "openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
            "-keyout", folder.appendingPathComponent("key.pem").path, "-out", certificate.path, "-days", "2",
            "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
            ], captureOutput: false)
        process.wait(atMost: 10, slice: 20_000)
        guard !process.isRunning, process.status == 0,
            FileManager.default.fileExists(atPath: certificate.path)
        else {
            process.stop()
            throw HarnessError("openssl could not make a test certificate")
        }
        return certificate
    }

    private static func launch(folder: URL, root: URL, port: Int, serverConfig: String, httpConfig: String, tls: Bool) throws -> TestProcess {
        for temp in ["body", "proxy", "fastcgi", "uwsgi", "scgi"] {
            try FileManager.default.createDirectory(
                at: folder.appendingPathComponent("temp/\(temp)"), withIntermediateDirectories: true)
        }
        let path = folder.path
        let config = """
            daemon off;
            master_process off;
            worker_processes 1;
            pid \(path)/nginx.pid;
            error_log \(path)/error.log warn;
            events { worker_connections 256; }
            http {
                access_log \(path)/access.log;
                client_body_temp_path \(path)/temp/body;
                proxy_temp_path \(path)/temp/proxy;
                fastcgi_temp_path \(path)/temp/fastcgi;
                uwsgi_temp_path \(path)/temp/uwsgi;
                scgi_temp_path \(path)/temp/scgi;
                types {
                    application/json json;
                    application/gzip gz;
                    application/zip zip;
                    text/plain txt swift md;
                    text/html html;
                    text/css css;
                    text/javascript js;
                    image/png png;
                }
                default_type application/octet-stream;
                sendfile on;
                etag on;
                \(httpConfig)
                server {
                    listen 127.0.0.1:\(port)\(tls ? " ssl" : "");
                    \(tls ? "ssl_certificate \(path)/cert.pem; ssl_certificate_key \(path)/key.pem;" : "")
                    root \(root.path);
                    \(serverConfig)
                }
            }

            """
        let configFile = folder.appendingPathComponent("nginx.conf")
        try config.write(to: configFile, atomically: true, encoding: .utf8)
        return try TestProcess.start(
            URL(fileURLWithPath: executable), ["-p", path, "-e", "\(path)/error.log", "-c", configFile.path], captureOutput: false)
    }

    /// Kills nginx and removes its folder (not the root). Safe to call twice.
    func stop() {
        lock.lock()
        defer { lock.unlock() }
        guard !stopped else { return }
        stopped = true
        process.stop()
        try? FileManager.default.removeItem(at: folder)
    }

    deinit { stop() }
}

/// A failure of a test harness, with the server's own words.
struct HarnessError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Small helpers for servers that tests start on the loopback interface.
enum Loopback {
    enum Readiness { case listening, exited, timedOut }

    /// A folder of its own under the temp folder.
    static func temporaryFolder(_ label: String) throws -> URL {
        // Resolved by realpath: Foundation's resolvingSymlinksInPath turns macOS's
        // /private/var back into /var, a path the tool never reports.
        let folder = HostTools.temporaryDirectory
            .appendingPathComponent("blocks-\(label)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// A port that was free a moment ago (the kernel picks it; we release it at once).
    static func freePort() throws -> Int {
        let descriptor = socket(AF_INET, HostTools.streamSocket, 0)
        guard descriptor >= 0 else { throw HarnessError("socket() failed") }
        defer { close(descriptor) }
        var address = loopbackAddress(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else { throw HarnessError("bind() failed") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard named == 0 else { throw HarnessError("getsockname() failed") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Whether something accepts TCP connections on 127.0.0.1:port right now.
    static func isListening(port: Int) -> Bool {
        let descriptor = socket(AF_INET, HostTools.streamSocket, 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var address = loopbackAddress(port: port)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }

    /// Waits (at most 200 tries, 10 s) until the port answers or the process exits.
    static func waitUntilListening(port: Int, process: TestProcess) -> Readiness {
        for _ in 0..<200 {
            if isListening(port: port) { return .listening }
            if !process.isRunning { return .exited }
            usleep(50_000)
        }
        return .timedOut
    }

    private static func loopbackAddress(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }
}

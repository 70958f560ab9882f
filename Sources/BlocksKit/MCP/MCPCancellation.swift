import Dispatch

/// Why a tool call stopped before its end: the client sent `notifications/cancelled`.
public enum MCPCancellationError: Error, Equatable, Sendable, CustomStringConvertible {
    case cancelled

    public var description: String { "the call was cancelled by the client" }
}

/// The cancelled flag of one `tools/call`, set from the thread that reads the client's
/// messages and read by the thread that runs the call. Waiters (a transfer in flight)
/// are woken when it is set, so a cancel does not wait for the network.
final class MCPCancellation: @unchecked Sendable {
    private let lock = Lock()
    private var cancelled = false
    private var waiters: [DispatchSemaphore] = []

    var isCancelled: Bool { lock.withLock { cancelled } }

    func cancel() {
        let woken: [DispatchSemaphore] = lock.withLock {
            cancelled = true
            defer { waiters = [] }
            return waiters
        }
        for waiter in woken { waiter.signal() }
    }

    func check() throws(MCPCancellationError) {
        if isCancelled { throw .cancelled }
    }

    /// Runs `work` on another thread and returns its value, or throws `cancelled` as soon
    /// as the call is cancelled, leaving `work` to end on its own (every transfer has its
    /// own time limits) with its value unused.
    func race<Value: Sendable>(_ work: @escaping @Sendable () -> Value) throws(MCPCancellationError) -> Value {
        try check()
        let done = DispatchSemaphore(value: 0)
        let box = ResultBox<Value>()
        lock.withLock { waiters.append(done) }
        DispatchQueue.global().async {
            box.set(work())
            done.signal()
        }
        done.wait()
        lock.withLock { waiters.removeAll { $0 === done } }
        guard let value = box.value, !isCancelled else { throw .cancelled }
        return value
    }

    private final class ResultBox<Value>: @unchecked Sendable {
        private let lock = Lock()
        private var stored: Value?
        var value: Value? { lock.withLock { stored } }
        func set(_ value: Value) { lock.withLock { stored = value } }
    }
}

/// The transport a tool call uses: the server's own, except that a cancelled call starts
/// no transfer and stops waiting for the one in flight. So a call stuck on a slow
/// registry ends when the client cancels it, and nothing after the transfer (a write)
/// happens.
struct CancellableTransport: HTTPTransport {
    let inner: HTTPTransport
    let cancellation: MCPCancellation

    func get(_ request: HTTPRequest) throws -> HTTPResponse {
        let inner = self.inner
        return try cancellation.race { Result { try inner.get(request) }.mapError { $0 as? HTTPError ?? .transport(url: request.url, reason: "\($0)") } }.get()
    }

    func download(
        _ downloads: [HTTPDownload], maxParallel: Int, progress: (@Sendable (TransferProgress) -> Void)?
    ) -> [Result<HTTPResponse, HTTPError>] {
        let inner = self.inner
        do {
            return try cancellation.race { inner.download(downloads, maxParallel: maxParallel, progress: progress) }
        } catch {
            return downloads.map { .failure(.transport(url: $0.request.url, reason: MCPCancellationError.cancelled.description)) }
        }
    }

    func fetch(_ requests: [HTTPRequest], maxParallel: Int) -> [Result<HTTPResponse, HTTPError>] {
        let inner = self.inner
        do {
            return try cancellation.race { inner.fetch(requests, maxParallel: maxParallel) }
        } catch {
            return requests.map { .failure(.transport(url: $0.url, reason: MCPCancellationError.cancelled.description)) }
        }
    }

    func prepare() { inner.prepare() }

    func sendingDefaultToken(to origin: HTTPOrigin?) -> HTTPTransport {
        CancellableTransport(inner: inner.sendingDefaultToken(to: origin), cancellation: cancellation)
    }
}

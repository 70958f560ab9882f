import Dispatch

/// Loads the C libraries a command is about to need on a background thread, while the
/// main thread reads the project and the registry: loading them costs milliseconds (for
/// libcurl, dlopen of about thirty libraries and its global set-up) while the second
/// core would sit idle.
///
/// Each library still loads exactly once: code that needs one before the background
/// thread is done waits for that load to finish (`swift_once` and `pthread_once`), so
/// nothing is used half-loaded and a missing library gives the usual error.
enum LibraryWarmUp {
    /// For `add` from a remote registry: libcurl first, then libnettle for the
    /// checksums, then libarchive while the requests run. Offline, nothing is fetched, so
    /// libcurl is left out: its thirty-odd libraries would only slow the other core down.
    static func start(transport: HTTPTransport, offline: Bool) {
        // Once per process: every metadata round and archive batch asks, and each extra
        // start would take a thread of its own only to wait for the first one's loads.
        guard started.claim() else { return }
        // glibc makes a thread that starts while a library loads wait for the load to
        // end (both take its loader lock), and the second metadata round starts a worker
        // while libarchive loads: one started now, before the loads, is idle by then.
        DispatchQueue.global().async {}
        DispatchQueue.global(qos: .userInitiated).async {
            if !offline { transport.prepare() }
            _ = SHA256.isLibraryAvailable
            Archives.prepare()
        }
    }

    private static let started = OnceFlag()
}

/// A flag that one caller, the first, gets to set.
final class OnceFlag: @unchecked Sendable {
    private let lock = Lock()
    private var isSet = false

    /// True for the first call only.
    func claim() -> Bool {
        lock.withLock {
            defer { isSet = true }
            return !isSet
        }
    }
}

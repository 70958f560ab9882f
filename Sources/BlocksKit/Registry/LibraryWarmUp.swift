import Dispatch

/// Loads libcurl, then libarchive, on a background thread as soon as `add` knows it will
/// download archives. Loading them (dlopen of about thirty libraries, then libcurl's
/// global set-up) takes about 6 ms, as long as all the rest of adding one block, while
/// the second core sits idle; this way libarchive loads while the requests run.
///
/// Each library still loads exactly once: code that needs one before the background
/// thread is done waits for that load to finish (`swift_once` and `pthread_once`), so
/// nothing is used half-loaded and a missing library gives the usual error.
enum LibraryWarmUp {
    static func start(transport: HTTPTransport) {
        DispatchQueue.global(qos: .userInitiated).async {
            transport.prepare()
            Archives.prepare()
        }
    }
}

/// Everything that can go wrong in a transfer, each saying what to try next.
public enum HTTPError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The server answered with an error status.
    case status(url: String, code: Int)
    /// The server answered a retryable status with a `Retry-After` longer than blocks waits.
    case retryLater(url: String, code: Int, seconds: TimeInterval, limit: TimeInterval)
    /// The transfer failed below HTTP: DNS, connect, reset, timeout, truncation.
    case transport(url: String, reason: String)
    /// The body was larger than the cap.
    case tooLarge(url: String, limit: Int64)
    /// The bytes did not hash to the SHA-256 the registry promised.
    case checksumMismatch(url: String, expected: String, actual: String)
    /// A redirect that would downgrade https to http, or leave http(s) altogether.
    case insecureRedirect(url: String)
    /// `--offline` was given and the cache has no copy.
    case offline(url: String)
    /// The file could not be written.
    case file(path: String, reason: String)
    /// A namespaced registry's header names `${VARIABLE}`, and the environment has none.
    /// `headersOf` says where the headers are written (`@acme in blocks.json`).
    case unsetVariable(url: String, variable: String, headersOf: String)
    /// A header the request would carry is unsafe to send (a line break would smuggle in a
    /// header of its own); nothing was sent, so the network is not to blame.
    case invalidHeader(url: String, reason: String)
    /// The server sent too slowly to be a registry, or took longer than the transfer's deadline.
    case tooSlow(url: String, reason: String)
    /// The server accepted the request (or never connected) and sent nothing back, in
    /// `seconds` per attempt over `attempts` attempts: our words, not libcurl's.
    case noAnswer(url: String, server: String, seconds: Int, attempts: Int)
    /// The response's headers alone were larger than the cap.
    case headerTooLarge(url: String, limit: Int)
    /// A namespaced registry answered 401 or 403 to its own headers.
    case refusedHeaders(url: String, code: Int, headersOf: String, variables: [String])

    public var description: String {
        switch self {
        case .status(let url, let code):
            let hint: String
            switch code {
            case 401, 403: hint = "check BLOCKS_TOKEN"
            case 404: hint = "check the registry URL and that the registry was built"
            case 429: hint = "the server is rate limiting; try again later"
            case 500...599: hint = "the server failed; try again later"
            default: hint = "check the registry URL"
            }
            return "GET \(url) failed with HTTP \(code); \(hint)"
        case .retryLater(let url, let code, let seconds, let limit):
            return "GET \(url) failed with HTTP \(code), and the server asks to be retried in \(RetryPolicy.spoken(seconds)),"
                + " longer than blocks waits (\(RetryPolicy.spoken(limit))); try again later"
        case .transport(let url, let reason):
            return "GET \(url) failed: \(reason); check the network"
        case .tooLarge(let url, let limit):
            return "GET \(url) was refused: the body is larger than \(limit) bytes"
        case .checksumMismatch(let url, let expected, let actual):
            // A local file (a folder registry, `add ./x.zip --sha256`) is no GET.
            let subject = url.hasPrefix("/") ? url + " has" : "GET \(url) gave"
            return "\(subject) bytes with SHA-256 \(actual), but \(expected) was expected; nothing was written"
        case .insecureRedirect(let url):
            return "GET \(url) was refused: it redirects to a scheme that is not allowed"
                + " (only http and https are followed, and https only to https); use the final URL if you trust it"
        case .offline(let url):
            return "\(url) is not in the cache and --offline forbids the network; run once online first"
        case .file(let path, let reason):
            return "could not write \(path): \(reason)"
        case .invalidHeader(let url, let reason):
            return "GET \(url) was not sent: \(reason)"
        case .tooSlow(let url, let reason):
            return "GET \(url) was stopped: \(reason); try again later, or check the registry URL"
        case .noAnswer(let url, let server, let seconds, let attempts):
            let tries = attempts == 1 ? "" : " (\(attempts) attempts)"
            return "\(server) did not answer within \(seconds) s\(tries) for GET \(url); check the address, or try again later"
        case .headerTooLarge(let url, let limit):
            return "GET \(url) was refused: the response's headers are over \(limit) bytes, more than any registry sends"
        case .refusedHeaders(let url, let code, let headersOf, let variables):
            let check = variables.isEmpty ? "the headers of \(headersOf)" : variables.joined(separator: ", ") + " (used by the headers of \(headersOf))"
            return "GET \(url) failed with HTTP \(code); check \(check)"
        case .unsetVariable(let url, let variable, let headersOf):
            return "GET \(url) needs \(variable), which is not set: a header of \(headersOf) uses ${\(variable)}; export \(variable) and run again"
        }
    }
}

/// A registry a project names in `blocks.json`'s `registries`, under a namespace such as
/// `@acme`: where it is and the headers its requests carry. The headers are kept as
/// written, `${VARIABLE}` and all, and expanded only when a request is made
/// (`HeaderTemplate.expand`), so the secrets they name never sit in a value that could be
/// printed, cached or written back.
public struct NamespacedRegistry: Sendable, Equatable {
    /// `@` and a slug: lowercase letters, digits and single dashes.
    public var namespace: String
    /// A location as `--registry` takes it: a URL, a folder or an archive.
    public var url: String
    /// Header names and their values as written, in name order.
    public var headers: [HeaderTemplate]
    /// Where the headers are written, for messages: `@acme in blocks.json`, or the
    /// command line's `--header` for a registry named by URL.
    public var headersOf: String
    /// The public keys it must be signed by; empty when unsigned.
    public var keys: [MinisignPublicKey]

    public init(namespace: String, url: String, headers: [HeaderTemplate] = [], headersOf: String? = nil, keys: [MinisignPublicKey] = []) {
        self.namespace = namespace
        self.url = url
        self.headers = headers.sorted { $0.name < $1.name }
        self.headersOf = headersOf ?? "\(namespace) in blocks.json"
        self.keys = keys
    }

    /// Whether `text` is a namespace: `@` and a block-name slug, as in `@acme`.
    public static func isValidNamespace(_ text: String) -> Bool { BlockReference.isValidNamespace(text) }

    /// A header name as RFC 9110 allows it: one or more token characters.
    public static func isValidHeaderName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 100
            && name.unicodeScalars.allSatisfy {
                $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "!#$%&'*+-.^_`|~".unicodeScalars.contains($0))
            }
    }
}

/// One header of a namespaced registry as written in `blocks.json`, such as
/// `Authorization: Bearer ${ACME_TOKEN}`.
public struct HeaderTemplate: Sendable, Equatable {
    public var name: String
    public var value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }

    /// `Name: value`, as `blocks registry add --header` takes it; nil without a colon or
    /// with a name that is not a header name.
    public init?(line: String) {
        guard let colon = line.firstIndex(of: ":") else { return nil }
        let name = line[..<colon].trimmingWhitespace()
        guard NamespacedRegistry.isValidHeaderName(name) else { return nil }
        self.init(name: name, value: line[line.index(after: colon)...].trimmingWhitespace())
    }

    /// The variables the value names with `${NAME}`, in order.
    public var variables: [String] {
        (try? Self.pieces(of: value).compactMap { piece -> String? in
            if case .variable(let name) = piece { return name }
            return nil
        }) ?? []
    }

    /// The value with every `${NAME}` replaced from `environment`. A variable that is not
    /// set is an error naming it; an empty one expands to nothing, as in a shell.
    public func expand(environment: [String: String]) throws(TemplateProblem) -> String {
        var text = ""
        for piece in try Self.pieces(of: value) {
            switch piece {
            case .literal(let literal): text += literal
            case .variable(let name):
                guard let value = environment[name] else { throw .unset(name) }
                text += value
            }
        }
        return text
    }

    /// What is wrong with a header value.
    public enum TemplateProblem: Error, Equatable, Sendable {
        /// `${NAME}` names a variable the environment does not have.
        case unset(String)
        /// `${` without a closing `}`, or a name that is not `[A-Za-z_][A-Za-z0-9_]*`.
        case malformed(String)
    }

    enum Piece: Equatable {
        case literal(String)
        case variable(String)
    }

    /// The value split into literal text and `${NAME}` references. A `$` not followed by
    /// `{` is literal text.
    static func pieces(of value: String) throws(TemplateProblem) -> [Piece] {
        var pieces: [Piece] = []
        var rest = Substring(value)
        while let start = rest.firstRange(of: "${") {
            if start.lowerBound > rest.startIndex { pieces.append(.literal(String(rest[..<start.lowerBound]))) }
            let after = rest[start.upperBound...]
            guard let close = after.firstIndex(of: "}") else { throw .malformed(value) }
            let name = String(after[..<close])
            guard let first = name.unicodeScalars.first, first == "_" || (first.isASCII && first.properties.isAlphabetic),
                name.unicodeScalars.allSatisfy({ $0 == "_" || ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) })
            else { throw .malformed(value) }
            pieces.append(.variable(name))
            rest = after[after.index(after: close)...]
        }
        if !rest.isEmpty { pieces.append(.literal(String(rest))) }
        return pieces
    }
}

/// The transport a namespaced registry's source reads through: every request to the
/// registry's own origin gets its headers, expanded from the environment at that moment,
/// and no request gets `BLOCKS_TOKEN`, the default registry's credential. A request to
/// any other origin (an archive a registry hosts elsewhere) goes without them, and
/// `CurlTransport` drops them when a redirect leaves the origin.
struct NamespaceTransport: HTTPTransport {
    let base: HTTPTransport
    let registry: NamespacedRegistry
    let origin: HTTPOrigin?
    let environment: [String: String]

    init(base: HTTPTransport, registry: NamespacedRegistry, environment: [String: String]) {
        self.base = base
        self.registry = registry
        self.origin = HTTPOrigin(registry.url)
        self.environment = environment
    }

    /// The request with the registry's headers when it goes to the registry's origin.
    func credentialed(_ request: HTTPRequest) -> Result<HTTPRequest, HTTPError> {
        var request = request
        request.sendsDefaultToken = false
        guard let origin, HTTPOrigin(request.url) == origin else { return .success(request) }
        var headers: [HTTPHeader] = []
        for header in registry.headers {
            switch Result(catching: { () throws(HeaderTemplate.TemplateProblem) in try header.expand(environment: environment) }) {
            case .success(let value): headers.append(HTTPHeader(name: header.name, value: value))
            case .failure(.unset(let variable)):
                return .failure(.unsetVariable(url: request.url, variable: variable, headersOf: registry.headersOf))
            case .failure(.malformed):
                return .failure(.transport(url: request.url, reason: "the header \(header.name) of \(registry.headersOf) has a malformed ${...}"))
            }
        }
        request.headers = headers
        return .success(request)
    }

    /// A 401 or 403 names this namespace's variables, not `BLOCKS_TOKEN`, which it never sends.
    func explained(_ error: HTTPError) -> HTTPError {
        guard case .status(let url, let code) = error, code == 401 || code == 403 else { return error }
        return .refusedHeaders(
            url: url, code: code, headersOf: registry.headersOf,
            variables: registry.headers.flatMap(\.variables).reduce(into: []) { if !$0.contains($1) { $0.append($1) } })
    }

    func get(_ request: HTTPRequest) throws -> HTTPResponse {
        do {
            return try base.get(try credentialed(request).get())
        } catch let error as HTTPError {
            throw explained(error)
        }
    }

    func download(
        _ downloads: [HTTPDownload], maxParallel: Int, progress: (@Sendable (TransferProgress) -> Void)?
    ) -> [Result<HTTPResponse, HTTPError>] {
        var ready: [HTTPDownload] = []
        var failures: [Int: HTTPError] = [:]
        for (position, download) in downloads.enumerated() {
            switch credentialed(download.request) {
            case .success(let request):
                var download = download
                download.request = request
                ready.append(download)
            case .failure(let error): failures[position] = error
            }
        }
        guard failures.isEmpty else { return downloads.indices.map { .failure(failures[$0] ?? failures.values.first!) } }
        return base.download(ready, maxParallel: maxParallel, progress: progress).map { $0.mapError(explained) }
    }

    func fetch(_ requests: [HTTPRequest], maxParallel: Int) -> [Result<HTTPResponse, HTTPError>] {
        let prepared = requests.map(credentialed)
        if let failure = prepared.first(where: { if case .failure = $0 { true } else { false } }), case .failure(let error) = failure {
            return requests.map { _ in .failure(error) }
        }
        return base.fetch(prepared.map { try! $0.get() }, maxParallel: maxParallel).map { $0.mapError(explained) }
    }

    func prepare() { base.prepare() }
}

extension RegistryAccess {
    /// This access reading through `registry`'s own headers, and never `BLOCKS_TOKEN`:
    /// how every request to a namespaced (or `--header`) registry is made.
    func readingThrough(_ registry: NamespacedRegistry) -> RegistryAccess {
        var own = self
        own.transport = NamespaceTransport(base: transport, registry: registry, environment: environment)
        return own
    }
}

/// Problems with a project's namespaced registries and the names that pick among them.
public enum NamespaceError: Error, Equatable, Sendable, CustomStringConvertible {
    /// `@acme/pager` or `--registry @acme`, and `blocks.json` has no `@acme`.
    case unknownNamespace(String, configured: [String])
    /// `blocks registry remove @acme`, and `blocks.json` has no `@acme`: the ones it has.
    case notConfigured(String, configured: [String])
    /// An unnamespaced name that more than one registry has: each candidate, spelled as
    /// it must be typed, with where it comes from.
    case ambiguous(name: String, candidates: [String])
    /// `blocks registry add` of a namespace that is already there.
    case alreadyConfigured(String, url: String)
    /// A namespace that is not `@` and a slug.
    case invalidNamespace(String)
    /// A `--header` that is not `Name: value`, or whose value's `${...}` is malformed.
    case invalidHeader(String)

    public var description: String {
        switch self {
        case .unknownNamespace(let namespace, let configured):
            let known = configured.isEmpty ? "blocks.json has no registries" : "blocks.json has " + configured.joined(separator: ", ")
            return "no registry named \(namespace): \(known); add it with 'blocks registry add \(namespace) URL'"
        case .notConfigured(let namespace, let configured):
            let known = configured.isEmpty ? "blocks.json has no registries" : "blocks.json has " + configured.joined(separator: ", ")
            return "no registry named \(namespace) to remove: \(known)"
        case .ambiguous(let name, let candidates):
            return "'\(name)' is in more than one registry; name the one you mean:\n"
                + candidates.map { "  \($0)" }.joined(separator: "\n")
        case .alreadyConfigured(let namespace, let url):
            return "\(namespace) is already a registry of this project (\(url)); run 'blocks registry remove \(namespace)' first to change it"
        case .invalidNamespace(let text):
            return "'\(text)' is not a namespace: it is @ and lowercase letters, digits and dashes, as in @acme"
        case .invalidHeader(let text):
            return
                "'\(text)' is not a header: write it as \"Name: value\", with ${VARIABLE} for a value from the environment (the header name itself is printed, never its expanded value)"
        }
    }
}

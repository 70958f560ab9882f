/// Registries kept in a Git repository: `git+https://host/org/repo@ref#path`,
/// `git+file:///srv/repo@ref`, `git+ssh://…`. The ref is a branch, a tag or a commit (the
/// remote's default branch when left out); `#path` is the folder of the repository that
/// holds the catalog or the built registry (its top when left out).
///
/// It runs the user's own `git`, so their credential helpers and SSH keys work and blocks
/// never holds a password: a location with one is refused, because the location is
/// written to `blocks.lock`. Each location and ref has its own shallow fetch in the cache,
/// checked out into a folder the rest of the tool reads like any other registry folder.
public struct GitSource: RegistrySourceKind {
    public let schemes = ["git+https", "git+http", "git+ssh", "git+file"]

    /// How long one `git` run may take before it is stopped.
    static let timeout = 300.0

    /// What a location names.
    struct Location: Equatable {
        /// The repository's URL as `git` takes it (`https://…`, `file:///…`).
        var repository: String
        /// The branch, tag or commit; nil for the remote's default branch.
        var ref: String?
        /// The registry's folder inside the repository, or "" for its top.
        var folder: String

        init(_ text: String) throws(PluginError) {
            let fail = { (reason: String) in PluginError.sourceFailed(location: text, reason: reason) }
            guard text.lowercased().hasPrefix("git+") else { throw fail("a Git registry is written git+https://host/repo@ref#folder") }
            var rest = String(text.dropFirst("git+".count))
            folder = ""
            if let hash = rest.firstIndex(of: "#") {
                folder = rest[rest.index(after: hash)...].split(separator: "/").joined(separator: "/")
                rest = String(rest[..<hash])
                guard folder.isEmpty || RelativePath.isSafe(folder) else { throw fail("#\(folder) is not a folder inside the repository") }
            }
            guard let separator = rest.firstRange(of: "://") else { throw fail("a Git registry is written git+https://host/repo@ref#folder") }
            let scheme = String(rest[..<separator.lowerBound])
            let afterScheme = rest[separator.upperBound...]
            let authority = afterScheme.prefix { $0 != "/" }
            var path = String(afterScheme.dropFirst(authority.count))
            // user:password@host: the lock would keep the password; over http(s) a lone user
            // name is as often a token. git+ssh://git@host:2222 is fine.
            if let at = authority.lastIndex(of: "@") {
                let isHTTP = scheme.lowercased().hasPrefix("http")
                if isHTTP || authority[..<at].contains(":") {
                    throw fail("it holds \(isHTTP ? "user information" : "a password"), which blocks.lock would keep; let git's credential helper or SSH key supply it")
                }
            }
            ref = nil
            if let at = path.lastIndex(of: "@") {
                let named = String(path[path.index(after: at)...])
                path = String(path[..<at])
                guard !named.isEmpty, !named.hasPrefix("-"), !named.contains(".."), !named.contains(where: \.isWhitespace),
                    TerminalText.firstControl(in: named) == nil
                else { throw fail("@\(named) is not a branch, tag or commit") }
                ref = named
            }
            guard !path.isEmpty else { throw fail("it names no repository") }
            repository = scheme + "://" + authority + path
        }

        /// The transport `git` may use for it, and no other (`protocol.allow`).
        var transportScheme: String { String(repository.prefix { $0 != ":" }).lowercased() }
    }

    public init() {}

    public func folder(for location: String, cacheFolder: URL, offline: Bool, environment: [String: String]) throws -> URL {
        let parsed = try Location(location)
        let key = String(SHA256.hex(parsed.repository + "\n" + (parsed.ref ?? "")).prefix(24))
        let base = cacheFolder.appendingPathComponent("git")
        let tree = base.appendingPathComponent(key)
        let marker = base.appendingPathComponent(key + ".fetched")
        let registry = parsed.folder.isEmpty ? tree : tree.appendingPathComponent(parsed.folder)
        if offline {
            guard FileManager.default.fileExists(atPath: marker.path) else {
                throw PluginError.sourceFailed(location: location, reason: "it was never fetched, and --offline reads only what the cache holds; run once without --offline")
            }
            return registry
        }
        try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        let lock = try FetchLock.wait(base.appendingPathComponent(key + ".lock").path, location: location)
        defer { withExtendedLifetime(lock) {} }
        let gitFolder = base.appendingPathComponent(key + ".git").path
        let git = Runner(location: location, gitFolder: gitFolder, environment: environment, scheme: parsed.transportScheme)
        if !FileManager.default.fileExists(atPath: gitFolder) {
            try git.run(["init", "--quiet", "--bare", gitFolder], inRepository: false)
        }
        try git.run(["fetch", "--quiet", "--depth=1", "--no-tags", "--", parsed.repository, parsed.ref ?? "HEAD"])
        try FileManager.default.createDirectory(at: tree, withIntermediateDirectories: true)
        try git.run(["--work-tree=" + tree.path, "checkout", "--force", "--quiet", "FETCH_HEAD"])
        try AtomicFile.write(Data(try git.run(["rev-parse", "FETCH_HEAD"]).utf8), to: marker)
        guard PathKind(registry.path) == .folder else {
            throw PluginError.sourceFailed(location: location, reason: "the repository has no folder \(parsed.folder)")
        }
        return registry
    }

    /// The variables that point git at a repository (`git rev-parse --local-env-vars`),
    /// which a hook sets for the user's own; each run here names the cache's repository.
    static let repositoryVariables = [
        "GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_CONFIG", "GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT", "GIT_OBJECT_DIRECTORY", "GIT_DIR",
        "GIT_WORK_TREE", "GIT_IMPLICIT_WORK_TREE", "GIT_GRAFT_FILE", "GIT_INDEX_FILE", "GIT_NO_REPLACE_OBJECTS", "GIT_REPLACE_REF_BASE",
        "GIT_PREFIX", "GIT_INTERNAL_SUPER_PREFIX", "GIT_SHALLOW_FILE", "GIT_COMMON_DIR",
    ]

    /// Runs the user's `git` on the cache's repository: never asking for a password on the
    /// terminal, allowed only the location's own transport, bounded in time and output.
    private struct Runner {
        var location: String
        var gitFolder: String
        var environment: [String: String]
        var scheme: String

        @discardableResult
        func run(_ arguments: [String], inRepository: Bool = true) throws -> String {
            var environment = environment
            // Run from a git hook, blocks inherits the user's repository (its index file,
            // object folder, work tree): git would check the registry out into them.
            for name in GitSource.repositoryVariables { environment[name] = nil }
            environment["GIT_TERMINAL_PROMPT"] = "0"
            environment["BLOCKS_TOKEN"] = nil
            let options = ["-c", "protocol.allow=never", "-c", "protocol.\(scheme).allow=always"] + (inRepository ? ["--git-dir=" + gitFolder] : [])
            let executable = ExternalPlugin.resolve("git", path: environment["PATH"])
            let exchange: ChildProcess.Exchange
            do {
                exchange = try ChildProcess.exchange(
                    executable, arguments: options + arguments, input: [], environment: environment, workingDirectory: nil,
                    timeout: GitSource.timeout, outputLimit: 1 << 20, errorLimit: 16_384)
            } catch {
                throw PluginError.sourceFailed(location: location, reason: "git could not run (\(error)); install Git, or put it on PATH")
            }
            if exchange.stopped == .timedOut {
                throw PluginError.sourceFailed(location: location, reason: "git did not finish within \(Int(GitSource.timeout)) s")
            }
            guard exchange.exitCode == 0 else {
                let said = TerminalText.escaped(String(decoding: exchange.errors, as: UTF8.self).trimmingWhitespace())
                let advice = ProgramPaths.missingDeveloperToolsAdvice(said).map { "; " + $0 } ?? ""
                throw PluginError.sourceFailed(location: location, reason: "git \(arguments[0]) failed: \(said.prefix(500))\(advice)")
            }
            return String(decoding: exchange.output, as: UTF8.self).trimmingWhitespace()
        }
    }
}

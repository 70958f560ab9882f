/// Path rules that keep every write inside the project: lexical checks for `..` and
/// absolute paths, and a real-path check so a symbolic link cannot lead outside.
public enum ProjectPaths {
    /// The path of `url` relative to `root`, or nil when it is not inside (or is the root).
    public static func relative(_ url: URL, to root: URL) -> String? {
        let path = url.standardizedFileURL.path
        let base = root.standardizedFileURL.path
        let prefix = base.hasSuffix("/") ? base : base + "/"
        guard path.hasPrefix(prefix), path.count > prefix.count else { return nil }
        return String(path.dropFirst(prefix.count))
    }

    /// True when `url`, with every symbolic link in its existing part resolved, is
    /// still inside the project root (or is the root itself).
    public static func staysInside(_ url: URL, root: URL) -> Bool {
        PathResolver(root: root).staysInside(url)
    }

    /// A relative path with its `.` and `..` parts resolved lexically ("" for the folder
    /// itself), or nil when it is absolute or climbs above the folder it is relative to.
    public static func normalizedRelative(_ path: String) -> String? {
        guard !path.hasPrefix("/"), !path.contains("\0") else { return nil }
        var parts: [Substring] = []
        for part in path.split(separator: "/") where part != "." {
            if part == ".." {
                guard !parts.isEmpty else { return nil }
                parts.removeLast()
            } else {
                parts.append(part)
            }
        }
        return parts.joined(separator: "/")
    }

    static func entryExists(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0
    }

    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}

/// Resolves paths against one project root and remembers what it learned, so planning
/// fifty new blocks resolves the project's folders once rather than once per file
/// (`realpath` costs a `readlink` per component). Use one for one plan: the answers are
/// only true while nothing is written.
final class PathResolver {
    let root: URL
    private let realRoot: String?
    private var realPaths: [String: String?] = [:]
    private var kinds: [String: PathKind] = [:]
    /// `admits`' answer for each parent folder asked about: a block's files share a few.
    private var admittedParents: [String: Bool] = [:]

    init(root: URL) {
        self.root = root
        realRoot = ProjectPaths.realPath(root.standardizedFileURL.path)
    }

    /// True when `url`, with every symbolic link in its existing part resolved, is
    /// still inside the project root (or is the root itself).
    func staysInside(_ url: URL) -> Bool {
        guard let realRoot else { return false }
        var existing = url.standardizedFileURL.path
        while existing.count > 1 && existing.hasSuffix("/") { existing.removeLast() }
        var missing: [Substring] = []
        // lstat first: a path that is not there costs one call, not realpath's walk.
        var resolved: String
        while true {
            if let real = realPath(ofExisting: existing) {
                resolved = real
                break
            }
            guard let slash = existing.lastIndex(of: "/"), existing != "/" else { return false }
            missing.insert(existing[existing.index(after: slash)...], at: 0)
            existing = slash == existing.startIndex ? "/" : String(existing[..<slash])
        }
        let full = missing.reduce(resolved) { $0 + "/" + $1 }
        return full == realRoot || full.hasPrefix(realRoot.hasSuffix("/") ? realRoot : realRoot + "/")
    }

    /// The one guard for a path that blocks writes or deletes, shared by `add` (each file
    /// it plans), `remove` and the lock reader (every path a lock names): `relative` is a
    /// plain path inside the root (`RelativePath.isSafe`: not absolute, no `..`)
    /// and the folder holding it, with every symbolic link resolved, is inside the root too.
    /// The entry itself is not followed: rename, unlink and rmdir act on a link, never on
    /// what it points to, so a link there cannot lead a write or a delete outside.
    func admits(_ relative: String) -> Bool {
        guard RelativePath.isSafe(relative) else { return false }
        let parent = relative.lastIndex(of: "/").map { String(relative[..<$0]) } ?? ""
        if let known = admittedParents[parent] { return known }
        let base = root.standardizedFileURL.path
        let admitted = staysInside(URL(fileURLWithPath: base.hasSuffix("/") ? base + parent : base + "/" + parent, isDirectory: true))
        admittedParents[parent] = admitted
        return admitted
    }

    /// What `path` names, following links, asked of the file system once.
    func kind(of path: String) -> PathKind {
        if let known = kinds[path] { return known }
        let kind = PathKind(path)
        kinds[path] = kind
        return kind
    }

    /// The real path of `path` when an entry (even a dangling link) is there and resolves.
    private func realPath(ofExisting path: String) -> String? {
        if let known = realPaths[path] { return known }
        let real = ProjectPaths.entryExists(path) ? ProjectPaths.realPath(path) : nil
        realPaths[path] = real
        return real
    }
}

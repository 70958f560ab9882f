#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

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
        guard let realRoot = realPath(root.standardizedFileURL.path) else { return false }
        var existing = url.standardizedFileURL
        var missing: [String] = []
        // lstat first: a path that is not there costs one call, not realpath's walk
        // (a readlink per component) for every missing folder of every planned file.
        var resolved: String
        while true {
            if entryExists(existing.path), let real = realPath(existing.path) {
                resolved = real
                break
            }
            let parent = existing.deletingLastPathComponent()
            if parent.path == existing.path { return false }
            missing.insert(existing.lastPathComponent, at: 0)
            existing = parent
        }
        let full = missing.reduce(resolved) { $0 + "/" + $1 }
        return full == realRoot || full.hasPrefix(realRoot.hasSuffix("/") ? realRoot : realRoot + "/")
    }

    /// A block name that is safe as a folder name: lowercase letters, digits and dashes.
    public static func isValidBlockName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, name.count <= 100 else { return false }
        let allowed = { (scalar: Unicode.Scalar) in
            ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "-"
        }
        return first != "-" && name.unicodeScalars.allSatisfy(allowed)
    }

    /// A file path from a manifest that stays inside the block's folder: relative,
    /// no `..` or `.` parts, no empty parts, no backslashes.
    public static func isSafeRelativeFile(_ path: String) -> Bool {
        guard !path.isEmpty, !path.hasPrefix("/"), !path.contains("\\"), !path.contains("\0") else { return false }
        return path.split(separator: "/", omittingEmptySubsequences: false).allSatisfy { part in
            !part.isEmpty && part != "." && part != ".."
        }
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

/// Problems with a catalog folder or one of its manifests.
public enum CatalogError: Error, Equatable, Sendable, CustomStringConvertible {
    case invalidManifest(file: String, problems: [String])
    case lintFailed(problemCount: Int)
    case notACatalog(path: String)
    case blockExists(path: String)

    public var description: String {
        switch self {
        case .invalidManifest(let file, let problems):
            let first = problems.first ?? "\(file): not valid JSON"
            let more = problems.count > 1 ? " (and \(problems.count - 1) more; run 'blocks lint')" : ""
            return first.hasPrefix(file) ? first + more : "\(file): \(first)\(more)"
        case .lintFailed(let count):
            return "lint found \(count) problem\(count == 1 ? "" : "s")"
        case .blockExists(let path):
            return "\(path) already exists; choose another name or remove it first"
        case .notACatalog(let path):
            return "\(path) holds no <name>/block.json folders; point at a catalog folder"
        }
    }
}

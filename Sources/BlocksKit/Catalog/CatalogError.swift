/// Problems with a catalog folder or one of its manifests.
public enum CatalogError: Error, Equatable, Sendable, CustomStringConvertible {
    case invalidManifest(file: String, problems: [String])
    /// `report` is lint's `--json` object, printed with the error's (`JSONReportingError`).
    case lintFailed(problemCount: Int, report: [String: JSONValue] = [:])
    case notACatalog(path: String)
    /// The catalog folder is not there: `folder` is the one searched, `given` tells
    /// whether the user named it or `./Catalog` was assumed.
    case missingCatalog(folder: String, given: Bool)
    case blockExists(path: String)

    public var description: String {
        switch self {
        case .invalidManifest(let file, let problems):
            let first = problems.first ?? "\(file): not valid JSON"
            let more = problems.count > 1 ? " (and \(problems.count - 1) more; run 'blocks lint')" : ""
            return first.hasPrefix(file) ? first + more : "\(file): \(first)\(more)"
        case .lintFailed(let count, _):
            return "lint found \(count) problem\(count == 1 ? "" : "s")"
        case .blockExists(let path):
            return "\(path) already exists; choose another name or remove it first"
        case .missingCatalog(let folder, given: false):
            return "no Catalog folder was found in \(folder); run 'blocks lint DIR' with the folder that holds "
                + "your <name>/block.json folders"
        case .missingCatalog(let folder, given: true):
            return "\(folder) is not a folder; give 'blocks lint' the folder that holds your <name>/block.json folders"
        case .notACatalog(let path):
            return "\(path) holds no <name>/block.json folders; point at a catalog folder"
        }
    }
}

extension CatalogError: JSONReportingError {
    public var jsonMembers: [String: JSONValue] {
        if case .lintFailed(_, let report) = self { return report }
        return [:]
    }
}

/// What a block needs besides its own files, as `block.json`'s `dependencies` says it:
/// other blocks (by name or `@namespace/name`, optionally with a version requirement,
/// `"tab-indicator@^1.2"`) and Swift packages. `add` brings the blocks along and adds the
/// packages to `Package.swift`.
public struct BlockDependencies: Sendable, Equatable {
    /// `name`, `@namespace/name`, each optionally followed by `@REQUIREMENT`.
    public var blocks: [String]
    public var packages: [PackageDependency]

    public init(blocks: [String] = [], packages: [PackageDependency] = []) {
        self.blocks = blocks
        self.packages = packages
    }

    var isEmpty: Bool { blocks.isEmpty && packages.isEmpty }

    private enum Key {
        static let blocks = "blocks"
        static let packages = "packages"
    }

    /// Either list may be absent; an empty one is left out when written.
    init(fields: JSONFields) throws(JSONFields.Problem) {
        blocks = fields.members[Key.blocks] == nil ? [] : try fields.strings(Key.blocks)
        packages = []
        if fields.members[Key.packages] != nil {
            for package in try fields.objects(Key.packages) { packages.append(try PackageDependency(fields: package)) }
        }
    }

    var jsonValue: JSONValue {
        var members: [String: JSONValue] = [:]
        if !blocks.isEmpty { members[Key.blocks] = JSONFields.jsonArray(blocks) }
        if !packages.isEmpty { members[Key.packages] = .array(packages.map(\.jsonValue)) }
        return .object(members)
    }

    /// Each block dependency parsed; the first that does not parse is the error.
    public func blockRequirements() throws(DependencyError) -> [BlockRequirement] {
        try blocks.map { (text) throws(DependencyError) in
            guard let requirement = BlockRequirement(text) else { throw .malformedRequirement(text) }
            return requirement
        }
    }
}

/// A Swift package a block needs: SwiftPM's own terms, a URL and `from` (up to the next
/// major version) or `exact`, and the products the block's code imports.
public struct PackageDependency: Sendable, Equatable {
    public var url: String
    public var from: String?
    public var exact: String?
    public var products: [String]

    public init(url: String, from: String? = nil, exact: String? = nil, products: [String]) {
        self.url = url
        self.from = from
        self.exact = exact
        self.products = products
    }

    private enum Key {
        static let url = "url"
        static let from = "from"
        static let exact = "exact"
        static let products = "products"
    }

    init(fields: JSONFields) throws(JSONFields.Problem) {
        self.init(
            url: try fields.string(Key.url), from: try fields.optionalString(Key.from), exact: try fields.optionalString(Key.exact),
            products: try fields.strings(Key.products))
    }

    /// Without `from` or `exact` when it has none.
    var jsonValue: JSONValue {
        var members: [String: JSONValue] = [Key.url: .string(url), Key.products: JSONFields.jsonArray(products)]
        if let from { members[Key.from] = .string(from) }
        if let exact { members[Key.exact] = .string(exact) }
        return .object(members)
    }

    /// The name SwiftPM gives a package from its URL: the last path component without `.git`.
    public var identity: String { PackageValueGrammar.identity(of: url) }

    /// What is wrong with it, or nil: the first of `problems`.
    public var problem: String? { problems.first.map(\.message) }

    /// Everything wrong with it, each with its field (`url`, `from`, `products[1]`; empty
    /// for the package as a whole): the URL, exactly one of `from` and `exact`, and at
    /// least one product, each in its own grammar (`PackageValueGrammar`), since every one
    /// of them reaches `swift package`'s command line.
    public var problems: [(field: String, message: String)] {
        var found: [(field: String, message: String)] = []
        if let problem = PackageValueGrammar.urlProblem(url) { found.append(("url", problem)) }
        switch (from, exact) {
        case (let version?, nil):
            if let problem = PackageValueGrammar.versionProblem(version) { found.append(("from", problem)) }
        case (nil, let version?):
            if let problem = PackageValueGrammar.versionProblem(version) { found.append(("exact", problem)) }
        default: found.append(("", "\(url) needs exactly one of \"from\" and \"exact\""))
        }
        if products.isEmpty { found.append(("products", "\(url) names no product")) }
        for (index, product) in products.enumerated() {
            if let problem = PackageValueGrammar.productProblem(product) { found.append(("products[\(index)]", problem)) }
        }
        return found
    }
}

/// `tab-indicator`, `@acme/pager`, `tab-indicator@^1.2`: a block and the versions of it
/// that will do.
public struct BlockRequirement: Sendable, Equatable, CustomStringConvertible {
    public var reference: BlockReference
    public var versions: VersionRequirement

    public init(reference: BlockReference, versions: VersionRequirement = .any) {
        self.reference = reference
        self.versions = versions
    }

    /// Nil when the name or the requirement does not parse.
    public init?(_ text: String) {
        let searchFrom = text.hasPrefix("@") ? text.index(after: text.startIndex) : text.startIndex
        let at = text[searchFrom...].firstIndex(of: "@")
        guard let reference = BlockReference(String(text[..<(at ?? text.endIndex)])) else { return nil }
        var versions = VersionRequirement.any
        if let at {
            guard let parsed = VersionRequirement(String(text[text.index(after: at)...])) else { return nil }
            versions = parsed
        }
        self.init(reference: reference, versions: versions)
    }

    public var description: String { versions == .any ? reference.description : "\(reference)@\(versions)" }
}

/// Which versions of a block a dependency accepts, in npm's and SwiftPM's familiar terms:
/// `^1.2` (1.2.0 up to, not including, 2.0.0; `^0.3` stays below 0.4), `~1.2` (below 1.3),
/// `>=1.2`, an exact `1.2.3`, or any.
public enum VersionRequirement: Sendable, Equatable, CustomStringConvertible {
    case any
    case exact(String)
    case caret(String)
    case tilde(String)
    case atLeast(String)

    /// Nil when it is none of the forms; a partial version (`1`, `1.2`) is padded with zeros.
    public init?(_ text: String) {
        func version(_ rest: Substring) -> String? {
            let parts = rest.split(separator: ".", omittingEmptySubsequences: false)
            guard (1...3).contains(parts.count) else { return ManifestValidator.isSemanticVersion(String(rest)) ? String(rest) : nil }
            let padded = (parts.map(String.init) + ["0", "0"]).prefix(3).joined(separator: ".")
            return ManifestValidator.isSemanticVersion(padded) ? padded : nil
        }
        if text == "*" {
            self = .any
            return
        }
        if text.hasPrefix(">="), let v = version(text.dropFirst(2)) {
            self = .atLeast(v)
            return
        }
        if text.hasPrefix("^"), let v = version(text.dropFirst()) {
            self = .caret(v)
            return
        }
        if text.hasPrefix("~"), let v = version(text.dropFirst()) {
            self = .tilde(v)
            return
        }
        if ManifestValidator.isSemanticVersion(text) {
            self = .exact(text)
            return
        }
        return nil
    }

    public var description: String {
        switch self {
        case .any: return "*"
        case .exact(let v): return v
        case .caret(let v): return "^" + v
        case .tilde(let v): return "~" + v
        case .atLeast(let v): return ">=" + v
        }
    }

    /// Whether a published version meets the requirement.
    public func isSatisfied(by version: String) -> Bool {
        switch self {
        case .any: return true
        case .exact(let wanted): return VersionComparison.compare(version, wanted) == 0
        case .atLeast(let lowest): return VersionComparison.compare(version, lowest) >= 0
        case .caret(let lowest), .tilde(let lowest):
            guard VersionComparison.compare(version, lowest) >= 0 else { return false }
            let low = lowest.split(separator: ".").prefix(3).compactMap { Int($0.prefix { $0.isNumber }) }
            guard low.count == 3 else { return false }
            let upper: [Int]
            if case .tilde = self {
                upper = [low[0], low[1] + 1, 0]
            } else if low[0] > 0 {
                upper = [low[0] + 1, 0, 0]
            } else if low[1] > 0 {
                upper = [0, low[1] + 1, 0]
            } else {
                upper = [0, 0, low[2] + 1]
            }
            return VersionComparison.compare(version, upper.map(String.init).joined(separator: ".")) < 0
        }
    }
}

/// Problems with what blocks depend on.
public enum DependencyError: Error, Equatable, Sendable, CustomStringConvertible {
    case malformedRequirement(String)
    /// Blocks that need each other, in the order the cycle runs, the first again at the end.
    case cycle([String])
    /// No published version meets what the dependents ask for.
    case unsatisfiable(block: String, requirement: String, requiredBy: String, available: [String])

    public var description: String {
        switch self {
        case .malformedRequirement(let text):
            return "'\(text)' is not a block dependency: write a name or @namespace/name, optionally with @VERSION, @^1.2, @~1.2 or @>=1.2"
        case .cycle(let names):
            return "the blocks depend on each other in a cycle: " + names.joined(separator: " -> ") + "; nothing was added"
        case .unsatisfiable(let block, let requirement, let requiredBy, let available):
            return
                "\(requiredBy) needs \(block)@\(requirement), but no published version meets it (there are \(available.joined(separator: ", "))); nothing was added"
        }
    }
}

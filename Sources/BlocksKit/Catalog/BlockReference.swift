/// A block as a command line or a dependency names it: `pager`, or `@acme/pager` for the
/// block `pager` of the registry `blocks.json` calls `@acme`. The same name in two
/// namespaces is two blocks; the lock keys a block by `description`.
public struct BlockReference: Hashable, Sendable, CustomStringConvertible {
    /// Nil for the default registry.
    public var namespace: String?
    public var name: String

    public init(namespace: String?, name: String) {
        self.namespace = namespace
        self.name = name
    }

    /// `name` or `@namespace/name`; nil when either part is malformed.
    public init?(_ text: String) {
        if text.hasPrefix("@") {
            let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 2, Self.isValidNamespace(parts[0]), ManifestValidator.isValidName(parts[1]) else { return nil }
            self.init(namespace: parts[0], name: parts[1])
        } else {
            guard ManifestValidator.isValidName(text) else { return nil }
            self.init(namespace: nil, name: text)
        }
    }

    public var description: String { namespace.map { "\($0)/\(name)" } ?? name }

    /// Where the block's folder goes inside the target folder: `pager`, or `acme/pager`
    /// for `@acme/pager`, so that the same name from two namespaces never shares a folder.
    public var folderPath: String { namespace.map { "\($0.dropFirst())/\(name)" } ?? name }

    /// `@` and a block name: how `blocks.json` names a registry (`NamespacedRegistry`).
    public static func isValidNamespace(_ text: String) -> Bool {
        text.hasPrefix("@") && ManifestValidator.isValidName(String(text.dropFirst()))
    }

    /// Whether a lock key is a block name or a namespaced one.
    public static func isValidKey(_ key: String) -> Bool { BlockReference(key) != nil }
}

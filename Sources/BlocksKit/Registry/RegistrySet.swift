/// Every registry one command reads: the default one (`--registry`, `BLOCKS_REGISTRY`,
/// `blocks.json`'s `registry`, else the embedded catalog) and each namespaced one of
/// `blocks.json`'s `registries`, each reading through its own credentials. `--registry
/// @acme` narrows it to that one. Commands that name one block resolve it here, so that
/// a name means the same block whichever registry answers first.
public struct RegistrySet: Sendable {
    /// One registry of the set: its namespace (nil for the default) and its source.
    public struct Member: Sendable {
        public let namespace: String?
        public let source: RegistrySource
        /// The variables its headers name that the environment does not have: while any is
        /// unset, no request can be made to it (`NamespaceTransport` refuses them all).
        public var unsetVariables: [String] = []

        public init(namespace: String?, source: RegistrySource, unsetVariables: [String] = []) {
            self.namespace = namespace
            self.source = source
            self.unsetVariables = unsetVariables
        }

        /// How a block of this registry is typed: `name` or `@namespace/name`.
        public func reference(_ name: String) -> BlockReference { BlockReference(namespace: namespace, name: name) }
    }

    /// The default registry first (unless narrowed away), then the namespaces in order.
    public let members: [Member]
    /// Every namespace `blocks.json` configures, narrowed or not.
    public let configuredNamespaces: [String]
    /// Every namespaced registry, narrowed or not: a dependency may name any of them.
    let namespaced: [Member]

    public init(members: [Member], configuredNamespaces: [String]) {
        self.init(members: members, configuredNamespaces: configuredNamespaces, namespaced: members.filter { $0.namespace != nil })
    }

    init(members: [Member], configuredNamespaces: [String], namespaced: [Member]) {
        self.members = members
        self.configuredNamespaces = configuredNamespaces
        self.namespaced = namespaced
    }

    /// True when more than one registry answers: results then carry their namespace.
    public var isSeveral: Bool { members.count > 1 }

    /// Each member's namespace (null for the default) and location, for `--json`. Never a
    /// header: those may hold secrets.
    public var json: JSONValue {
        .array(members.map { .object(["namespace": $0.namespace.map { .string($0) } ?? .null, "location": .string($0.source.location)]) })
    }

    /// The registries of a project whose `blocks.json` is `config` at `root` (both nil
    /// outside a project): the default one is `option` (`--registry` or `BLOCKS_REGISTRY`),
    /// else `blocks.json`'s, else the embedded catalog (`Project.registries`).
    public static func open(option: String?, config: ProjectConfig?, root: URL?, access: RegistryAccess) throws -> RegistrySet {
        let namespaced = try root.flatMap { root in try config?.namespacedRegistries(root: root) } ?? []
        let configured = namespaced.map(\.namespace)
        if let option, option.hasPrefix("@") {
            let opened = try namespaced.map { try open($0, access: access) }
            guard let chosen = opened.first(where: { $0.namespace == option }) else {
                throw NamespaceError.unknownNamespace(option, configured: configured)
            }
            return RegistrySet(members: [chosen], configuredNamespaces: configured, namespaced: opened)
        }
        let location = option ?? root.flatMap { config?.registryLocation(root: $0) }
        let defaultMember = Member(
            namespace: nil, source: try RegistrySources.open(location, access: RegistrySources.pinning(access, location: location, config: config, root: root)))
        let opened = try namespaced.map { try open($0, access: access) }
        return RegistrySet(members: [defaultMember] + opened, configuredNamespaces: configured, namespaced: opened)
    }

    /// Tells every source that blocks will be installed from it (`prepareToInstall`): the
    /// default one, and every namespace, which a dependency may name even when narrowed
    /// away (`namespaced` holds each namespaced member once).
    public func prepareToInstall() {
        for member in members where member.namespace == nil { member.source.prepareToInstall() }
        for member in namespaced { member.source.prepareToInstall() }
    }

    /// A namespaced registry's source, reading through its own headers and never the token.
    static func open(_ registry: NamespacedRegistry, access: RegistryAccess) throws -> Member {
        var own = access.readingThrough(registry)
        own.pinnedKeys = registry.keys
        let unset = registry.headers.flatMap(\.variables).reduce(into: [String]()) { unset, variable in
            if access.environment[variable] == nil, !unset.contains(variable) { unset.append(variable) }
        }
        return Member(namespace: registry.namespace, source: try RegistrySources.open(registry.url, access: own), unsetVariables: unset)
    }

    /// The set without the namespaced registries that cannot be read because a variable
    /// their headers name is unset, each named in a warning: for the commands that read
    /// every registry (`list`, `search`, `info NAME`) but need none of them in particular.
    /// A namespace named outright (`@acme/pager`, or `--registry @acme` when it is the only
    /// member) stays reachable through `member(namespace:)`, so it still fails with the
    /// error naming the variable.
    public func skippingUnreadable(warn: (String) -> Void) -> RegistrySet {
        guard members.count > 1 else { return self }
        var kept: [Member] = []
        for member in members {
            guard let namespace = member.namespace, !member.unsetVariables.isEmpty else {
                kept.append(member)
                continue
            }
            let variables = member.unsetVariables.map { "${\($0)}" }
            let which = variables.count == 1 ? "\(variables[0]), which is not set" : variables.joined(separator: ", ") + ", which are not set"
            let exports = member.unsetVariables.joined(separator: " and ")
            warn("\(namespace) is skipped: its headers use \(which); export \(exports) to include it")
        }
        guard !kept.isEmpty else { return self }
        return RegistrySet(members: kept, configuredNamespaces: configuredNamespaces, namespaced: namespaced)
    }

    /// The member a namespace names (nil: the default registry).
    public func member(namespace: String?) throws -> Member {
        if let found = members.first(where: { $0.namespace == namespace }) { return found }
        if let namespace, let found = namespaced.first(where: { $0.namespace == namespace }) { return found }
        if let namespace { throw NamespaceError.unknownNamespace(namespace, configured: configuredNamespaces) }
        // Narrowed to one namespace: an unnamespaced name means a block of that one.
        return members[0]
    }

    /// The registry that has the block, and its manifest. `@acme/pager` asks `@acme`
    /// only; `pager` asks every registry of the set at once and is refused, with each
    /// candidate, when more than one has it.
    public func resolve(_ reference: BlockReference) throws -> (member: Member, manifest: BlockManifest) {
        if reference.namespace != nil || members.count == 1 {
            let member = try member(namespace: reference.namespace)
            return (member, try Self.manifest(reference.name, in: member))
        }
        let answers = ConcurrentMap.map(members) { member in Result { try Self.manifest(reference.name, in: member) } }
        // A registry that could not be read might have the name too: its error, rather
        // than a guess among the others.
        for answer in answers {
            if case .failure(let error) = answer, !Self.isUnknownBlock(error) { throw error }
        }
        let found = zip(members, answers).compactMap { member, answer in (try? answer.get()).map { (member, $0) } }
        if found.count == 1 { return found[0] }
        if found.count > 1 {
            throw NamespaceError.ambiguous(
                name: reference.name,
                candidates: found.map { member, _ in "\(member.reference(reference.name)) (\(member.source.location))" })
        }
        // Nowhere: the default registry's error, with its suggestions.
        _ = try answers[0].get()
        throw RegistryError.unknownBlock(reference.name, suggestions: [])
    }

    /// One member's manifest, an unknown name spelled with the member's namespace.
    static func manifest(_ name: String, in member: Member) throws -> BlockManifest {
        do {
            return try member.source.manifest(named: name)
        } catch RegistryError.unknownBlock(let unknown, let suggestions) where member.namespace != nil {
            throw RegistryError.unknownBlock(member.reference(unknown).description, suggestions: suggestions.map { member.reference($0).description })
        }
    }

    static func isUnknownBlock(_ error: Error) -> Bool {
        if case RegistryError.unknownBlock = error { return true }
        return false
    }
}

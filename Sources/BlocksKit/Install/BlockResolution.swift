/// What `add` fetches: the blocks it was asked for, each from the registry that has it
/// (`RegistrySet.resolve`), and every block they depend on, transitively and across
/// registries, each read through its own registry's credentials.
///
/// Resolving reads one round of metadata files per depth level, in parallel (a metadata
/// file holds the newest manifest, dependencies included, and every published version);
/// only a block held to an older version has its archive read during resolution. The
/// archives of the newest versions are fetched at the end, in one parallel batch per
/// registry, over the connections the metadata opened.
public enum BlockResolution {
    /// One block named on the command line: `pager`, `@acme/pager`, with `@1.0.0` or not.
    public struct Request: Sendable, Equatable {
        public var reference: BlockReference
        /// An exact published version; nil for the newest.
        public var version: String?

        public init(reference: BlockReference, version: String? = nil) {
            self.reference = reference
            self.version = version
        }
    }

    /// What `add` will do with the registries' answers.
    public struct Outcome: Sendable {
        /// Every block to add, dependencies before the blocks that need them.
        public var items: [InstallPlan.Item]
        /// Blocks already in the lock, at a version that will do, and the blocks of this
        /// run that now need them too.
        public var lockRequiredBy: [String: [String]]
        /// The Swift packages the added blocks need, each with the block that needs it.
        public var packages: [(package: PackageDependency, requiredBy: String)]
        /// The lock keys of the blocks each resolved block depends on, by its lock key.
        public var dependencies: [String: [String]] = [:]
    }

    /// A project never resolves more blocks than this in one `add`; a registry that
    /// claims more is broken (or hostile), and the loop stays bounded.
    static let maximumBlocks = 10_000

    /// One block of the graph being resolved.
    struct Node {
        var reference: BlockReference
        var member: RegistrySet.Member
        var exactVersion: String?
        /// What each dependent asks for, by its lock key.
        var requirements: [(versions: VersionRequirement, from: String)] = []
        var requested: Bool
        var chosen: String?
        var manifest: BlockManifest?
        /// Read during resolution when an older version was chosen.
        var content: BlockContent?
        var newest: String?
        var dependencies: [String] = []
    }

    /// A block the graph starts from, with the registry already chosen: what `add` was
    /// asked for, or what `update` updates (each from the registry its lock entry names).
    public struct Root: Sendable {
        public var name: String
        public var member: RegistrySet.Member
        /// An exact published version; nil for the newest.
        public var version: String?
        /// Whether the lock is to record it as asked for by name. `update` passes false,
        /// so that each block keeps what its lock entry says.
        public var requested: Bool

        public init(name: String, member: RegistrySet.Member, version: String? = nil, requested: Bool = true) {
            self.name = name
            self.member = member
            self.version = version
            self.requested = requested
        }
    }

    public static func resolve(_ requests: [Request], in registries: RegistrySet, lock: Lockfile) throws -> Outcome {
        // Which registry answers each request. An unnamespaced name is looked up in every
        // registry only when there are several, so a project with one costs no extra request.
        let roots = try requests.map { request in
            let member =
                request.reference.namespace == nil && registries.isSeveral
                ? try registries.resolve(request.reference).member
                : try registries.member(namespace: request.reference.namespace)
            return Root(name: request.reference.name, member: member, version: request.version)
        }
        return try resolve(roots: roots, in: registries, lock: lock)
    }

    /// The blocks `roots` name and every block they depend on, transitively: a dependency
    /// the lock holds at a version that meets every requirement stays as it is (and gains
    /// its new dependents in `lockRequiredBy`); any other is resolved and fetched.
    public static func resolve(roots rootBlocks: [Root], in registries: RegistrySet, lock: Lockfile) throws -> Outcome {
        var nodes: [String: Node] = [:]
        // The metadata of every round goes into the cache once, even when resolving fails.
        defer { saveReadMetadata(of: nodes) }
        var roots: [String] = []
        var lockRequiredBy: [String: [String]] = [:]
        for root in rootBlocks {
            let reference = root.member.reference(root.name)
            let key = reference.description
            if nodes[key] == nil { roots.append(key) }
            nodes[key] = Node(reference: reference, member: root.member, exactVersion: root.version, requested: root.requested)
        }
        var frontier = roots
        while !frontier.isEmpty {
            try readMetadata(of: frontier, into: &nodes)
            var next: [String] = []
            for key in frontier {
                next += try addDependencies(of: key, to: &nodes, lockRequiredBy: &lockRequiredBy, registries: registries, lock: lock)
            }
            frontier = next
        }
        if let cycle = firstCycle(from: roots, in: nodes) { throw DependencyError.cycle(cycle) }
        try readNewestContents(into: &nodes)

        let items = try planItems(dependencyOrder(from: roots, in: nodes), nodes: nodes)
        let packages = items.flatMap { item in
            (item.content.manifest.dependencies?.packages ?? []).map { (package: $0, requiredBy: item.reference.description) }
        }
        // Each value reaches `swift package`'s command line: checked before anything is written.
        try checkPackages(of: items)
        return Outcome(items: items, lockRequiredBy: lockRequiredBy, packages: packages, dependencies: nodes.mapValues(\.dependencies))
    }

    /// The dependencies of the block at `key`, recorded on its node. A dependency met
    /// before gains a requirement (which its chosen version must meet); one the lock holds
    /// at a version that fits stays as it is; any other becomes a node, returned to be read
    /// in the next round.
    static func addDependencies(
        of key: String, to nodes: inout [String: Node], lockRequiredBy: inout [String: [String]], registries: RegistrySet, lock: Lockfile
    ) throws -> [String] {
        guard let node = nodes[key], let manifest = node.manifest else { return [] }
        var next: [String] = []
        for requirement in try (manifest.dependencies ?? BlockDependencies()).blockRequirements() {
            let namespace = requirement.reference.namespace ?? node.member.namespace
            let member = namespace == node.member.namespace ? node.member : try registries.member(namespace: namespace)
            let reference = member.reference(requirement.reference.name)
            let dependency = reference.description
            if !nodes[key]!.dependencies.contains(dependency) { nodes[key]!.dependencies.append(dependency) }
            if var existing = nodes[dependency] {
                existing.requirements.append((requirement.versions, key))
                if let chosen = existing.chosen, !requirement.versions.isSatisfied(by: chosen) {
                    throw DependencyError.unsatisfiable(
                        block: dependency, requirement: requirement.versions.description, requiredBy: key, available: [chosen])
                }
                nodes[dependency] = existing
            } else if let locked = lock.blocks[dependency], requirement.versions.isSatisfied(by: locked.version) {
                if !lockRequiredBy[dependency, default: []].contains(key) { lockRequiredBy[dependency, default: []].append(key) }
            } else {
                guard nodes.count < maximumBlocks else {
                    throw RegistryError.invalidIndex(location: member.source.location, reason: "more than \(maximumBlocks) blocks depend on each other")
                }
                nodes[dependency] = Node(reference: reference, member: member, requirements: [(requirement.versions, key)], requested: false)
                next.append(dependency)
            }
        }
        return next
    }

    /// The install plan's items in dependency order, each the block that was asked for.
    static func planItems(_ order: [String], nodes: [String: Node]) throws -> [InstallPlan.Item] {
        try order.map { key in
            let node = nodes[key]!
            guard let content = node.content else { throw RegistryError.unknownBlock(key, suggestions: []) }
            guard content.manifest.name == node.reference.name else {
                throw InstallError.unexpectedBlock(requested: key, received: content.manifest.name)
            }
            return InstallPlan.Item(
                content: content, reference: node.reference, registry: node.member.source.location,
                requiredBy: node.requirements.map(\.from), requested: node.requested)
        }
    }

    /// Every Swift package the items need, checked against its grammar
    /// (`PackageValueGrammar`) before anything is written.
    static func checkPackages(of items: [InstallPlan.Item]) throws {
        for item in items {
            for (index, package) in (item.content.manifest.dependencies?.packages ?? []).enumerated() {
                guard let problem = package.problems.first else { continue }
                throw InstallError.unsafePackage(
                    block: item.reference.description, field: "dependencies.packages[\(index)]" + (problem.field.isEmpty ? "" : "." + problem.field),
                    problem: problem.message)
            }
        }
    }

    /// One metadata round: every node of the level, grouped by registry, the registries
    /// in parallel; then each node's version, the newest its dependents allow.
    static func readMetadata(of keys: [String], into nodes: inout [String: Node]) throws {
        let groups = sourceGroups(keys, in: nodes)
        let snapshot = nodes
        let answers = ConcurrentMap.map(groups) { keys in
            Result { try snapshot[keys[0]]!.member.source.publishedVersions(of: keys.map { snapshot[$0]!.reference.name }) }
        }
        for (keys, answer) in zip(groups, answers) {
            for (key, published) in zip(keys, try answer.get()) {
                var node = nodes[key]!
                node.newest = published.manifest.version
                let versions = published.versions.sorted { VersionComparison.compare($0, $1) > 0 }
                if let exact = node.exactVersion {
                    node.chosen = exact
                } else if let best = versions.first(where: { version in node.requirements.allSatisfy { $0.versions.isSatisfied(by: version) } }) {
                    node.chosen = best
                } else {
                    let failing =
                        node.requirements.first { requirement in !versions.contains { requirement.versions.isSatisfied(by: $0) } } ?? node.requirements[0]
                    throw DependencyError.unsatisfiable(block: key, requirement: failing.versions.description, requiredBy: failing.from, available: versions)
                }
                if node.chosen == published.manifest.version {
                    node.manifest = published.manifest
                } else {
                    // An older version: its manifest (and dependencies) ship in its archive.
                    let content = try node.member.source.contents(of: node.reference.name, version: node.chosen!)
                    node.content = content
                    node.manifest = content.manifest
                }
                nodes[key] = node
            }
        }
    }

    /// The archives of the nodes at their newest version, one batch per registry, the
    /// registries in parallel.
    static func readNewestContents(into nodes: inout [String: Node]) throws {
        let wanted = nodes.filter { $0.value.content == nil }.keys.sorted()
        let groups = sourceGroups(wanted, in: nodes)
        let snapshot = nodes
        let answers = ConcurrentMap.map(groups) { keys in
            Result { try snapshot[keys[0]]!.member.source.contents(of: keys.map { snapshot[$0]!.reference.name }) }
        }
        for (keys, answer) in zip(groups, answers) {
            for (key, content) in zip(keys, try answer.get()) { nodes[key]!.content = content }
        }
    }

    /// Each source the nodes were read from keeps what it read in the cache.
    static func saveReadMetadata(of nodes: [String: Node]) {
        for keys in sourceGroups(Array(nodes.keys), in: nodes) { nodes[keys[0]]!.member.source.saveReadMetadata() }
    }

    /// The keys grouped by the source that answers them, in a stable order: one group per
    /// namespace, and per location for the default one (an update may read blocks of the
    /// default namespace from the registries their lock entries name).
    static func sourceGroups(_ keys: [String], in nodes: [String: Node]) -> [[String]] {
        Dictionary(grouping: keys) { key in
            let member = nodes[key]!.member
            return (member.namespace ?? "") + " " + member.source.location
        }.sorted { $0.key < $1.key }.map(\.value)
    }

    /// A cycle among the nodes' dependencies, as the lock keys of the blocks on it with
    /// the first again at the end; nil when there is none.
    static func firstCycle(from roots: [String], in nodes: [String: Node]) -> [String]? {
        var done: Set<String> = []
        var path: [String] = []
        func visit(_ key: String) -> [String]? {
            if let start = path.firstIndex(of: key) { return Array(path[start...]) + [key] }
            guard !done.contains(key), let node = nodes[key] else { return nil }
            path.append(key)
            for dependency in node.dependencies { if let cycle = visit(dependency) { return cycle } }
            path.removeLast()
            done.insert(key)
            return nil
        }
        for root in roots { if let cycle = visit(root) { return cycle } }
        return nil
    }

    /// Every node once, each after the blocks it depends on, the roots in the order asked.
    static func dependencyOrder(from roots: [String], in nodes: [String: Node]) -> [String] {
        var order: [String] = []
        var seen: Set<String> = []
        func visit(_ key: String) {
            guard !seen.contains(key), let node = nodes[key] else { return }
            seen.insert(key)
            for dependency in node.dependencies { visit(dependency) }
            order.append(key)
        }
        for root in roots { visit(root) }
        return order
    }
}

extension BlockResolution {
    /// Whether text can name a published version: not empty, no spaces or control
    /// characters. Whether the registry has it is the registry's answer.
    public static func isPlausibleVersion(_ version: String) -> Bool {
        !version.isEmpty && !version.contains { $0.isWhitespace || $0.isASCII && $0.asciiValue! < 32 }
    }
}

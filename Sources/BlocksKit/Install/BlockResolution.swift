/// What `add` fetches for the blocks it was asked for: each one from the registry that
/// has it (`RegistrySet.resolve`), at the version asked for or the newest, as the items
/// of an `InstallPlan`, in the order they were asked for.
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

    /// The contents of every requested block, fetched per registry in one batch.
    public static func items(for requests: [Request], in registries: RegistrySet, lock: Lockfile) throws -> [InstallPlan.Item] {
        // Which registry answers each request. An unnamespaced name is looked up in every
        // registry only when there are several, so a project with one costs no extra request.
        let members: [RegistrySet.Member] = try requests.map { request in
            if request.reference.namespace == nil, registries.isSeveral {
                return try registries.resolve(request.reference).member
            }
            return try registries.member(namespace: request.reference.namespace)
        }
        var contents: [BlockContent?] = Array(repeating: nil, count: requests.count)
        // One batch per registry for the newest versions; exact versions one by one.
        var byRegistry: [String: [Int]] = [:]
        for (position, member) in members.enumerated() where requests[position].version == nil {
            byRegistry[member.namespace ?? "", default: []].append(position)
        }
        for positions in byRegistry.values {
            let source = members[positions[0]].source
            let fetched = try source.contents(of: positions.map { requests[$0].reference.name })
            for (position, content) in zip(positions, fetched) { contents[position] = content }
        }
        for (position, request) in requests.enumerated() {
            guard let version = request.version else { continue }
            contents[position] = try members[position].source.contents(of: request.reference.name, version: version)
        }
        return try requests.indices.map { position in
            let request = requests[position]
            guard let content = contents[position] else { throw RegistryError.unknownBlock(request.reference.description, suggestions: []) }
            guard content.manifest.name == request.reference.name else {
                throw InstallError.unexpectedBlock(requested: request.reference.description, received: content.manifest.name)
            }
            let member = members[position]
            return InstallPlan.Item(
                content: content, reference: member.reference(request.reference.name), registry: member.source.location)
        }
    }
}

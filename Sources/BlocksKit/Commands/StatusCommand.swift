/// `blocks status`: what was added, whether each file is unchanged, modified or
/// missing, and whether the registry has a newer version.
public enum StatusCommand: Command {
    public static let spec = CommandSpec(
        name: "status",
        abstract: "Show the added blocks: each file unchanged, modified or missing, and available updates.",
        examples: [.init("blocks status", "Each added block, its files' state and the update to run, if any.")])

    public static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> Int32 {
        let project = context.project()
        let root = project.root
        let lock = try project.readLock()
        let config = try? project.config
        var signatures: [(location: String, signature: String)] = []
        let latest = latestVersions(
            lock: lock, override: context.registry ?? config?.registryLocation(root: root), config: config, root: root, context: context,
            signatures: &signatures)
        let statuses = BlockStatus.report(lock: lock, root: root, latestVersions: latest)
        let unreferenced = XcodeProjects.unreferencedFiles(lock: lock, root: root, target: config?.target)
        if context.json {
            let blocks: [JSONValue] = statuses.map { status in
                guard case .object(var object) = status.json else { return status.json }
                object["notInXcodeTarget"] = .array((unreferenced[status.name] ?? []).map { .string($0) })
                object["dependencies"] = .array(dependencies(of: status.name, in: lock).map { .string($0) })
                object["requiredBy"] = .array((lock.blocks[status.name]?.requiredBy ?? []).map { .string($0) })
                return .object(object)
            }
            context.printJSON([
                "root": .string(root.path), "blocks": .array(blocks),
                "registries": .array(signatures.map { .object(["location": .string($0.location), "signature": .string($0.signature)]) }),
            ])
            return 0
        }
        guard !statuses.isEmpty else {
            context.print("No blocks added yet. Try 'blocks add scrolling-strip'.")
            return 0
        }
        let style = context.style
        let colors: [BlockStatus.FileState: Style.Color] = [.unchanged: .green, .modified: .yellow, .missing: .red, .conflict: .red]
        for status in statuses {
            var line = style.apply(.bold, status.name) + " " + status.version + style.apply(.dim, " (\(status.registry))")
            if let update = status.availableUpdate {
                line += "  " + style.apply(.magenta, "update available: \(update)") + "; run 'blocks update \(status.name)'"
            }
            context.print(line)
            for file in status.files {
                let label = file.state.rawValue.paddedToWidth(10)
                context.print("  " + style.apply(colors[file.state] ?? .dim, label) + file.path)
            }
            for path in unreferenced[status.name] ?? [] {
                context.print("  " + style.apply(.yellow, "unlisted".paddedToWidth(10)) + path + " (not in the Xcode target; run 'blocks add \(status.name)' to list it again)")
            }
            let needs = dependencies(of: status.name, in: lock)
            if !needs.isEmpty {
                let named = needs.map { "\($0) \(lock.blocks[$0]?.version ?? "")" }.joined(separator: ", ")
                context.print("  " + style.apply(.dim, "needs".paddedToWidth(10)) + named)
            }
        }
        // The built-in catalog needs no word on its signature.
        for (location, signature) in signatures where location != CatalogSource.embedded.location {
            context.print(style.apply(.dim, "registry \(location): \(signature)"))
        }
        return 0
    }

    /// The locked blocks that `key` depends on: those whose `requiredBy` names it.
    static func dependencies(of key: String, in lock: Lockfile) -> [String] {
        lock.blocks.filter { $0.value.requiredBy.contains(key) }.keys.sorted()
    }

    /// The newest version of each locked block, from the registry given on the command
    /// line (or in `blocks.json`), else from the one each block came from. A registry
    /// that cannot be read costs a warning, not the status. Blocks with no update channel
    /// (`hasUpdateChannel`) are not looked up.
    static func latestVersions(
        lock: Lockfile, override: String?, config: ProjectConfig?, root: URL, context: CommandContext,
        signatures: inout [(location: String, signature: String)]
    ) -> [String: String] {
        var latest: [String: String] = [:]
        // A namespaced block is asked of its namespace, through its headers, by its bare name.
        let namespaced = Dictionary(grouping: lock.blocks.keys.sorted().filter { lock.blocks[$0]?.namespace != nil }) { lock.blocks[$0]!.namespace! }
        if !namespaced.isEmpty, let registries = try? context.project().registries(option: nil, access: context.registryAccess) {
            for (namespace, keys) in namespaced.sorted(by: { $0.key < $1.key }) {
                do {
                    let member = try registries.member(namespace: namespace)
                    let names = keys.compactMap { BlockReference($0)?.name }
                    for (manifest, _) in try member.source.publishedVersions(of: names) {
                        latest[member.reference(manifest.name).description] = manifest.version
                    }
                    member.source.saveReadMetadata()
                    signatures.append((namespace, try RegistrySignature.status(of: member.source)))
                } catch {
                    context.warn("cannot check \(namespace) for updates: \(ErrorText.line(for: error))")
                }
            }
        }
        let groups = Dictionary(grouping: lock.blocks.keys.sorted().filter { lock.blocks[$0]?.namespace == nil }) { name in
            override ?? lock.blocks[name]?.registry ?? "embedded"
        }
        for (location, names) in groups.sorted(by: { $0.key < $1.key }) where override != nil || hasUpdateChannel(location) {
            do {
                let access = try RegistrySources.pinning(context.registryAccess, location: location, config: config, root: root)
                let source = try RegistrySources.open(location, access: access)
                let manifests = try source.manifests()
                for manifest in manifests where names.contains(manifest.name) { latest[manifest.name] = manifest.version }
                signatures.append((location, try RegistrySignature.status(of: source)))
            } catch {
                context.warn("cannot check \(location) for updates: \(ErrorText.line(for: error))")
            }
        }
        return latest
    }

    /// False for a block added from an archive URL (`add https://host/x.tar.gz --sha256 …`):
    /// the lock records that URL, and its bytes were pinned by their checksum, so it can
    /// never offer another version. Asking anyway only failed, with a warning on every run.
    static func hasUpdateChannel(_ location: String) -> Bool {
        guard case .remoteArchive? = try? RegistryLocation(location) else { return true }
        return false
    }
}

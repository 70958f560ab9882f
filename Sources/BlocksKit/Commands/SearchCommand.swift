/// `blocks search`: ranked search over every language of the registry's metadata.
public enum SearchCommand: Command {
    public static let spec = CommandSpec(
        name: "search",
        abstract: "Search blocks by name, title, tags, summary and API, in English and Spanish.",
        discussion: "Case and accents are ignored and small typos are forgiven: 'pestanas' finds 'pestañas'.",
        arguments: [ArgumentSpec("query", help: "Words to look for; every word must match.", optional: true, variadic: true)],
        options: [
            OptionSpec("platform", value: "platform", help: "Only blocks that run there, e.g. ios18, 'iOS 18', ios18.0."),
            OptionSpec("level", value: "level", help: "beginner, intermediate or advanced."),
            OptionSpec("category", value: "category", help: "Only blocks of this category, e.g. tabs."),
            OptionSpec("tag", value: "tag", help: "Only blocks with this tag, in any language."),
            OptionSpec("limit", value: "n", help: "Show at most <n> results."),
        ])

    public static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> Int32 {
        let query = arguments.positionals.joined(separator: " ")
        var filters = SearchEngine.Filters(level: arguments.value("level"), category: arguments.value("category"), tag: arguments.value("tag"))
        if let platform = arguments.value("platform") {
            guard let parsed = PlatformFilter(platform) else {
                throw UsageError.invalidValue(option: "--platform", value: platform, expected: "a platform and version such as ios18 or 'macOS 15'")
            }
            filters.platform = parsed
        }
        if let level = filters.level, !ManifestValidator.levels.contains(level.lowercased()) {
            throw UsageError.invalidValue(option: "--level", value: level, expected: ManifestValidator.levels.joined(separator: ", "))
        }
        let limit = try arguments.integer("limit")
        let source = try context.registrySource()
        // A large catalog folder is searched through an index in the cache; the embedded
        // catalog, or any source when the cache cannot be written, in memory.
        let index = try SearchIndex.open(for: source, cacheDirectory: context.cacheDirectory)
        // Read after the query, which overlaps the index's freshness check.
        defer {
            if case .inMemory(let reason?) = index.finalStatus() { context.note("note: searched without an index (\(reason))") }
        }

        if context.json {
            let outcome = try index.search(query, filters: filters, limit: limit)
            let suggestions = outcome.hits.isEmpty && !query.isEmpty ? index.suggestions(for: query) : []
            context.print(JSONOutput.encode([
                "query": .string(query),
                "partial": .bool(outcome.isPartial),
                "results": .array(outcome.hits.map { hit in
                    guard case .object(var object) = BlockSummary.json(hit.manifest) else { return .null }
                    object["score"] = .int(Int(hit.score.rounded()))
                    return .object(object)
                }),
                "suggestions": .array(suggestions.map { .string($0) }),
            ]))
            return 0
        }
        // The table is laid out while the index's freshness is being checked.
        let (table, isPartial) = try index.listings(query, filters: filters, limit: limit) { listings, isPartial in
            let rows = listings.map { [$0.name, $0.platforms, $0.level, $0.title] }
            let lines = Table.render(rows, style: context.style, columnColors: [.bold, .cyan, .dim, nil], width: context.tableWidth)
            return (lines.joined(separator: "\n"), isPartial)
        }
        if table.isEmpty {
            // When the filters alone exclude what the query finds, say so rather than
            // suggesting other words for a query that works.
            if !query.isEmpty, !filters.isEmpty {
                let unfiltered = try index.listings(query) { listings, isPartial in isPartial ? 0 : listings.count }
                if unfiltered > 0 {
                    let given = ["platform", "level", "category", "tag"].compactMap { option in
                        arguments.value(option).map { "--\(option) \($0)" }
                    }
                    let blocks = unfiltered == 1 ? "1 block matches" : "\(unfiltered) blocks match"
                    context.print(TerminalText.escaped("No block matches the filters \(given.joined(separator: " ")); \(blocks) '\(query)' without them."))
                    return 0
                }
            }
            let suggestions = query.isEmpty ? [] : index.suggestions(for: query)
            var line = query.isEmpty ? "No blocks match these filters." : "No blocks match '\(query)'."
            if !suggestions.isEmpty { line += " Did you mean: " + suggestions.joined(separator: ", ") + "?" }
            // The suggestions are the registry's words.
            context.print(TerminalText.escaped(line))
            return 0
        }
        if isPartial {
            context.note("No block matches every word of '\(query)'; showing the closest matches.")
        }
        // One write for the whole table: thousands of lines cost one system call, not thousands.
        context.print(table)
        return 0
    }
}

/// `blocks search`: ranked search over every language of the registry's metadata.
public enum SearchCommand: Command {
    public static let spec = CommandSpec(
        name: "search",
        abstract: "Search blocks by name, title, tags, summary and API, in English and Spanish.",
        discussion: "Case and accents are ignored and small typos are forgiven: 'pestanas' finds 'pestañas'.",
        arguments: [ArgumentSpec("query", help: "Words to look for; every word must match.", optional: true, variadic: true)],
        options: [platformOption, levelOption, categoryOption, tagOption, limitOption],
        examples: [
            .init("blocks search tabs", "Blocks about tabs, best match first."),
            .init("blocks search pestanas --platform ios17 --level beginner", "In Spanish, for iOS 17, for beginners."),
        ])

    static let platformOption = OptionSpec("platform", value: "platform", help: "Only blocks that run there, e.g. ios18, 'iOS 18', ios18.0.")
    static let levelOption = OptionSpec(
        "level", value: "level", help: "beginner, intermediate or advanced.", completion: .choices(["beginner", "intermediate", "advanced"]))
    static let categoryOption = OptionSpec("category", value: "category", help: "Only blocks of this category, e.g. tabs.")
    static let tagOption = OptionSpec("tag", value: "tag", help: "Only blocks with this tag, in any language.")
    static let limitOption = OptionSpec("limit", value: "n", help: "Show at most <n> results (default \(tableLimit) in the table, every one with --json).")
    /// How many rows the table shows without `--limit`: a registry of 100,000 blocks
    /// matches tens of thousands for a common word, more than anyone reads in a terminal,
    /// and laying them out took a warm search 0.3 s. `--json` lists every match unless told.
    static let tableLimit = 50
    /// The options that narrow the results, in the order a message names them.
    static let filterOptions = [platformOption, levelOption, categoryOption, tagOption]

    public static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> Int32 {
        let query = arguments.positionals.joined(separator: " ")
        let filters = try self.filters(arguments)
        let limit = try arguments.integer(limitOption)
        let registries = try context.registrySet()
        if registries.isSeveral || registries.members[0].namespace != nil {
            return try searchEach(registries, query: query, filters: filters, limit: limit, context: context)
        }
        let source = registries.members[0].source
        // A large catalog folder is searched through an index in the cache; the embedded
        // catalog, or any source when the cache cannot be written, in memory.
        let index = try SearchIndex.open(for: source, cacheDirectory: context.cacheDirectory)
        // Read after the query, which overlaps the index's freshness check.
        defer {
            if case .inMemory(let reason?) = index.finalStatus() { context.note("note: searched without an index (\(reason))") }
        }

        if context.json {
            try printJSON(index, query: query, filters: filters, limit: limit, context: context)
            return 0
        }
        // The table is laid out while the index's freshness is being checked.
        let (table, isPartial, hidden) = try index.listings(query, filters: filters, limit: limit ?? tableLimit) { listings, isPartial, total in
            let rows = listings.map { [$0.name, $0.platforms, $0.level, $0.title] }
            let lines = Table.render(rows, style: context.style, columnColors: [.bold, .cyan, .dim, nil], width: context.tableWidth, stackingWhenNarrow: true)
            return (lines.joined(separator: "\n"), isPartial, (shown: listings.count, total: total))
        }
        if table.isEmpty {
            try reportNoMatch(index, query: query, filters: filters, arguments: arguments, context: context)
            return 0
        }
        if isPartial {
            context.note("No block matches every word of '\(query)'; showing the closest matches.")
        }
        // One write for the whole table: thousands of lines cost one system call, not thousands.
        context.print(table)
        noteHidden(shown: hidden.shown, total: hidden.total, cutAtTableLimit: limit == nil, context: context)
        return 0
    }

    /// Says on stderr that the table left matches out, and how to see them, when it was
    /// cut at `tableLimit` rather than at a `--limit` the user gave.
    static func noteHidden(shown: Int, total: Int, cutAtTableLimit: Bool, context: CommandContext) {
        guard cutAtTableLimit, total > shown else { return }
        context.note("Showing the best \(shown) of \(total) matches; --limit <n> shows more, --json every one.")
    }

    /// `--platform`, `--level`, `--category` and `--tag`, checked.
    static func filters(_ arguments: ParsedArguments) throws -> SearchEngine.Filters {
        var filters = SearchEngine.Filters(level: arguments.value(levelOption), category: arguments.value(categoryOption), tag: arguments.value(tagOption))
        if let platform = arguments.value(platformOption) {
            guard let parsed = PlatformFilter(platform) else {
                throw UsageError.invalidValue(option: "--platform", value: platform, expected: "a platform and version such as ios18 or 'macOS 15'")
            }
            filters.platform = parsed
        }
        if let level = filters.level, !ManifestValidator.levels.contains(level.lowercased()) {
            throw UsageError.invalidValue(option: "--level", value: level, expected: ManifestValidator.levels.joined(separator: ", "))
        }
        return filters
    }

    /// `--json` over one registry's index. The results are made as their manifests are
    /// read, range by range for a split registry, and kept as bytes until printed in rank
    /// order (`PlacedJSONElements`): every match of 100,000 blocks is never held as
    /// manifests or values at once.
    static func printJSON(_ index: SearchIndex, query: String, filters: SearchEngine.Filters, limit: Int?, context: CommandContext) throws {
        var results = context.placedJSONElements()
        let ranking = try index.search(query, filters: filters, limit: limit) { place, hit in
            guard case .object(var object) = BlockSummary.json(hit.manifest) else { return }
            object["score"] = .int(Int(hit.score.rounded()))
            object["namespace"] = .null
            results.set(.object(object), at: place)
        }
        results.keepFirst(ranking.count)
        let suggestions = ranking.count == 0 && !query.isEmpty ? index.suggestions(for: query) : []
        context.printJSON(
            [
                "query": .string(query),
                "partial": .bool(ranking.isPartial),
                "suggestions": .array(suggestions.map { .string($0) }),
            ], array: "results", placed: results)
    }

    /// Nothing to list: when the filters alone exclude what the query finds, says so rather
    /// than suggesting other words for a query that works; otherwise suggests the
    /// registry's words closest to the query.
    static func reportNoMatch(
        _ index: SearchIndex, query: String, filters: SearchEngine.Filters, arguments: ParsedArguments, context: CommandContext
    ) throws {
        if !query.isEmpty, !filters.isEmpty {
            let unfiltered = try index.listings(query, limit: 1) { _, isPartial, total in isPartial ? 0 : total }
            if unfiltered > 0 {
                let given = filterOptions.compactMap { option in
                    arguments.value(option).map { "--\(option.long) \($0)" }
                }
                let blocks = unfiltered == 1 ? "1 block matches" : "\(unfiltered) blocks match"
                context.print(TerminalText.escaped("No block matches the filters \(given.joined(separator: " ")); \(blocks) '\(query)' without them."))
                return
            }
        }
        let suggestions = query.isEmpty ? [] : index.suggestions(for: query)
        var line = query.isEmpty ? "No blocks match these filters." : "No blocks match '\(query)'."
        if !suggestions.isEmpty { line += " Did you mean: " + suggestions.joined(separator: ", ") + "?" }
        // The suggestions are the registry's words.
        context.print(TerminalText.escaped(line))
    }

    /// Every registry of the set searched on its own index, the hits merged by score (a
    /// registry with hits for every word outranks partial ones), each named as it is added:
    /// `@acme/pager` for a namespaced registry's.
    static func searchEach(
        _ registries: RegistrySet, query: String, filters: SearchEngine.Filters, limit: Int?, context: CommandContext
    ) throws -> Int32 {
        var hits: [(member: RegistrySet.Member, hit: SearchEngine.Hit, partial: Bool)] = []
        var suggestions: [String] = []
        var totals: [(partial: Bool, total: Int)] = []
        let shownLimit = limit ?? (context.json ? nil : tableLimit)
        for member in registries.members {
            let index = try SearchIndex.open(for: member.source, cacheDirectory: context.cacheDirectory)
            let outcome = try index.search(query, filters: filters, limit: shownLimit)
            hits += outcome.hits.map { (member, $0, outcome.isPartial) }
            totals.append((outcome.isPartial, outcome.total))
            if outcome.hits.isEmpty, !query.isEmpty { suggestions += index.suggestions(for: query) }
        }
        let isPartial = !hits.isEmpty && hits.allSatisfy(\.partial)
        hits = hits.filter { $0.partial == isPartial }
        hits.sort { $0.hit.score > $1.hit.score }
        if let shownLimit { hits = Array(hits.prefix(shownLimit)) }
        suggestions = Array(Set(suggestions)).sorted()
        if context.json {
            context.printJSON([
                "query": .string(query),
                "partial": .bool(isPartial),
                "results": .array(
                    hits.map { member, hit, _ in
                        guard case .object(var object) = BlockSummary.json(hit.manifest) else { return .null }
                        object["score"] = .int(Int(hit.score.rounded()))
                        object["namespace"] = member.namespace.map { .string($0) } ?? .null
                        object["name"] = .string(member.reference(hit.manifest.name).description)
                        return .object(object)
                    }),
                "suggestions": .array(hits.isEmpty ? suggestions.map { .string($0) } : []),
                "registries": registries.json,
            ])
            return 0
        }
        if hits.isEmpty {
            var line = query.isEmpty ? "No blocks match these filters." : "No blocks match '\(query)'."
            if !suggestions.isEmpty { line += " Did you mean: " + suggestions.joined(separator: ", ") + "?" }
            context.print(TerminalText.escaped(line))
            return 0
        }
        if isPartial { context.note("No block matches every word of '\(query)'; showing the closest matches.") }
        let rows = hits.map { member, hit, _ in
            [member.reference(hit.manifest.name).description, BlockSummary.platformText(hit.manifest), hit.manifest.level, hit.manifest.englishTitle]
        }
        context.print(Table.render(rows, style: context.style, columnColors: [.bold, .cyan, .dim, nil], width: context.tableWidth, stackingWhenNarrow: true).joined(separator: "\n"))
        let total = totals.filter { $0.partial == isPartial }.reduce(0) { $0 + $1.total }
        noteHidden(shown: hits.count, total: total, cutAtTableLimit: limit == nil, context: context)
        return 0
    }
}

/// The read-only tools over a registry: `search_blocks`, `list_blocks` and `get_block`,
/// each `blocks search|list|info --json` with the same arguments. They read the registry
/// the call names, else the one the server was started with (`--registry`,
/// `$BLOCKS_REGISTRY` or the `blocks.json` of the folder it runs in), else the embedded one.
enum MCPCatalogTools {
    static let all = [search, list, get]

    /// Results a call returns unless it asks for fewer or more, and the most it may ask for,
    /// so a model's context is not flooded.
    static let defaultSearchLimit = 20, maximumSearchLimit = 100
    static let defaultListLimit = 100, maximumListLimit = 1_000

    static let registryArgument = MCPSchema.string("The registry to read: a folder, a URL or an archive (default: the server's, else the built-in catalog).")

    static let search = MCPTool(
        name: "search_blocks", title: "Search blocks",
        description:
            "Search the SwiftUI blocks by words in English or Spanish (typos and accents forgiven), ranked as `blocks search` ranks them; filter by platform, level, category or tag.",
        inputSchema: MCPSchema.object(
            [
                "query": MCPSchema.string("Words to look for, e.g. 'scrolling tabs' or 'pestañas'; every word must match. Empty lists the filtered blocks."),
                "platform": MCPSchema.string("Only blocks that run there, e.g. ios18, 'iOS 18' or macos15."),
                "level": MCPSchema.string("Only blocks of this level.", oneOf: ManifestValidator.levels),
                "category": MCPSchema.string("Only blocks of this category, e.g. tabs."),
                "tag": MCPSchema.string("Only blocks with this tag, in any language."),
                "limit": MCPSchema.integer("At most this many results (default \(defaultSearchLimit)).", minimum: 1, maximum: maximumSearchLimit),
                "registry": registryArgument,
            ], required: ["query"]),
        outputSchema: MCPSchema.object(
            [
                "query": MCPSchema.string(),
                "partial": MCPSchema.boolean("True when no block matches every word and these are the closest."),
                "results": MCPSchema.array(of: summarySchema(extra: ["score": MCPSchema.integer()])),
                "suggestions": MCPSchema.array(of: MCPSchema.string(), "Other words to try when nothing matched."),
            ], required: ["query", "partial", "results", "suggestions"]),
        readOnly: true
    ) { call in
        var parsed = ParsedArguments(positionals: (call.string("query") ?? "").split(whereSeparator: \.isWhitespace).map(String.init))
        // The tool's arguments are named as the command's options.
        for option in SearchCommand.filterOptions {
            if let value = call.string(option.long) { parsed.values[option.long] = [value] }
        }
        parsed.values[SearchCommand.limitOption.long] = [String(call.integer("limit") ?? defaultSearchLimit)]
        return .success(try call.runJSON(SearchCommand.self, parsed))
    }

    static let list = MCPTool(
        name: "list_blocks", title: "List blocks",
        description:
            "List the blocks of the registry with their versions, platforms, levels and titles, as `blocks list` does; use search_blocks to find one by topic.",
        inputSchema: MCPSchema.object([
            "registry": registryArgument,
            "limit": MCPSchema.integer("At most this many blocks (default \(defaultListLimit)).", minimum: 1, maximum: maximumListLimit),
        ]),
        outputSchema: MCPSchema.object(
            [
                "registry": MCPSchema.string(),
                "blocks": MCPSchema.array(of: summarySchema()),
                "total": MCPSchema.integer("How many blocks the registry has."),
                "truncated": MCPSchema.boolean("True when the limit left blocks out."),
            ], required: ["registry", "blocks", "total", "truncated"]),
        readOnly: true
    ) { call in
        var object = try call.runJSON(ListCommand.self, ParsedArguments())
        let blocks = object["blocks"]?.array ?? []
        let limit = call.integer("limit") ?? defaultListLimit
        object["blocks"] = .array(Array(blocks.prefix(limit)))
        object["total"] = .int(blocks.count)
        object["truncated"] = .bool(blocks.count > limit)
        return .success(object)
    }

    static let get = MCPTool(
        name: "get_block", title: "Get a block",
        description:
            "Read one block as `blocks info` shows it: metadata, API table, accessibility notes and files, and with includeSource the code of each file as `add` would write it (MIT header included).",
        inputSchema: MCPSchema.object(
            [
                "name": MCPSchema.string("The block's name, e.g. scrolling-strip.", minLength: 1),
                "includeSource": MCPSchema.boolean("Also return every file's code (default false: it can be long)."),
                "registry": registryArgument,
            ], required: ["name"]),
        outputSchema: summarySchema(
            extra: [
                "origin": MCPSchema.string(),
                "license": MCPSchema.string(),
                "authors": MCPSchema.array(of: MCPSchema.string()),
                "accessibility": MCPSchema.map(of: MCPSchema.string()),
                "api": MCPSchema.array(
                    of: MCPSchema.object(
                        [
                            "name": MCPSchema.string(), "type": MCPSchema.string(), "default": MCPSchema.string(), "description": MCPSchema.string(),
                        ], required: ["name", "type", "description"])),
                "files": MCPSchema.array(
                    of: MCPSchema.object(
                        [
                            "path": MCPSchema.string(), "role": MCPSchema.string(),
                            "source": MCPSchema.string("The code, with the MIT header as add writes it."),
                        ], required: ["path", "role"])),
                "registry": MCPSchema.string(),
                "signature": MCPSchema.string("'signed by KEYID' when a pinned key verified the registry, 'unsigned', or 'built in'."),
            ], required: ["origin", "license", "authors", "accessibility", "api", "files", "registry"]),
        readOnly: true
    ) { call in
        let name = try AddCommand.validatedNames([call.string("name") ?? ""])[0]
        let includeSource = call.flag("includeSource")
        var object = try call.runJSON(InfoCommand.self, ParsedArguments(flags: includeSource ? ["source"] : [], positionals: [name]))
        if includeSource {
            let year = try TemplateText.currentYear(environment: call.context.environment)
            let holders = TemplateText.holders(object["authors"]?.strings ?? [])
            object["files"] = .array(
                try (object["files"]?.objects ?? []).map { file in
                    var file = file
                    if let path = file["path"]?.string, let source = file["source"]?.string {
                        let shipped = try LicenseHeader.apply(to: Data(source.utf8), path: path, year: year, holders: holders)
                        file["source"] = .string(String(decoding: shipped, as: UTF8.self))
                    }
                    return .object(file)
                })
        }
        return .success(object)
    }

    /// `BlockSummary.json`'s shape, with the members a command adds to it.
    static func summarySchema(extra: [String: JSONValue] = [:], required extraRequired: [String] = []) -> JSONValue {
        let localized = MCPSchema.map(of: MCPSchema.string(), "By language code, e.g. en and es.")
        var properties: [String: JSONValue] = [
            "name": MCPSchema.string(), "version": MCPSchema.string(),
            "title": MCPSchema.string("In English."), "summary": MCPSchema.string("In English."),
            "localized": MCPSchema.object(["title": localized, "summary": localized], required: ["title", "summary"]),
            "category": MCPSchema.string(),
            "platforms": MCPSchema.map(of: MCPSchema.string(), "The oldest version of each platform, e.g. iOS: 18.0."),
            "level": MCPSchema.string(),
            "tags": MCPSchema.map(of: MCPSchema.array(of: MCPSchema.string()), "By language code."),
            "namespace": MCPSchema.nullableString, "dependencies": .object(["type": .string("object")]),
        ]
        properties.merge(extra) { _, new in new }
        return MCPSchema.object(
            properties, required: ["name", "version", "title", "summary", "localized", "category", "platforms", "level", "tags"] + extraRequired)
    }
}

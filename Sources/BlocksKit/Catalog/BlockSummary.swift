/// How a block appears in `list`, `search` and `info` output.
public enum BlockSummary {
    /// The JSON every command uses for one block. `title` and `summary` are English
    /// strings; `localized` has every language.
    public static func json(_ manifest: BlockManifest) -> JSONValue {
        .object([
            "name": .string(manifest.name),
            "version": .string(manifest.version),
            "title": .string(manifest.englishTitle),
            "summary": .string(manifest.englishSummary),
            "localized": .object([
                "title": .object(manifest.title.mapValues { .string($0) }),
                "summary": .object(manifest.summary.mapValues { .string($0) }),
            ]),
            "category": .string(manifest.category),
            "platforms": .object(manifest.platforms.mapValues { .string($0) }),
            "level": .string(manifest.level),
            "tags": .object(manifest.tags.mapValues { .array($0.map { .string($0) }) }),
        ])
    }

    /// "iOS 18.0+", several joined by commas.
    public static func platformText(_ manifest: BlockManifest) -> String {
        platformText(manifest.platforms)
    }

    /// A platform table as the tables show it: `iOS 17.0+, macOS 14.0+`.
    static func platformText(_ platforms: [String: String]) -> String {
        platforms.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)+" }.joined(separator: ", ")
    }
}

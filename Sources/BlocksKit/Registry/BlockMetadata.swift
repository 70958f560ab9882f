/// One published version of a block, as its metadata file's `versions` list holds it.
/// Published archives never change, so an entry here is written once and then copied,
/// byte for byte, into every later metadata file: `add NAME@VERSION` and `update` find
/// an older version's archives through it long after `index.json` has moved on.
public struct PublishedVersion: Sendable, Equatable {
    public var version: String
    /// When the version was first built, as `2026-12-01T11:07:34Z` (UTC); nil for a
    /// version built before the registry recorded dates.
    public var published: String?
    /// Keyed by format, as in `RegistryEntry.archives`.
    public var archives: [String: RegistryArchive]

    public init(version: String, published: String?, archives: [String: RegistryArchive]) {
        self.version = version
        self.published = published
        self.archives = archives
    }

    private enum Key {
        static let version = "version"
        static let published = "published"
    }

    init(fields: JSONFields) throws(JSONFields.Problem) {
        version = try fields.string(Key.version)
        published = try fields.optionalString(Key.published)
        archives = try RegistryArchive.archives(in: fields)
    }

    var jsonValue: JSONValue {
        var members: [String: JSONValue] = [Key.version: .string(version), RegistryArchive.archivesKey: RegistryArchive.jsonValue(archives)]
        if let published { members[Key.published] = .string(published) }
        return .object(members)
    }

    public var preferredArchive: RegistryArchive? { RegistryArchive.preferred(in: archives) }
}

/// A block's metadata file, `blocks/<name>.json`: the newest version's entry, exactly as
/// `index.json` lists it, plus `versions`, every published version newest first.
/// Schema: `$defs/metadata` in `Schemas/index.schema.json`.
struct BlockMetadata: Sendable, Equatable {
    var entry: RegistryEntry
    var versions: [PublishedVersion]

    /// The most a client reads of one metadata file: clients, the mirror and `build`
    /// (`ClientCaps`) all take it from here.
    static let maximumBytes: Int64 = 16 * 1024 * 1024

    /// The key the file adds to its entry's.
    private static let versionsKey = "versions"

    /// The metadata file's bytes, or what is wrong with them. A file written before
    /// versions were recorded lists just its own version, without a date.
    static func decode(_ data: Data) throws(RegistryEntryProblem) -> BlockMetadata {
        try RegistryEntryProblem.reading(data) { (fields) throws(JSONFields.Problem) in
            let entry = try RegistryEntry(fields: fields)
            guard fields.members[versionsKey] != nil else {
                return BlockMetadata(entry: entry, versions: [PublishedVersion(version: entry.manifest.version, published: nil, archives: entry.archives)])
            }
            let versions = try fields.objects(versionsKey).map { (item) throws(JSONFields.Problem) in try PublishedVersion(fields: item) }
            return BlockMetadata(entry: entry, versions: versions)
        }
    }

    /// The metadata after publishing `entry`: its version first, dated `published`, and
    /// every older version as it was. Republishing a listed version (its archives had
    /// gone) keeps that version's date.
    static func publishing(_ entry: RegistryEntry, published: String, over previous: BlockMetadata?) -> BlockMetadata {
        let older = (previous?.versions ?? []).filter { $0.version != entry.manifest.version }
        let date = previous?.versions.first { $0.version == entry.manifest.version }?.published ?? published
        return BlockMetadata(entry: entry, versions: [PublishedVersion(version: entry.manifest.version, published: date, archives: entry.archives)] + older)
    }

    /// The listed version, if any.
    func version(_ version: String) -> PublishedVersion? { versions.first { $0.version == version } }

    /// The file's bytes: the entry's keys plus `versions`, in `StableJSON` form.
    var stableJSON: Data { stableJSON(entryMembers: entry.stableMembers()) }

    /// The file's bytes over the entry's members, which the index's copy of the entry
    /// shares.
    func stableJSON(entryMembers: StableJSONMembers) -> Data {
        entryMembers.adding([Self.versionsKey: .array(versions.map(\.jsonValue))]).data
    }
}

/// The publication date a build stamps on a new version: `SOURCE_DATE_EPOCH` when set, as
/// for the copyright year, so two builds of one source write the same bytes; else now.
public enum PublicationDate {
    public static func stamp(environment: [String: String], now: Date = Date()) throws(TemplateError) -> String {
        // The same validation as the year, so one variable has one rule.
        _ = try TemplateText.currentYear(environment: environment, now: now)
        if let text = environment["SOURCE_DATE_EPOCH"], !text.isEmpty, let seconds = Int(text) { return iso8601(secondsSince1970: seconds) }
        return iso8601(secondsSince1970: Int(now.timeIntervalSince1970.rounded(.down)))
    }

    /// `YYYY-MM-DDTHH:MM:SSZ` for a moment from 1970 on, by the civil-from-days rule.
    public static func iso8601(secondsSince1970 seconds: Int) -> String {
        let days = seconds / 86_400
        let second = seconds % 86_400
        let shifted = days + 719_468
        let era = shifted / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        var yearText = "\(year)"
        while yearText.count < 4 { yearText = "0" + yearText }
        return "\(yearText)-\(two(month))-\(two(day))T\(two(second / 3600)):\(two(second / 60 % 60)):\(two(second % 60))Z"
    }
}

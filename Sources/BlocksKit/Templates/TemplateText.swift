/// Fills `{{placeholder}}` slots in the text templates under `Templates/`, which the
/// binary embeds so that it can write headers and licenses with no files beside it.
public enum TemplateText {
    /// The template's text with every `{{key}}` replaced by its value. Unknown keys stay.
    /// Keys are replaced one after another in sorted order, with the standard library's
    /// `replacing` (NSString's costs a millisecond of set-up at start-up).
    public static func fill(_ template: String, _ values: [String: String]) -> String {
        var text = template
        for (key, value) in values.sorted(by: { $0.key < $1.key }) {
            text = text.replacing("{{\(key)}}", with: value)
        }
        return text
    }

    /// An embedded template by its file name under `Templates/`, e.g. `header.txt`.
    public static func named(_ name: String) -> String {
        EmbeddedFiles.templates[name] ?? ""
    }

    /// The year to stamp: from `SOURCE_DATE_EPOCH` when set (reproducible builds and
    /// tests use it), else the current year, both in UTC.
    ///
    /// `SOURCE_DATE_EPOCH` must be a whole number of seconds from 1970 to the end of 9999,
    /// as the reproducible-builds convention says: anything else (`abc`, a number that
    /// would stamp the year 506713) is refused rather than ignored or stamped. An empty
    /// value counts as unset.
    ///
    /// Computed from the seconds with the proleptic Gregorian rules instead of through
    /// `Calendar`, whose first use loads time-zone data and costs milliseconds at start-up.
    public static func currentYear(environment: [String: String], now: Date = Date()) throws(TemplateError) -> Int {
        guard let text = environment["SOURCE_DATE_EPOCH"], !text.isEmpty else {
            return utcYear(secondsSince1970: now.timeIntervalSince1970)
        }
        guard text.utf8.count <= 12, text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
            let seconds = Int(text), seconds <= latestSourceDateEpoch
        else {
            throw .invalidSourceDateEpoch(text)
        }
        return utcYear(secondsSince1970: TimeInterval(seconds))
    }

    /// 9999-12-31T23:59:59Z, the last second `SOURCE_DATE_EPOCH` may name.
    public static let latestSourceDateEpoch = 253_402_300_799

    /// The UTC year of a moment, by the days-from-civil inverse (400-year eras).
    static func utcYear(secondsSince1970 seconds: TimeInterval) -> Int {
        // Before 15 October 1582 `Calendar`'s Gregorian calendar counts Julian years.
        guard seconds.isFinite, seconds >= -12_219_292_800, seconds < 1e13 else { return calendarYear(secondsSince1970: seconds) }
        let days = Int((seconds / 86_400).rounded(.down))
        let shifted = days + 719_468  // days from 0000-03-01
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153  // 0 is March
        let year = yearOfEra + era * 400
        return monthIndex >= 10 ? year + 1 : year
    }

    /// The same through `Calendar`: the reference the arithmetic is tested against.
    static func calendarYear(secondsSince1970 seconds: TimeInterval) -> Int {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        return calendar.component(.year, from: Date(timeIntervalSince1970: seconds))
    }

    /// The copyright holders for a manifest's authors: "A, B and C".
    public static func holders(_ authors: [String]) -> String {
        let names = authors.map(trimmingSpaces).filter { !$0.isEmpty }
        switch names.count {
        case 0: return "the authors"
        case 1: return names[0]
        default: return names.dropLast().joined(separator: ", ") + " and " + (names.last ?? "")
        }
    }

    /// The text without leading and trailing `CharacterSet.whitespaces`, done on
    /// scalars: the Foundation call costs more at start-up. The set is Foundation's
    /// exactly (tab, the space separators and U+200B); a test checks every scalar.
    static func trimmingSpaces(_ text: String) -> String {
        let isSpace = { (scalar: Unicode.Scalar) in Self.foundationWhitespace.contains(scalar.value) }
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !isSpace($0) }),
            let last = scalars.lastIndex(where: { !isSpace($0) })
        else { return "" }
        return String(scalars[first...last])
    }

    static let foundationWhitespace: Set<UInt32> = [
        0x09, 0x20, 0xA0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009,
        0x200A, 0x200B, 0x202F, 0x205F, 0x3000,
    ]

    /// The full MIT license text from `Templates/LICENSE.txt`.
    public static func license(year: Int, holders: String) -> String {
        fill(named("LICENSE.txt"), ["year": String(year), "holders": holders])
    }
}

import Foundation

/// Fills `{{placeholder}}` slots in the text templates under `Templates/`, which the
/// binary embeds so that it can write headers and licenses with no files beside it.
public enum TemplateText {
    /// The template's text with every `{{key}}` replaced by its value. Unknown keys stay.
    public static func fill(_ template: String, _ values: [String: String]) -> String {
        var text = template
        for (key, value) in values.sorted(by: { $0.key < $1.key }) {
            text = text.replacingOccurrences(of: "{{\(key)}}", with: value)
        }
        return text
    }

    /// An embedded template by its file name under `Templates/`, e.g. `header.txt`.
    public static func named(_ name: String) -> String {
        EmbeddedFiles.templates[name] ?? ""
    }

    /// The year to stamp: from `SOURCE_DATE_EPOCH` when set (reproducible builds and
    /// tests use it), else the current year, both in UTC.
    public static func currentYear(environment: [String: String], now: Date = Date()) -> Int {
        var date = now
        if let text = environment["SOURCE_DATE_EPOCH"], let seconds = TimeInterval(text) {
            date = Date(timeIntervalSince1970: seconds)
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        return calendar.component(.year, from: date)
    }

    /// The copyright holders for a manifest's authors: "A, B and C".
    public static func holders(_ authors: [String]) -> String {
        let names = authors.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        switch names.count {
        case 0: return "the authors"
        case 1: return names[0]
        default: return names.dropLast().joined(separator: ", ") + " and " + (names.last ?? "")
        }
    }

    /// The full MIT license text from `Templates/LICENSE.txt`.
    public static func license(year: Int, holders: String) -> String {
        fill(named("LICENSE.txt"), ["year": String(year), "holders": holders])
    }
}

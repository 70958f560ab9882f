/// The MIT header every copied Swift file starts with: the SPDX line from
/// `Templates/header.txt`, then the copyright line with the year and the holders.
///
/// Adding it is idempotent: text whose leading comment already has an SPDX line naming
/// MIT (`// SPDX-License-Identifier: MIT`, or Xcode's `//  SPDX-…` with two spaces, after
/// a byte order mark too) is returned unchanged, so a file never gets two headers. An SPDX
/// line naming another license is an error (`TemplateError.foreignLicense`): keeping it
/// would contradict the MIT header and LICENSE the file ships with, and replacing it would
/// drop what the author wrote. `blocks lint` reports the same line, by the same reading.
public enum LicenseHeader {
    static let spdxPrefix = "// SPDX-License-Identifier:"
    static let spdxTag = "SPDX-License-Identifier:"
    static let copyrightPrefix = "// Copyright (c) "
    /// The one license blocks ship under.
    static let license = "MIT"

    /// The header lines, ending with a newline.
    public static func render(year: Int, holders: String) -> String {
        var text = TemplateText.fill(TemplateText.named("header.txt"), ["year": String(year), "holders": holders])
        if !text.hasSuffix("\n") { text += "\n" }
        return text
    }

    /// The license an SPDX line in the text's leading `//` comment names, if it has one:
    /// `MIT` for `// SPDX-License-Identifier: MIT`, however many spaces follow the slashes.
    public static func spdxIdentifier(in text: String) -> String? {
        var rest = Substring(text)
        if rest.hasPrefix("\u{FEFF}") { rest = rest.dropFirst() }
        // Line by line through the leading comment only: the rest of the file is not read.
        while !rest.isEmpty {
            let line = rest.prefix { !$0.isNewline }
            rest = rest.dropFirst(line.count).dropFirst()
            let content = line.drop { $0 == " " || $0 == "\t" }
            guard content.hasPrefix("//") else { return nil }
            let body = content.drop { $0 == "/" }.drop { $0 == " " || $0 == "\t" }
            guard body.hasPrefix(spdxTag) else { continue }
            let identifier = body.dropFirst(spdxTag.count).trimmingWhitespace()
            return identifier.isEmpty ? nil : identifier
        }
        return nil
    }

    /// True for the identifier of the license blocks ship under (SPDX ids ignore case).
    public static func isMIT(_ identifier: String) -> Bool {
        identifier.uppercased() == license
    }

    /// True when the text's leading comment has an SPDX line (of any license).
    public static func hasHeader(_ text: String) -> Bool {
        spdxIdentifier(in: text) != nil
    }

    /// True when the text has an SPDX line naming MIT, false when it has none, and the
    /// error when it names another license.
    private static func existingHeader(_ text: String, path: String) throws(TemplateError) -> Bool {
        guard let identifier = spdxIdentifier(in: text) else { return false }
        guard isMIT(identifier) else { throw .foreignLicense(path: path, identifier: identifier) }
        return true
    }

    /// The text with the header and a blank line in front, unless it already has one.
    public static func apply(to text: String, path: String = "file", year: Int, holders: String) throws(TemplateError) -> String {
        if try existingHeader(text, path: path) { return text }
        return render(year: year, holders: holders) + "\n" + text
    }

    /// A file's bytes with the header, for Swift files only; other files and bytes that
    /// are not UTF-8 are returned as they are, since `//` is not a comment there.
    public static func apply(to data: Data, path: String, year: Int, holders: String) throws(TemplateError) -> Data {
        try apply(to: data, path: path, header: Data(render(year: year, holders: holders).utf8))
    }

    /// The same as `apply(to:path:year:holders:)` with the header already rendered, for
    /// callers that ship thousands of files with the same few headers.
    static func apply(to data: Data, path: String, header: Data) throws(TemplateError) -> Data {
        guard path.hasSuffix(".swift"), let text = String(data: data, encoding: .utf8) else { return data }
        if try existingHeader(text, path: path) { return data }
        var shipped = header
        shipped.append(UInt8(ascii: "\n"))
        shipped.append(contentsOf: text.utf8)
        return shipped
    }

    /// The bytes without a header this tool wrote (the two header lines and the blank
    /// line after them), so a shipped file can be compared with its source.
    public static func strip(_ data: Data) -> Data {
        guard let text = String(data: data, encoding: .utf8), year(in: text) != nil else { return data }
        let lines = text.split(separator: "\n", maxSplits: 3, omittingEmptySubsequences: false)
        guard lines.count == 4, lines[2].isEmpty else { return data }
        return Data(lines[3].utf8)
    }

    /// The bytes with the year of a header this tool wrote set to `year` (four digits);
    /// bytes without such a header, or with that year already, are returned as they are.
    /// `update` gives the registry's new version the year of the base it merges from, so
    /// a version built in a later year does not change every file's header.
    public static func settingYear(_ data: Data, to year: Int) -> Data {
        guard (1000...9999).contains(year), let text = String(data: data, encoding: .utf8),
            let current = self.year(in: text), current != year
        else { return data }
        let lines = text.split(separator: "\n", maxSplits: 2, omittingEmptySubsequences: false)
        var result = String(lines[0]) + "\n" + copyrightPrefix + String(year) + lines[1].dropFirst(copyrightPrefix.count + 4)
        if lines.count > 2 { result += "\n" + lines[2] }
        return Data(result.utf8)
    }

    /// The year in a header this tool wrote: the copyright line right after the SPDX line.
    public static func year(in text: String) -> Int? {
        let lines = text.split(separator: "\n", maxSplits: 2, omittingEmptySubsequences: false)
        guard lines.count >= 2, lines[0].hasPrefix(spdxPrefix), lines[1].hasPrefix(copyrightPrefix) else { return nil }
        let digits = lines[1].dropFirst(copyrightPrefix.count).prefix { $0.isNumber }
        return digits.count == 4 ? Int(digits) : nil
    }
}

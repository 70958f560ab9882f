#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The MIT header every copied Swift file starts with: the SPDX line from
/// `Templates/header.txt`, then the copyright line with the year and the holders.
///
/// Adding it is idempotent: text that already starts with an SPDX line is returned
/// unchanged, so a file never gets two headers.
public enum LicenseHeader {
    static let spdxPrefix = "// SPDX-License-Identifier:"
    static let copyrightPrefix = "// Copyright (c) "

    /// The header lines, ending with a newline.
    public static func render(year: Int, holders: String) -> String {
        var text = TemplateText.fill(TemplateText.named("header.txt"), ["year": String(year), "holders": holders])
        if !text.hasSuffix("\n") { text += "\n" }
        return text
    }

    /// True when the text's first line is an SPDX license line.
    public static func hasHeader(_ text: String) -> Bool {
        firstLine(of: text).hasPrefix(spdxPrefix)
    }

    /// The text with the header and a blank line in front, unless it already has one.
    public static func apply(to text: String, year: Int, holders: String) -> String {
        if hasHeader(text) { return text }
        return render(year: year, holders: holders) + "\n" + text
    }

    /// A file's bytes with the header, for Swift files only; other files and bytes that
    /// are not UTF-8 are returned as they are, since `//` is not a comment there.
    public static func apply(to data: Data, path: String, year: Int, holders: String) -> Data {
        guard path.hasSuffix(".swift"), let text = String(data: data, encoding: .utf8) else { return data }
        return Data(apply(to: text, year: year, holders: holders).utf8)
    }

    /// The same as `apply(to:path:year:holders:)` with the header already rendered, for
    /// callers that ship thousands of files with the same few headers.
    static func apply(to data: Data, path: String, header: Data) -> Data {
        guard path.hasSuffix(".swift"), let text = String(data: data, encoding: .utf8) else { return data }
        if hasHeader(text) { return data }
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

    /// The year in a header this tool wrote: the copyright line right after the SPDX line.
    public static func year(in text: String) -> Int? {
        let lines = text.split(separator: "\n", maxSplits: 2, omittingEmptySubsequences: false)
        guard lines.count >= 2, lines[0].hasPrefix(spdxPrefix), lines[1].hasPrefix(copyrightPrefix) else { return nil }
        let digits = lines[1].dropFirst(copyrightPrefix.count).prefix { $0.isNumber }
        return digits.count == 4 ? Int(digits) : nil
    }

    private static func firstLine(of text: String) -> Substring {
        var rest = Substring(text)
        if rest.hasPrefix("\u{FEFF}") { rest = rest.dropFirst() }
        return rest.prefix { $0 != "\n" && $0 != "\r" }
    }
}

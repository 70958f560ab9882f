import Foundation
import Testing

@testable import BlocksKit

/// `TemplateText.currentYear` computes the UTC year without `Calendar`; it must agree
/// with `Calendar` everywhere, above all at year boundaries and in leap years.
@Suite struct StartupYearTests {
    @Test func yearBoundariesAgreeWithCalendar() {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        for year in stride(from: 1583, through: 2500, by: 1) {
            guard let start = calendar.date(from: DateComponents(year: year, month: 1, day: 1)) else {
                Issue.record("no date for \(year)")
                continue
            }
            let seconds = start.timeIntervalSince1970
            #expect(TemplateText.utcYear(secondsSince1970: seconds) == year)
            #expect(TemplateText.utcYear(secondsSince1970: seconds - 1) == year - 1)
            #expect(TemplateText.utcYear(secondsSince1970: seconds - 0.5) == year - 1)
            #expect(TemplateText.utcYear(secondsSince1970: seconds + 86_400 * 59 + 1) == year, "1 March \(year)")
        }
    }

    @Test func spreadOfMomentsAgreesWithCalendar() {
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        for _ in 0..<2_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let seconds = Double(Int64(bitPattern: state) % 20_000_000_000)
            #expect(TemplateText.utcYear(secondsSince1970: seconds) == TemplateText.calendarYear(secondsSince1970: seconds), "\(seconds)")
        }
    }

    @Test func knownMoments() throws {
        #expect(TemplateText.utcYear(secondsSince1970: 0) == 1970)
        #expect(TemplateText.utcYear(secondsSince1970: -1) == 1969)
        #expect(TemplateText.utcYear(secondsSince1970: 951_782_400) == 2000)  // 29 February 2000
        #expect(TemplateText.utcYear(secondsSince1970: 1_790_000_000) == 2026)
        #expect(try TemplateText.currentYear(environment: ["SOURCE_DATE_EPOCH": "1767225599"]) == 2025)
        #expect(try TemplateText.currentYear(environment: ["SOURCE_DATE_EPOCH": "1767225600"]) == 2026)
        #expect(try TemplateText.currentYear(environment: [:]) == TemplateText.calendarYear(secondsSince1970: Date().timeIntervalSince1970))
    }
}

/// `TemplateText.holders` trims on scalars instead of through Foundation; same result.
@Suite struct StartupHoldersTests {
    @Test(arguments: [
        "", " ", "\t", "Ana", "  Ana  ", "\tAna\u{00A0}", "\u{3000}Ana Pérez\u{2009}", "Ana\n", "\nAna",
        "\u{200B}Ana", "A\u{301} ", " e\u{301}", "\u{1680}x\u{202F}", "Ana \t \u{2003}",
    ])
    func trimmingAgreesWithFoundation(text: String) {
        #expect(TemplateText.trimmingSpaces(text) == text.trimmingCharacters(in: .whitespaces), "\(text.debugDescription)")
    }

    @Test func theWhitespaceSetIsFoundations() {
        for value in UInt32(0)..<0x11_0000 {
            guard let scalar = Unicode.Scalar(value) else { continue }
            #expect(TemplateText.foundationWhitespace.contains(value) == CharacterSet.whitespaces.contains(scalar), "U+\(String(value, radix: 16))")
        }
    }

    @Test func holdersReadAsBefore() {
        #expect(TemplateText.holders([" Ana ", "", "\t", "Luis", "Marta\u{00A0}"]) == "Ana, Luis and Marta")
        #expect(TemplateText.holders(["  "]) == "the authors")
    }
}

/// `TemplateText.fill` replaces without Foundation; same text as `replacingOccurrences`.
@Suite struct StartupTemplateFillTests {
    static func reference(_ template: String, _ values: [String: String]) -> String {
        var text = template
        for (key, value) in values.sorted(by: { $0.key < $1.key }) {
            text = text.replacingOccurrences(of: "{{\(key)}}", with: value)
        }
        return text
    }

    static let cases: [(String, [String: String])] = [
        (TemplateText.named("header.txt"), ["year": "2026", "holders": "blocks contributors"]),
        (TemplateText.named("LICENSE.txt"), ["year": "2026", "holders": "Ana Pérez and Luis"]),
        ("{{a}}{{a}}{{{a}}}{{b}} {{ a }} {{A}}", ["a": "x", "b": "{{a}}"]),
        ("{{holders}} ({{year}})", ["holders": "{{year}}", "year": "1999"]),
        ("é{{year}}é\n{{year}}\r\n", ["year": "2026"]),
        ("{{year}}\u{301} {{year}}", ["year": "2026"]),
        ("\u{301}{{year}}", ["year": "2026"]),
        ("no slots", ["year": "2026"]),
        ("", ["year": "2026"]),
        ("{{year}}", [:]),
        ("{{😀}} {{ñ}}", ["😀": "smile", "ñ": "n"]),
    ]

    @Test(arguments: 0..<cases.count) func fillEqualsFoundation(index: Int) {
        let (template, values) = Self.cases[index]
        #expect(TemplateText.fill(template, values) == Self.reference(template, values), "\(template.debugDescription)")
    }
}

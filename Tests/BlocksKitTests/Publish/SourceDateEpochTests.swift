import Foundation
import Testing

@testable import BlocksKit

/// Issue 12, item 14: a `SOURCE_DATE_EPOCH` the tool cannot stamp is refused, clearly,
/// before anything is written, instead of being ignored or stamping the year 506713.
@Suite struct SourceDateEpochTests {
    @Test(arguments: [("0", 1970), ("1735689600", 2025), ("253402300799", 9999), ("", nil)] as [(String, Int?)])
    func acceptsWholeSecondsFrom1970To9999(value: String, year: Int?) throws {
        let found = try TemplateText.currentYear(environment: ["SOURCE_DATE_EPOCH": value])
        #expect(found == (year ?? TemplateText.calendarYear(secondsSince1970: Date().timeIntervalSince1970)))
    }

    @Test(arguments: ["abc", "99999999999999999999", "253402300800", "-1", "1.5", " 1735689600", "1735689600\n", "1e9", "+5", "0x10"])
    func refusesAnythingElse(value: String) {
        #expect(throws: TemplateError.invalidSourceDateEpoch(value)) {
            _ = try TemplateText.currentYear(environment: ["SOURCE_DATE_EPOCH": value])
        }
    }

    /// The real binary: add, export and build each refuse, say why, and write nothing.
    @Test(arguments: ["abc", "99999999999999999999"])
    func commandsRefuseItAndWriteNothing(value: String) throws {
        let project = try TestProject.make()
        defer { project.delete() }
        let before = try project.treeHash()
        for arguments in [["add", "pager"], ["export", "pager", "-o", "tabs.zip"], ["build", "--out", "public"]] {
            let result = try project.runBinary(arguments, environment: ["SOURCE_DATE_EPOCH": value])
            #expect(result.code == 1, "\(arguments)")
            #expect(result.errors.contains("error: SOURCE_DATE_EPOCH='\(value)' is not a time the tool can stamp"), "\(arguments): \(result.errors)")
            #expect(try project.treeHash() == before, "\(arguments) wrote something")
        }
    }
}

import Foundation
import Testing

@testable import BlocksKit

/// `PackageManifestScanner.platformEntries` matches by hand what a regular expression
/// matched before; it must find the same entries.
@Suite struct StartupPackageScannerTests {
    static func reference(_ list: String) -> [String: String] {
        let pattern = #"\.(\w+)\(\s*(?:\.v(\d+(?:_\d+)*)|"([0-9.]+)")\s*\)"#
        guard let expression = try? NSRegularExpression(pattern: pattern) else { return ["error": "pattern"] }
        var result: [String: String] = [:]
        for match in expression.matches(in: list, range: NSRange(list.startIndex..., in: list)) {
            guard let nameRange = Range(match.range(at: 1), in: list) else { continue }
            if let enumRange = Range(match.range(at: 2), in: list) {
                result[String(list[nameRange])] = list[enumRange].replacingOccurrences(of: "_", with: ".")
            } else if let stringRange = Range(match.range(at: 3), in: list) {
                result[String(list[nameRange])] = String(list[stringRange])
            }
        }
        return result
    }

    static let lists: [String] = [
        "[.iOS(.v18)]", "[.iOS(.v17), .macOS(.v10_15), .tvOS(\"17.4\"), .watchOS( .v10 )]",
        "[.iOS(.v17_)]", "[.iOS(.v_17)]", "[.iOS(.v)]", "[.iOS(\"\")]", "[.iOS(\"17.a\")]", "[.iOS (.v17)]",
        "[.iOS(\n\t.v17\n)]", "[.iOS(.v1_2_3), .iOS(.v4)]", "[..iOS(.v17)]", "[.i_OS9(.v17)]", "[.(.v17)]",
        "[.iOS(.v17.1)]", "[.iOS(\"17.1\" )]", "[.iOS(\"17\".v)]", "[.custom(\"x\", versionString: \"1.0\")]",
        "[.visionOS(.v1), .macCatalyst(.v17), .driverKit(.v19)]", "[.iOS(.v١٧)]", "[.iOS(.v17\u{00A0})]",
        "[.iOSé(.v17)]", "[.iO\u{301}S(.v17)]", "[.a\u{200D}b(.v2)]", "[.x‿y(.v3)]", "[.iOS(.v17_1_)]", "[.iOS(.v17__1)]",
        "[.iOS(.v17)).macOS(.v14)]", "[.iOS(.v17)x.macOS(.v14)]", "[.iOS(.iOS(.v17))]", "[.iOS(\"1..2\")]", "",
        "[.iOS(.v17), .iOS(.v18)]", "[ .iOS(.v17) ,\r\n .macOS(\"14.0\") ]", "[.Ⅻ(.v1)]", "[.ab(.v1)\u{2028}]",
    ]

    @Test(arguments: lists) func entriesEqualTheRegularExpression(list: String) {
        #expect(PackageManifestScanner.platformEntries(in: list) == Self.reference(list), "\(list.debugDescription)")
    }

    /// Mixes the pieces of entries in a fixed pseudo-random order (bounded count).
    @Test func mixedPiecesEqualTheRegularExpression() {
        let pieces = [".", "iOS", "v", "(", ")", "\"", "17", "_", "1", " ", "\n", ",", ".v", "é", "١", "x"]
        var state: UInt64 = 0xDEAD_BEEF_1234_5678
        for _ in 0..<500 {
            var text = ""
            for _ in 0..<14 {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                text += pieces[Int(state >> 33) % pieces.count]
            }
            #expect(PackageManifestScanner.platformEntries(in: text) == Self.reference(text), "\(text.debugDescription)")
        }
    }
}

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `JSONReader.parse`: never crashes, and whatever it accepts is JSON as `JSONDecoder`
/// reads it (its doc promises the same values) and survives a round trip through
/// `StableJSONWriter`, which writes every file the tool publishes.
enum JSONTarget {
    static let target = FuzzTarget(name: "json", run: run)

    static func run(_ data: Data) {
        guard let value = try? JSONReader.parse(data) else { return }
        let written = StableJSON.data(value)
        guard let reread = try? JSONReader.parse(written) else {
            FuzzCheck.fail("the reader refuses what StableJSON wrote for a value it read: \(String(decoding: written, as: UTF8.self))")
        }
        FuzzCheck.expect(reread == value, "a round trip through StableJSON changed \(value) into \(reread)")
        guard let decoded = try? JSONDecoder().decode(JSONValue.self, from: data) else {
            FuzzCheck.fail("JSONDecoder refuses what JSONReader accepts")
        }
        FuzzCheck.expect(decoded == value, "JSONDecoder reads \(decoded), JSONReader \(value)")
    }
}

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
        FuzzCheck.expect(agree(decoded, value), "JSONDecoder reads \(decoded), JSONReader \(value)")
    }

    /// Equal, except for the one difference `JSONReader` documents: past 2^53 it keeps a
    /// number written with a fraction or an exponent as the double it parses to, where
    /// `JSONDecoder` takes the integer its decimal digits give (dropping any fraction).
    static func agree(_ decoded: JSONValue, _ read: JSONValue) -> Bool {
        switch (decoded, read) {
        case (.int(let integer), .double(let double)): return double.magnitude >= 0x1p53 && Double(integer) == double
        case (.array(let left), .array(let right)): return left.count == right.count && zip(left, right).allSatisfy(agree)
        case (.object(let left), .object(let right)):
            return left.count == right.count && left.allSatisfy { key, value in right[key].map { agree(value, $0) } ?? false }
        default: return decoded == read
        }
    }
}

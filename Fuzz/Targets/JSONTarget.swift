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
            FuzzCheck.fail("the reader refuses what StableJSON wrote for a value it read: \(String(decoding: written, as: UTF8.self).prefix(300))")
        }
        FuzzCheck.expect(reread == value, "a round trip through StableJSON changed \(String(describing: value).prefix(300)) into \(String(describing: reread).prefix(300))")
        guard let decoded = try? JSONDecoder().decode(JSONValue.self, from: data) else {
            FuzzCheck.fail("JSONDecoder refuses what JSONReader accepts")
        }
        if let difference = difference(decoded, value, at: "") {
            FuzzCheck.fail("JSONDecoder and JSONReader differ at \(difference)")
        }
    }

    /// Where the two readings differ, with both values, or nil. One difference is
    /// allowed, the one `JSONReader` documents: past 2^53 it keeps a number written with
    /// a fraction or an exponent as the nearest double, where `JSONDecoder` takes the
    /// integer of its digits, dropping any fraction. The two then differ by less than one
    /// plus the roundings, under two units in the last place of the double.
    static func difference(_ decoded: JSONValue, _ read: JSONValue, at path: String) -> String? {
        switch (decoded, read) {
        case (.int(let integer), .double(let double)) where double.magnitude >= 0x1p53:
            return (double - Double(integer)).magnitude <= 2 * double.ulp ? nil : "\(path): \(integer) and \(double)"
        case (.array(let left), .array(let right)) where left.count == right.count:
            for (position, pair) in zip(left, right).enumerated() {
                if let found = difference(pair.0, pair.1, at: "\(path)[\(position)]") { return found }
            }
            return nil
        case (.object(let left), .object(let right)) where Set(left.keys) == Set(right.keys):
            for key in left.keys.sorted() {
                if let found = difference(left[key]!, right[key]!, at: "\(path).\(key)") { return found }
            }
            return nil
        default:
            return decoded == read ? nil : "\(path.isEmpty ? "the top" : path): \(String(describing: decoded).prefix(200)) and \(String(describing: read).prefix(200))"
        }
    }
}

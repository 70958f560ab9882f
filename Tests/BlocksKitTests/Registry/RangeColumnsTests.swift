import Foundation
import Testing

@testable import BlocksKit

/// A range is read as a stream straight into its columns, and anything the stream does not
/// take is read again through `JSONFields` (`RangeColumns(checking:)`). The stream must take
/// every range `build` writes, give the same entries, and never take what the fields
/// reader refuses.
@Suite struct RangeColumnsTests {
    static func entries(_ columns: RangeColumns) -> [RegistryEntry] { (0..<columns.count).map(columns.entry) }

    /// Ranges as `build` writes them, with words beyond ASCII, inline strings and names that
    /// are not safe, through their own dictionary and through one that lacks every string.
    static func ranges() throws -> [(data: Data, dictionary: SplitIndexColumns.Dictionary)] {
        try (UInt64(1)...6).flatMap { seed in
            let entries = SplitIndexSearchTests.entries(count: 60, seed: seed)
            let own = SplitIndexColumns.Dictionary(for: entries)
            let empty = SplitIndexColumns.Dictionary(strings: [])
            return [
                (try SplitIndexSearchTests.splitInsideCharacters(SplitIndexColumns.range(entries, dictionary: own)), own),
                (SplitIndexColumns.range(entries, dictionary: empty), empty),
            ]
        }
    }

    @Test func theStreamTakesEveryRangeBuildWritesAndReadsTheSameEntries() throws {
        for (data, dictionary) in try Self.ranges() {
            let streamed = try #require(RangeColumns.streamed(data, dictionary: dictionary))
            let checked = try RangeColumns(checking: data, path: "range", dictionary: dictionary)
            #expect(Self.entries(streamed) == Self.entries(checked))
            #expect(Self.entries(streamed) == (try SplitIndexColumns.entries(ofRange: data, path: "range", dictionary: dictionary)))
            #expect(streamed.nameOrder().order == checked.nameOrder().order)
        }
    }

    /// The same range written another way (keys in another order, spaces between tokens,
    /// a number with an exponent) is still read by the stream, to the same entries.
    @Test func theStreamReadsAnyWritingOfTheSameJSON() throws {
        let (data, dictionary) = try #require(try Self.ranges().first)
        let value = try JSONReader.parse(data)
        guard case .object(let members) = value else { Issue.record("a range is an object"); return }
        var text = "{ "
        for (number, key) in members.keys.sorted(by: >).enumerated() {
            text += (number == 0 ? "" : " ,\n ") + "\"\(key)\" :\t"
            text += key == SplitIndexColumns.Key.schemaVersion ? "0.3e1" : String(decoding: StableJSONWriter.line(members[key]!), as: UTF8.self)
        }
        let rewritten = Data((text + " }\n").utf8)
        let streamed = try #require(RangeColumns.streamed(rewritten, dictionary: dictionary))
        #expect(Self.entries(streamed) == Self.entries(try RangeColumns(checking: data, path: "range", dictionary: dictionary)))
    }

    /// Each damage the fields reader refuses is refused by the stream too, and the reader
    /// both make up (`RangeColumns(_:path:dictionary:)`) names the place at fault.
    @Test func damageTheFieldsReaderRefusesIsNeverTakenByTheStream() throws {
        let (data, dictionary) = try #require(try Self.ranges().first)
        let text = String(decoding: data, as: UTF8.self)
        let damaged: [(String, String)] = [
            ("\"schemaVersion\":3", "\"schemaVersion\":4"),  // another format
            ("\"schemaVersion\":3", "\"schemaVersion\":3,\"schemaVersion\":3"),  // a key twice
            ("\"levels\":[", "\"levels\":[0,"),  // a column longer than the names
            ("\"levels\":[", "\"levels\":[\"\\u001b[2J\","),  // a control character, and longer
            ("\"versions\":[", "\"versions\":[99999999,"),  // a code past the dictionary
            ("\"platforms\":[", "\"platforms\":[null,"),  // platforms missing for a row
            ("\"names\":[0,", "\"names\":[5,"),  // more shared than the name before has
            ("\"names\":[0,\"", "\"names\":[0,\"\\u0007"),  // a name that is not plain
            ("\"summaries\":{\"e", "\"summaries\":{\"\\u0007e"),  // a language that is not plain
        ]
        var refused = 0
        for (from, to) in damaged {
            let broken = Data(text.replacingOccurrences(of: from, with: to, options: [], range: text.range(of: from)).utf8)
            #expect(broken != data, "the range has no \(from)")
            #expect(RangeColumns.streamed(broken, dictionary: dictionary) == nil, "the stream took \(to)")
            #expect(throws: RegistryEntryProblem.self) { try RangeColumns(checking: broken, path: "range", dictionary: dictionary) }
            #expect(throws: RegistryEntryProblem.self) { try RangeColumns(broken, path: "range", dictionary: dictionary) }
            refused += 1
        }
        #expect(refused == damaged.count)
        // A key no range has: the stream leaves it to the fields reader, which reads past it.
        let extra = Data(text.replacingOccurrences(of: "\"schemaVersion\":3", with: "\"schemaVersion\":3,\"extra\":[1]").utf8)
        #expect(RangeColumns.streamed(extra, dictionary: dictionary) == nil)
        #expect(Self.entries(try RangeColumns(extra, path: "range", dictionary: dictionary)) == Self.entries(try RangeColumns(data, path: "range", dictionary: dictionary)))
        // Text after the value, and a range cut short.
        for broken in [data + Data("x".utf8), data.prefix(data.count / 2)] {
            #expect(RangeColumns.streamed(broken, dictionary: dictionary) == nil)
            #expect(throws: RegistryEntryProblem.self) { try RangeColumns(broken, path: "range", dictionary: dictionary) }
        }
    }

    /// Bytes changed at random: whatever the stream still takes, the fields reader takes
    /// too, with the same entries.
    @Test func aRangeChangedAtRandomIsReadTheSameByBothOrRefusedByTheStream() throws {
        let (data, dictionary) = try #require(try Self.ranges().first)
        var generator = SeededGenerator(seed: 37)
        let alphabet = Array("0123456789[]{},:\"\\ nule-.".utf8)
        var (taken, compared) = (0, 0)
        for _ in 0..<3000 {
            var bytes = [UInt8](data)
            for _ in 0..<Int.random(in: 1...3, using: &generator) {
                bytes[Int.random(in: 0..<bytes.count, using: &generator)] = alphabet.randomElement(using: &generator)!
            }
            guard let streamed = RangeColumns.streamed(Data(bytes), dictionary: dictionary) else { continue }
            taken += 1
            let checked = try? RangeColumns(checking: Data(bytes), path: "range", dictionary: dictionary)
            #expect(checked != nil, "the stream took what the fields reader refuses: \(String(decoding: bytes, as: UTF8.self).prefix(200))")
            if let checked, Self.entries(streamed) == Self.entries(checked) { compared += 1 }
        }
        // Some changes leave a range that is still one (a digit for a digit).
        #expect(taken > 0 && compared == taken)
    }

    /// A dictionary is read as a stream when it is as `build` writes it, and through the
    /// fields reader otherwise: to the same strings, or to the same refusal.
    @Test func aDictionaryIsStreamedOnlyAsWritten() throws {
        let dictionary = SplitIndexColumns.Dictionary(strings: ["tabs", "pestañas", "東京", "", "a\u{301}"])
        let stream: (Data) -> [String]? = { data in try? JSONReader.stream(data, SplitIndexColumns.Dictionary.streamedStrings) }
        #expect(stream(dictionary.data) == dictionary.strings)
        #expect(try SplitIndexColumns.Dictionary.decode(dictionary.data, path: "dictionary").strings == dictionary.strings)
        let text = String(decoding: dictionary.data, as: UTF8.self)
        // Another writing of the same JSON, and an extra key the fields reader reads past.
        for variant in [" { \"strings\" : [\"tabs\",\"pestañas\",\"東京\",\"\",\"a\\u0301\"] , \"schemaVersion\" : 3 } ",
            text.replacingOccurrences(of: "{", with: "{\"extra\":[1],")] {
            #expect(try SplitIndexColumns.Dictionary.decode(Data(variant.utf8), path: "dictionary").strings == dictionary.strings, "\(variant)")
        }
        #expect(stream(Data(text.replacingOccurrences(of: "{", with: "{\"extra\":[1],").utf8)) == nil)
        // Refused by both: a control character, another version, a key twice, a string short.
        for broken in [text.replacingOccurrences(of: "tabs", with: "ta\\u001bbs"), text.replacingOccurrences(of: ":3", with: ":4"),
            text.replacingOccurrences(of: "{", with: "{\"schemaVersion\":3,"), String(text.dropLast(4))] {
            #expect(stream(Data(broken.utf8)) == nil, "\(broken)")
            #expect(throws: RegistryEntryProblem.self) { try SplitIndexColumns.Dictionary.decode(Data(broken.utf8), path: "dictionary") }
        }
    }
}

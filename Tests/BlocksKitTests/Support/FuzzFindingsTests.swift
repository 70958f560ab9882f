import Foundation
import Testing

@testable import BlocksKit

/// What the fuzz targets (Fuzz/Targets, docs/FUZZING.md) found, pinned so it stays fixed.
@Suite(.serialized) struct FuzzFindingsTests {
    /// A real entry, as `blocks build` writes it into `index.json`.
    static func realEntry(in folder: TemporaryFolder) throws -> String {
        let catalog = try RegistryFixtures.writeCatalog(in: folder, count: 1)
        try RegistryFixtures.build(catalog: catalog, output: folder.path("registry"))
        let index = try RegistryIndex.decode(Data(contentsOf: folder.path("registry/index.json")), location: "test")
        return try String(contentsOf: folder.path("registry/" + index.blocks[0].metadata), encoding: .utf8)
    }

    static func clientsAccept(_ text: String) -> Bool {
        (try? RegistryIndex.decode(Data(text.utf8), location: "test")) != nil
    }

    /// As `MirrorPlan.read` reads an index: the scan, then every entry.
    static func mirrorAccepts(_ text: String) -> Bool {
        let data = Data(text.utf8)
        guard let (_, ranges) = try? MirrorIndexReader.scan(data, location: "test") else { return false }
        return ranges.enumerated().allSatisfy { position, range in
            (try? MirrorIndexReader.entry(from: data, range: range, position: position, location: "test")) != nil
        }
    }

    /// The mirror serves the upstream index's bytes as they are, so it must take exactly
    /// the indexes clients take. It used to skip top-level values without reading them
    /// (`nul`, `[}`), compare keys unescaped, keep the last of two `blocks`, want a
    /// schemaVersion written as digits only, and read each entry as if it were the whole
    /// document, two levels short of the real depth limit.
    @Test func theMirrorAcceptsExactlyTheIndexesClientsAccept() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let entry = try Self.realEntry(in: folder)
        func nested(_ depth: Int) -> String { String(repeating: "[", count: depth) + String(repeating: "]", count: depth) }
        let deepEntry = { (depth: Int) in entry.replacingOccurrences(of: #""metadata" :"#, with: #""nested" : \#(nested(depth)), "metadata" :"#) }
        // An entry sits in the top object and the blocks array, and its own object is a
        // third level, so a member's arrays may nest 64 - 3 deep.
        let cases: [(String, String, Bool)] = [
            ("a plain index", #"{"schemaVersion": 1, "blocks": [\#(entry)]}"#, true),
            ("schemaVersion 1.0", #"{"schemaVersion": 1.0, "blocks": [\#(entry)]}"#, true),
            ("schemaVersion 1e0", #"{"schemaVersion": 1e0, "blocks": []}"#, true),
            ("an escaped key", #"{"schemaVersion": 1, "bl\u006fcks": [\#(entry)]}"#, true),
            ("nesting at the limit", #"{"schemaVersion": 1, "blocks": [\#(deepEntry(61))]}"#, true),
            ("nesting past the limit", #"{"schemaVersion": 1, "blocks": [\#(deepEntry(62))]}"#, false),
            ("a repeated blocks", #"{"schemaVersion": 1, "blocks": [], "blocks": [\#(entry)]}"#, false),
            ("a repeated escaped key", #"{"schemaVersion": 1, "blocks": [], "bl\u006fcks": []}"#, false),
            ("a broken literal", #"{"schemaVersion": 1, "blocks": [], "note": nul}"#, false),
            ("mismatched brackets", #"{"schemaVersion": 1, "blocks": [], "note": [}}"#, false),
            ("a string schemaVersion", #"{"schemaVersion": "1", "blocks": []}"#, false),
            ("a blocks object", #"{"schemaVersion": 1, "blocks": {}}"#, false),
        ]
        for (label, text, accepted) in cases {
            #expect(Self.clientsAccept(text) == accepted, "clients: \(label)")
            #expect(Self.mirrorAccepts(text) == accepted, "mirror: \(label)")
        }
        // A byte that is not UTF-8 in a value, then in a key, of a member the mirror skipped.
        let notUTF8 = [
            Data(#"{"schemaVersion": 1, "blocks": [], "note": ""#.utf8) + [0xFF] + Data(#""}"#.utf8),
            Data(#"{"schemaVersion": 1, "blocks": [], ""#.utf8) + [0xFF] + Data(#"": 1}"#.utf8),
        ]
        for data in notUTF8 {
            #expect((try? RegistryIndex.decode(data, location: "test")) == nil)
            #expect((try? MirrorIndexReader.scan(data, location: "test")) == nil)
        }
    }

    @Test func theMirrorNamesTheProblemAsClientsDo() throws {
        let expected: [(String, String)] = [
            (#"{"schemaVersion": "1", "blocks": []}"#, "wrong type at schemaVersion"),
            (#"{"schemaVersion": 1, "blocks": {}}"#, "wrong type at blocks"),
            (#"{"schemaVersion": 1, "blocks": [], "note": nul}"#, "not valid JSON"),
        ]
        for (text, reason) in expected {
            #expect(throws: RegistryError.invalidIndex(location: "test", reason: reason), "\(text)") {
                try MirrorIndexReader.scan(Data(text.utf8), location: "test")
            }
            #expect(throws: RegistryError.invalidIndex(location: "test", reason: reason), "\(text)") {
                try RegistryIndex.decode(Data(text.utf8), location: "test")
            }
        }
    }

    /// End to end, with the real binary against nginx: an upstream index that clients
    /// refuse is refused by `mirror` too, which writes no index; one that clients read
    /// (schemaVersion 1.0) is mirrored byte for byte.
    @Test func theRealMirrorServesOnlyWhatClientsRead() throws {
        let setup = try MirrorTests.Setup(blocks: 2)
        defer { setup.cleanUp() }
        let index = setup.upstream.appendingPathComponent("index.json")
        let good = try String(contentsOf: index, encoding: .utf8)
        #expect(good.contains(#""schemaVersion" : 1"#))

        try good.replacingOccurrences(of: #""schemaVersion" : 1"#, with: #""note" : [}, "schemaVersion" : 1"#)
            .write(to: index, atomically: true, encoding: .utf8)
        let client = setup.run(["list", "--registry", setup.nginx.baseURL + "/"])
        #expect(client.code != 0 && client.err.contains("not valid JSON"), "\(client.err)")
        let refused = setup.sync()
        #expect(refused.code != 0 && refused.err.contains("not valid JSON"), "\(refused.err)")
        #expect(!FileManager.default.fileExists(atPath: setup.mirror.appendingPathComponent("index.json").path))

        try good.replacingOccurrences(of: #""schemaVersion" : 1"#, with: #""schemaVersion" : 1.0"#)
            .write(to: index, atomically: true, encoding: .utf8)
        #expect(setup.run(["list", "--registry", setup.nginx.baseURL + "/"]).code == 0)
        let mirrored = setup.sync()
        #expect(mirrored.code == 0, "\(mirrored.err)")
        #expect(try Data(contentsOf: setup.mirror.appendingPathComponent("index.json")) == Data(contentsOf: index))
        #expect(setup.run(["list", "--registry", setup.mirror.path]).code == 0)
    }
}

/// The JSON fuzz target's finding: past 2^53 a double is never taken for an integer.
@Suite struct FuzzFindingsNumberTests {
    @Test func aNumberPast2To53WithAFractionIsNeverAnInteger() throws {
        // 992233720368547758.012 is not whole; its nearest double is, and used to come back as an Int.
        #expect(try JSONReader.parse(Data("9922337203685477580.12e-1".utf8)) == .double(992233720368547758.012))
        // Not even a whole one: the nearest double is another integer (…680).
        #expect(try JSONReader.parse(Data("123456789012345678.0".utf8)) == .double(123456789012345678.0))
        // Below 2^53 a whole number stays an integer however it is written, as JSONDecoder has it.
        for (text, value) in [("1.5e3", 1500), ("9007199254740991.0", 9_007_199_254_740_991), ("-4503599627370496e0", -4_503_599_627_370_496)] {
            #expect(try JSONReader.parse(Data(text.utf8)) == .int(value), "\(text)")
            #expect(try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)) == .int(value), "\(text)")
        }
        #expect(try JSONReader.parse(Data("9007199254740993".utf8)) == .int(9_007_199_254_740_993))
    }
}

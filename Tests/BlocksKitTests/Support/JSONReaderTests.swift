import Foundation
import Testing

@testable import BlocksKit

/// `JSONReader` and the mappings built on it must give exactly what `JSONDecoder` gives,
/// and refuse what it refuses; `StableJSONWriter` must write exactly what `JSONEncoder`
/// writes in `StableJSON`'s layout.
@Suite struct JSONReaderTests {
    @Test func readsEveryKindOfValueAsJSONDecoderDoes() throws {
        let texts = [
            #"{"a": [1, -2, 0, 3.5, -0.25, 2E-2, 1.5e3, 2.0, -0.0, 12345678901234], "b": {"c": null, "d": true, "e": false}}"#,
            #"["plain", "esc\"aped\\ \/ \b\f\n\r\t", "\u00e9\u4e2d", "\ud83d\ude00", "ñandú 中文 😀", ""]"#,
            " \n\t{ } ",
            "[[], {}, [[[]]]]",
            "42",
            #""only a string""#,
        ]
        for text in texts {
            let data = Data(text.utf8)
            #expect(try JSONReader.parse(data) == JSONDecoder().decode(JSONValue.self, from: data), "\(text)")
        }
    }

    /// Whole numbers of up to 18 digits are read from their digits, longer ones as text:
    /// both as `JSONDecoder` reads them, either side of the bound and of `Int`'s range.
    @Test func wholeNumbersOfEveryLengthReadAsJSONDecoderReadsThem() throws {
        var texts = ["0", "-0", "7", "-7", "10", "999999999999999999", "-999999999999999999", "1000000000000000000"]
        texts += ["9223372036854775807", "-9223372036854775808", "9223372036854775808", "-9223372036854775809", "123456789012345678901"]
        for length in 1...20 { texts.append(String(repeating: "9", count: length)) }
        for text in texts {
            let data = Data("[\(text)]".utf8)
            #expect(try JSONReader.parse(data) == JSONDecoder().decode(JSONValue.self, from: data), "\(text)")
        }
    }

    @Test func refusesWhatIsNotJSON() {
        let broken = [
            "", " ", "{", "}", "[1,]", "[1 2]", #"{"a":1,}"#, #"{"a" 1}"#, #"{a: 1}"#, "{'a': 1}",
            "01", "1.", ".5", "-", "1e", "+1", "NaN", "Infinity", "1e999", "tru", "nul", "[true false]",
            #""unterminated"#, "\"tab\there\"", #""\x""#, #""\u12""#, #""\ud83d""#, #""\ude00""#, #""\ud83d\u0041""#,
            #"{"a": 1} {"b": 2}"#, #"{"a": 1, "a": 2}"#,
        ]
        for text in broken {
            #expect(throws: JSONReader.Failure.self, "\(text)") { try JSONReader.parse(Data(text.utf8)) }
            // JSONDecoder takes a trailing comma and the last of duplicate keys; nothing else here.
            if !text.contains(",]") && !text.contains(",}") && !text.contains(#""a": 1, "a""#) {
                #expect((try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))) == nil, "JSONDecoder accepts \(text)")
            }
        }
        #expect(throws: JSONReader.Failure.self) { try JSONReader.parse(Data([0x22, 0xC3, 0x28, 0x22])) }
        #expect(throws: JSONReader.Failure.self) { try JSONReader.parse(Data([0x22, 0xFF, 0x22])) }
    }

    @Test func deepNestingIsRefusedWithoutExhaustingTheStack() throws {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(throws: JSONReader.Failure(offset: JSONReader.maximumDepth, reason: "nested deeper than \(JSONReader.maximumDepth) levels")) {
            try JSONReader.parse(Data(deep.utf8))
        }
        let allowed = String(repeating: "[", count: JSONReader.maximumDepth) + String(repeating: "]", count: JSONReader.maximumDepth)
        _ = try JSONReader.parse(Data(allowed.utf8))
    }

    @Test func registryEntriesAndIndexesMatchJSONDecoder() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        try RegistryFixtures.build(catalog: repositoryRoot.appendingPathComponent("Catalog"), output: folder.path("real"))
        try RegistryFixtures.build(catalog: try RegistryFixtures.writeCatalog(in: folder, count: 30), output: folder.path("generated"))
        for registry in ["real", "generated"] {
            let index = try Data(contentsOf: folder.path("\(registry)/index.json"))
            let decoded = try JSONDecoder().decode(RegistryIndex.self, from: index)
            #expect(try RegistryIndex.read(index) == decoded)
            #expect(decoded.blocks.count >= 5)
            for entry in decoded.blocks {
                let metadata = try Data(contentsOf: folder.path("\(registry)/\(entry.metadata)"))
                #expect(try RegistryEntry.decode(metadata: metadata) == JSONDecoder().decode(RegistryEntry.self, from: metadata))
                #expect(try RegistryEntry.decode(metadata: metadata) == entry)
            }
        }
    }

    @Test func catalogManifestsMatchJSONDecoder() throws {
        let catalog = repositoryRoot.appendingPathComponent("Catalog")
        let names = try FileManager.default.contentsOfDirectory(atPath: catalog.path).filter {
            FileManager.default.fileExists(atPath: catalog.appendingPathComponent("\($0)/block.json").path)
        }
        #expect(names.count == 9)
        for name in names {
            let data = try Data(contentsOf: catalog.appendingPathComponent("\(name)/block.json"))
            let expected = try JSONDecoder().decode(BlockManifest.self, from: data)
            #expect(BlockManifest.decode(data) == expected)
        }
        #expect(BlockManifest.decode(Data("{}".utf8)) == nil)
        #expect(BlockManifest.decode(Data("[]".utf8)) == nil)
    }

    @Test func theWriterWritesWhatTheEncoderWrites() throws {
        let value: JSONValue = .object([
            "text": .string("Quote \" backslash \\ slash / tab \t line\nbreak \r \u{8}\u{C}\u{1}\u{1F}\u{0} é 🙂 \u{7F} \u{2028}"),
            "empty": .array([]), "none": .object([:]), "nested": .array([.object(["k": .array([])]), .object([:]), .array([.int(-3)])]),
            "flags": .array([.bool(true), .bool(false), .null]),
            "numbers": .array([
                .int(0), .int(12_345_678_901), .double(1.5), .double(0), .double(-0.0), .double(3), .double(2.871), .double(1e-5), .double(1.5e300),
                .double(1e16),
            ]),
            "keys": .object([
                "Zeta": .int(1), "alpha": .int(2), "Alpha": .int(3), "ä": .int(4), "a_b": .int(5), "a-b": .int(6), "e\u{301}z": .int(7), "f": .int(8), "fa": .int(9), "f0": .int(10),
            ]),
        ])
        let expected = try StableJSON.encoder().encode(value)
        #expect(Data(StableJSONWriter.write(value)) == expected, "\(String(decoding: StableJSONWriter.write(value), as: UTF8.self))")
        // Read back, the value is the same (but for doubles, which come back as integers when whole).
        guard case .object(var members) = value else { return }
        members["numbers"] = nil
        #expect(try JSONReader.parse(Data(StableJSONWriter.write(.object(members)))) == .object(members))
        #expect(
            JSONOutput.encode(["b": .int(1), "a": .array([])])
                == String(decoding: try StableJSON.encoder().encode(JSONValue.object(["b": .int(1), "a": .array([])])), as: UTF8.self))
    }

    /// An array member printed element by element (`printJSON(_:array:produce:)`, which
    /// `list --json` uses) gives `printJSON`'s bytes: no element, one, several; the array's
    /// key first, in the middle and last; and a password in a URL masked either way.
    @Test func anArrayPrintedElementByElementIsTheWholeObjectsJSON() {
        let elements: [JSONValue] = [.object(["name": .string("a"), "tags": .array([.string("x")])]), .string("https://me:secret@host/r"), .array([]), .null]
        for count in [0, 1, elements.count] {
            for others in [["z": JSONValue.int(1)], ["a": .string("first"), "zz": .object(["k": .bool(true)])], [:]] {
                let whole = makeContext(directory: URL(fileURLWithPath: "/"))
                whole.0.printJSON(others.merging(["blocks": .array(Array(elements.prefix(count)))]) { one, _ in one })
                let streamed = makeContext(directory: URL(fileURLWithPath: "/"))
                streamed.0.printJSON(others, array: "blocks") { print in elements.prefix(count).forEach(print) }
                #expect(streamed.1.text == whole.1.text && !whole.1.text.contains("secret"), "\(streamed.1.text)\n---\n\(whole.1.text)")
            }
        }
    }

    /// Documents put together from members written once are what the whole object
    /// writes: shared and added keys interleaved in UTF-8 order, an added key replacing
    /// a shared one, nested containers, the empty object.
    @Test func sharedMembersWriteWhatTheWholeObjectWrites() throws {
        let shared: [String: JSONValue] = [
            "name": .string("tab-strip"), "api": .array([.object(["b": .int(1), "a": .array([])]), .object([:])]),
            "Zeta": .object(["x": .string("line\nbreak")]), "ä": .bool(true), "version": .string("1.0.0"), "a-b": .null,
        ]
        let added: [String: JSONValue] = ["versions": .array([.object(["version": .string("1.0.0")])]), "a_b": .int(2), "name": .string("other"), "zz": .object([:])]
        let members = StableJSONMembers(shared)
        #expect(members.data == (try StableJSON.encoder().encode(JSONValue.object(shared))) + Data("\n".utf8))
        let merged = shared.merging(added) { _, new in new }
        #expect(members.adding(added).data == StableJSON.data(.object(merged)))
        #expect(members.adding(added).data == (try StableJSON.encoder().encode(JSONValue.object(merged))) + Data("\n".utf8))
        #expect(StableJSONMembers([:]).data == StableJSON.data(.object([:])))
        #expect(StableJSONMembers([:]).adding(shared).data == members.data)
    }

    @Test func manifestsAndEntriesAreWrittenAsTheEncoderWritesThem() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        try RegistryFixtures.build(catalog: repositoryRoot.appendingPathComponent("Catalog"), output: folder.path("real"))
        try RegistryFixtures.build(catalog: try RegistryFixtures.writeCatalog(in: folder, count: 3), output: folder.path("generated"))
        for registry in ["real", "generated"] {
            let index = try JSONDecoder().decode(RegistryIndex.self, from: Data(contentsOf: folder.path("\(registry)/index.json")))
            for entry in index.blocks {
                #expect(entry.stableJSON == (try StableJSON.data(entry)))
                #expect(entry.stableMembers().data == entry.stableJSON)
                #expect(BlockPackager.manifestMembers(entry.manifest).data == (try StableJSON.data(entry.manifest)))
                #expect(StableJSON.data(entry.manifest.jsonValue) == (try StableJSON.data(entry.manifest)))
                // The metadata file is the entry plus its versions, and reads back as both.
                let file = try Data(contentsOf: folder.path("\(registry)/\(entry.metadata)"))
                let metadata = try BlockMetadata.decode(file)
                #expect(metadata.entry == entry && metadata.stableJSON == file)
                #expect(metadata.versions.map(\.version) == [entry.manifest.version])
            }
        }
    }

    @Test func locksAreWrittenAsTheEncoderWritesThem() throws {
        let lock = Lockfile(blocks: [
            "pager": Lockfile.Block(
                registry: "https://example.com/r", version: "1.2.0", folder: "Sources/App/Blocks/pager",
                createdFolders: ["Sources/App/Blocks/pager", "Sources/App/Blocks"],
                files: [Lockfile.File(path: "b.swift", sha256: "bb"), Lockfile.File(path: "a.swift", sha256: "aa")]),
            "top-tabs": Lockfile.Block(registry: "(embedded)", version: "0.1.0", folder: "Blocks/top-tabs", createdFolders: [], files: []),
        ])
        #expect(lock.encoded() == (try StableJSON.data(lock)))
        #expect(Lockfile().encoded() == (try StableJSON.data(Lockfile())))
    }

    /// The lock's reader gives what the oracle decodes, for a version 1 lock (no
    /// namespace, requiredBy or requested), a current one with packages, and strings the
    /// registry formats refuse (a project's own file takes any).
    @Test func locksAreReadAsTheDecoderReadsThem() throws {
        var lock = Lockfile(
            blocks: [
                "@acme/pager": Lockfile.Block(
                    registry: "https://acme.example/r", version: "1.2.0", folder: "Blocks/pager", createdFolders: ["Blocks"],
                    files: [Lockfile.File(path: "Blocks/pager/a\tb.swift", sha256: "aa")], namespace: "@acme", requiredBy: ["tabs"],
                    requested: false, packages: ["https://github.com/a/b"])
            ],
            packages: [
                Lockfile.Package(
                    url: "https://github.com/a/b", block: "@acme/pager", added: true, createdList: true,
                    products: [Lockfile.Package.Product(name: "B", target: "App", createdList: false)])
            ])
        lock.lockVersion = 2
        let versionOne = #"{"lockVersion": 1, "blocks": {"tabs": {"registry": "(embedded)", "version": "1.0.0", "folder": "Blocks/tabs", "createdFolders": [], "files": [{"path": "Blocks/tabs/T.swift", "sha256": "cc"}]}}}"#
        for data in [lock.encoded(), Data(versionOne.utf8), Lockfile().encoded()] {
            let read = try RegistryEntryProblem.reading(data, plainStrings: false) { (fields) throws(JSONFields.Problem) in try Lockfile(fields: fields) }
            #expect(read == (try JSONDecoder().decode(Lockfile.self, from: data)))
        }
    }

    /// `blocks.json`, `lint --json`'s problems and `info --json`'s parameters, as the
    /// oracle writes them; a config reads back as itself.
    @Test func configsProblemsAndParametersAreWrittenAsTheEncoderWritesThem() throws {
        let configs = [
            ProjectConfig(),
            ProjectConfig(
                path: "Sources/App/Blocks", registry: "https://example.com/r",
                registries: [
                    "@acme": ProjectConfig.RegistryEntry(url: "https://acme.example/r"),
                    "@team": ProjectConfig.RegistryEntry(url: "../team", headers: ["Authorization": "Bearer ${TOKEN}"], keys: ["RWQkey"]),
                    "@keyed": ProjectConfig.RegistryEntry(url: "https://k.example/", keys: ["RWQother"]),
                ],
                keys: ["RWQmain"], target: "App",
                plugins: [
                    "blocks-plugin-x": .object([
                        "transform": .bool(true), "order": .int(2), "weight": .double(1.5), "none": .null, "list": .array([]), "text": .string("a/b"),
                    ])
                ]),
        ]
        for config in configs {
            #expect(try config.encoded() == (try StableJSON.data(config)))
            #expect(ProjectConfig(json: try JSONReader.parse(config.encoded())) == config)
        }
        let problems = [
            LintProblem(file: "tabs/block.json", field: "title.en", message: #"needs "quotes" \ and / slashes"#),
            LintProblem(file: "pager/block.json", field: "", message: "not a JSON object"),
        ]
        #expect(JSONValue.array(problems.map(\.jsonValue)) == (try JSONValue(encoding: problems)))
        let parameters = [
            APIParameter(name: "selection", type: "Binding<Int>", default: nil, description: "The tab shown."),
            APIParameter(name: "spacing", type: "CGFloat", default: "8", description: "Between tabs."),
        ]
        #expect(JSONValue.array(parameters.map(\.jsonValue)) == (try JSONValue(encoding: parameters)))
    }

    @Test func aMisshapenEntryIsNamedByItsPath() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        try RegistryFixtures.build(catalog: try RegistryFixtures.writeCatalog(in: folder, count: 1), output: folder.path("public"))
        let text = try String(contentsOf: folder.path("public/blocks/block-0000.json"), encoding: .utf8)
        let cases: [(String, String, String)] = [
            (#""version" : "1.0.0""#, #""version" : 1"#, "wrong type at version"),
            (#""en" : "Block 0""#, #""en" : ["Block 0"]"#, "wrong type at title.en"),
            (#""role" : "component""#, #""role" : "wizard""#, "wrong type at files[0].role"),
            (#""license" : "MIT","#, "", "missing license"),
            (#""size" : "#, #""size" : 1.5, "x" : "#, "wrong type at archives.tar.gz.size"),
            (#""size" : "#, #""size" : "1", "x" : "#, "wrong type at archives.tar.gz.size"),
        ]
        for (original, replacement, reason) in cases {
            #expect(text.contains(original), "\(original)")
            let changed = Data(text.replacingOccurrences(of: original, with: replacement).utf8)
            #expect((try? JSONDecoder().decode(RegistryEntry.self, from: changed)) == nil, "\(reason)")
            #expect(throws: RegistryEntryProblem.self, "\(reason)") { try RegistryEntry.decode(metadata: changed) }
            do throws(RegistryEntryProblem) {
                _ = try RegistryEntry.decode(metadata: changed)
            } catch {
                #expect(error.reason == reason || reason.hasPrefix("wrong type at archives") && error.reason.hasPrefix("wrong type at archives"))
            }
        }
    }
}

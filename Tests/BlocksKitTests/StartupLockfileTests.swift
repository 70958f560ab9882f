import Foundation
import Testing
@testable import BlocksKit

/// `Lockfile.encoded()` writes JSON by hand; its bytes must equal `JSONEncoder`'s.
@Suite struct StartupLockfileTests {
    static func reference(_ lock: Lockfile) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        var data = try encoder.encode(lock)
        data.append(contentsOf: Array("\n".utf8))
        return data
    }

    static let awkward: String = String(decoding: (0..<0x80).map { UInt8($0) }, as: UTF8.self) + "é/ñ\u{2028}\u{2029}👍\u{7F}\u{FEFF}"

    static let locks: [Lockfile] = [
        Lockfile(),
        Lockfile(blocks: ["scrolling-strip": .init(registry: "embedded", version: "1.0.0", folder: "Sources/App/Blocks/scrolling-strip",
                                                 createdFolders: ["Sources/App/Blocks", "Sources/App/Blocks/scrolling-strip"],
                                                 files: [.init(path: "Sources/App/Blocks/scrolling-strip/B.swift", sha256: String(repeating: "ab", count: 32)),
                                                         .init(path: "Sources/App/Blocks/scrolling-strip/A.swift", sha256: String(repeating: "0f", count: 32))])]),
        Lockfile(blocks: ["b": .init(registry: "https://example.com/r/", version: "2.0", folder: "x", createdFolders: [], files: []),
                          "a": .init(registry: awkward, version: awkward, folder: awkward, createdFolders: [awkward, "z", "a"],
                                     files: [.init(path: awkward, sha256: awkward)]),
                          awkward: .init(registry: "", version: "", folder: "", createdFolders: [""], files: [.init(path: "", sha256: "")])]),
    ]

    @Test(arguments: 0..<locks.count) func bytesEqualJSONEncoder(index: Int) throws {
        let lock = Self.locks[index]
        let ours = try lock.encoded()
        #expect(ours == (try Self.reference(lock)), "\(String(decoding: ours, as: UTF8.self))")
        #expect(try JSONDecoder().decode(Lockfile.self, from: ours) == lock)
    }

    @Test func lockVersionOtherThanOne() throws {
        var lock = Self.locks[1]
        lock.lockVersion = 12
        #expect(try lock.encoded() == (try Self.reference(lock)))
    }
}

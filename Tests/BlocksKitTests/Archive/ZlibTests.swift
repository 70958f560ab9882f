import Foundation
import Testing

@testable import BlocksKit

/// `Zlib.gzip` read back by the real `gzip` and by Python's `gzip` module: small inputs
/// (one piece), inputs cut into pieces deflated in parallel, a cut exactly at a piece's
/// end, and nothing at all. The bytes must not depend on anything but the input.
@Suite struct ZlibTests {
    /// Text like a registry index: repetitive JSON with enough variety to compress as a
    /// real one does, and a byte pattern that shifts so no two pieces are alike.
    static func indexLikeText(bytes: Int) -> Data {
        var text = "{\"blocks\":["
        var index = 0
        while text.utf8.count < bytes {
            text += "{\"name\":\"block-\(index)\",\"version\":\"1.\(index % 7).\(index % 13)\",\"tags\":[\"tabs\",\"t\(index * 31 % 977)\"]},"
            index += 1
        }
        return Data(text.utf8.prefix(bytes))
    }

    /// Decodes with `gzip -dc` (the real tool) and with Python, and says how Python's own
    /// level-6 gzip of the same bytes compares in size.
    func readBack(_ compressed: Data, plain: Data) throws -> (gzipSame: Bool, pythonSame: Bool, pythonSize: Int) {
        let folder = try TemporaryFolder("zlib")
        defer { folder.cleanUp() }
        let gz = folder.url.appendingPathComponent("data.gz")
        let raw = folder.url.appendingPathComponent("data")
        try compressed.write(to: gz)
        try plain.write(to: raw)
        let tool = try ArchiveTool.run(["sh", "-c", "gzip -dc < '\(gz.path)' | cmp - '\(raw.path)' && echo same"])
        let python = try ArchiveTool.python(
            """
            import gzip, sys
            packed = open(sys.argv[1], 'rb').read()
            plain = open(sys.argv[2], 'rb').read()
            print(gzip.decompress(packed) == plain, len(gzip.compress(plain, 6, mtime=0)))
            """, [gz.path, raw.path])
        let words = python.output.split(separator: " ").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        return (tool.output.contains("same"), words.first == "True", Int(words.last ?? "") ?? -1)
    }

    @Test(arguments: [0, 1, 1500, Zlib.pieceSize, Zlib.pieceSize + 1, 3 * Zlib.pieceSize + 12_345])
    func gzipReadsBackWithTheRealTools(size: Int) throws {
        let plain = Self.indexLikeText(bytes: size)
        #expect(plain.count == size)
        let compressed = try Zlib.gzip(plain)
        let read = try readBack(compressed, plain: plain)
        #expect(read.gzipSame, "gzip -dc, \(size) bytes")
        #expect(read.pythonSame, "python gzip, \(size) bytes")
        // What `gzip -n` writes: deflate, no flags, no time, then the Unix system code.
        #expect(Array(compressed.prefix(10)) == [0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3])
        if size > 1000 {
            // Cutting into primed pieces costs next to nothing in size against one stream.
            #expect(Double(compressed.count) <= Double(read.pythonSize) * 1.01 + 64, "\(compressed.count) vs \(read.pythonSize)")
        }
    }

    /// The same input gives the same bytes, whichever deflate states the pool hands out,
    /// and pieces running at once do not disturb each other.
    @Test func theBytesDependOnlyOnTheInput() throws {
        let large = Self.indexLikeText(bytes: 2 * Zlib.pieceSize + 777)
        let small = Self.indexLikeText(bytes: 4096)
        let first = try Zlib.gzip(large)
        let together = ConcurrentMap.map(Array(0..<8)) { index in Result { try Zlib.gzip(index % 2 == 0 ? large : small) } }
        for (index, result) in together.enumerated() {
            #expect(try result.get() == (index % 2 == 0 ? first : Zlib.gzip(small)))
        }
        #expect(try Zlib.gzip(large) == first)
        #expect(try Zlib.gzip(Data("a".utf8)) != Zlib.gzip(Data("b".utf8)))
    }
}

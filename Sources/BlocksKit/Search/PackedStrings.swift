/// A list of strings kept as one run of UTF-8 bytes plus the offset where each ends.
///
/// The search index stores its vocabulary and block names this way, so loading 20,000
/// words from disk is two copies of bytes, and matching can read the bytes directly
/// without creating a `String` per word.
struct PackedStrings: Sendable, Equatable {
    private(set) var bytes: [UInt8]
    /// `ends[i]` is the offset just past string `i`; string `i` starts at `ends[i - 1]` (or 0).
    private(set) var ends: [UInt32]

    init() {
        bytes = []
        ends = []
    }

    init<Strings: Sequence>(_ strings: Strings) where Strings.Element == String {
        self.init()
        for string in strings { append(string) }
    }

    /// Rebuilds a list from `encoded`, or nil when the bytes do not describe a valid
    /// list (a damaged index).
    init?(encoded: UnsafeRawBufferPointer) {
        guard encoded.count >= 4 else { return nil }
        let count = Int(UInt32(littleEndian: encoded.loadUnaligned(as: UInt32.self)))
        let bytesStart = 4 + count * 4
        guard count <= encoded.count / 4, bytesStart <= encoded.count,
            let ends = PackedIntegers.decode(UnsafeRawBufferPointer(rebasing: encoded[4..<bytesStart]))
        else { return nil }
        var previous: UInt32 = 0
        for end in ends {
            guard end >= previous else { return nil }
            previous = end
        }
        guard Int(previous) == encoded.count - bytesStart else { return nil }
        self.ends = ends
        self.bytes = Array(encoded[bytesStart...])
    }

    /// One blob: the count, the end offsets, then the bytes, integers little-endian.
    var encoded: [UInt8] {
        Self.blob(lengths: (0..<count).lazy.map { range($0).count }, byteCount: bytes.count) { $0 += bytes }
    }

    /// `PackedStrings(strings).encoded` without making the list first: a search index row
    /// packs its tags this way, 100,000 times for a first search of as many blocks.
    static func encode(_ strings: [String]) -> [UInt8] {
        blob(lengths: strings.lazy.map(\.utf8.count), byteCount: strings.reduce(0) { $0 + $1.utf8.count }) { blob in
            // `withUTF8`: appending a small string's `utf8` view went a byte at a time.
            for var string in strings { string.withUTF8 { blob.append(contentsOf: $0) } }
        }
    }

    /// The one layout of `encoded`, in one array of its final size: the count, where each
    /// string ends, then the bytes `appendBytes` adds.
    private static func blob<Lengths: Collection<Int>>(
        lengths: Lengths, byteCount: Int, appendBytes: (inout [UInt8]) -> Void
    ) -> [UInt8] {
        var blob: [UInt8] = []
        blob.reserveCapacity(4 + 4 * lengths.count + byteCount)
        func append(_ value: Int) {
            for shift in stride(from: 0, to: 32, by: 8) { blob.append(UInt8(truncatingIfNeeded: UInt32(value) >> shift)) }
        }
        append(lengths.count)
        var end = 0
        for length in lengths {
            end += length
            append(end)
        }
        appendBytes(&blob)
        return blob
    }

    var count: Int { ends.count }

    mutating func append(_ string: String) {
        var string = string
        string.withUTF8 { bytes.append(contentsOf: $0) }
        ends.append(UInt32(bytes.count))
    }

    /// Appends a string given as its UTF-8 bytes.
    mutating func append(utf8 string: UnsafeBufferPointer<UInt8>) {
        bytes.append(contentsOf: string)
        ends.append(UInt32(bytes.count))
    }

    /// Appends bytes that are not text (another packed list, say), read back with `withBytes`.
    mutating func append(bytes more: [UInt8]) {
        bytes.append(contentsOf: more)
        ends.append(UInt32(bytes.count))
    }

    /// Calls `body` with the bytes of entry `index`.
    func withBytes<Result>(_ index: Int, _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        bytes.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[range(index)])) }
    }

    func range(_ index: Int) -> Range<Int> {
        (index == 0 ? 0 : Int(ends[index - 1]))..<Int(ends[index])
    }

    subscript(index: Int) -> String {
        String(decoding: bytes[range(index)], as: UTF8.self)
    }

    var strings: [String] { (0..<count).map { self[$0] } }

    /// True when string `index` is plain ASCII, where bytes, scalars and characters coincide.
    func isASCII(_ index: Int) -> Bool {
        bytes[range(index)].allSatisfy { $0 < 0x80 }
    }

    /// Calls `body` with the bytes of every string, with its index.
    func forEachBytes(_ body: (Int, UnsafeBufferPointer<UInt8>) -> Void) {
        bytes.withUnsafeBufferPointer { all in
            var start = 0
            for index in 0..<ends.count {
                let end = Int(ends[index])
                body(index, UnsafeBufferPointer(rebasing: all[start..<end]))
                start = end
            }
        }
    }
}

/// Little-endian packing of integer lists, for posting lists and name ranks on disk.
enum PackedIntegers {
    static func encode(_ values: [UInt32]) -> [UInt8] {
        // Stored whole, not appended a byte at a time: the postings of 100,000 blocks are
        // 4 million values, written while a first search waits.
        [UInt8](unsafeUninitializedCapacity: values.count * 4) { buffer, initialized in
            let raw = UnsafeMutableRawBufferPointer(buffer)
            for (index, value) in values.enumerated() { raw.storeBytes(of: value.littleEndian, toByteOffset: index * 4, as: UInt32.self) }
            initialized = values.count * 4
        }
    }

    /// Nil when the byte count is not a multiple of four.
    static func decode(_ bytes: UnsafeRawBufferPointer) -> [UInt32]? {
        guard bytes.count % 4 == 0 else { return nil }
        let count = bytes.count / 4
        return [UInt32](unsafeUninitializedCapacity: count) { buffer, initialized in
            for index in 0..<count {
                buffer[index] = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: index * 4, as: UInt32.self))
            }
            initialized = count
        }
    }
}

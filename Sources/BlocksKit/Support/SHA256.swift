/// SHA-256 from the system (`SystemSHA256`: Nettle on Linux, loaded on first use, and
/// CommonCrypto on macOS; see Platform/Cryptography.swift). Checksums guard every archive
/// the tool publishes, caches and installs, and every file `add` records in `blocks.lock`.
public enum SHA256 {
    /// The lowercase hex digest of some bytes.
    public static func hex(_ data: Data) -> String {
        let context = Digest()
        data.withUnsafeBytes { context.update($0) }
        return context.finish()
    }

    public static func hex(_ text: String) -> String { hex(Data(text.utf8)) }

    /// Whether `text` is spelled as a digest: 64 hex digits. A digest read from an index,
    /// a shard or a lock names a file in a cache, so nothing else may ever be one.
    public static func isDigest(_ text: String) -> Bool {
        text.utf8.count == 64 && text.utf8.allSatisfy { (byte: UInt8) in
            (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "f"))
                || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "F"))
        }
    }

    /// The one checksum check: `actual`, a digest as `hex` or `Digest.finish` gives it,
    /// against the `expected` one in either case. On a mismatch it throws the caller's own
    /// error, which `mismatch` makes from the actual digest.
    static func verify<Failure: Error>(
        digest actual: String, expected: String, else mismatch: (_ actual: String) -> Failure
    ) throws(Failure) {
        guard actual == expected.lowercased() else { throw mismatch(actual) }
    }

    /// Checks some bytes against the `expected` digest; see `verify(digest:expected:else:)`.
    static func verify<Failure: Error>(_ data: Data, expected: String, else mismatch: (_ actual: String) -> Failure) throws(Failure) {
        try verify(digest: hex(data), expected: expected, else: mismatch)
    }

    /// Whether the system's SHA-256 can run (on Linux, whether libnettle loaded with every
    /// function used, loading it if needed).
    static var isLibraryAvailable: Bool { SystemSHA256.isAvailable }

    #if DEBUG
    /// Whether libnettle would load from the first of `candidates` that opens and has
    /// every function (always false on macOS, which opens no library for it). Only for
    /// tests: the real list lives in the shim.
    static func libraryLoads(fromCandidates candidates: [String]) -> Bool {
        SystemSHA256.loads(fromCandidates: candidates)
    }
    #endif

    /// An incremental digest, for bytes that arrive in pieces.
    public final class Digest {
        private let function: SystemSHA256

        public init() {
            SHA256.requireLibrary()
            function = SystemSHA256()
        }

        public func update(_ bytes: UnsafeRawBufferPointer) { function.update(bytes) }

        public func finish() -> String { Self.hex(function.finish()[...]) }

        /// Lowercase hex by table: `String(format:)` cost more than hashing a small file.
        private static func hex(_ bytes: ArraySlice<UInt8>) -> String {
            let digits = Array("0123456789abcdef".utf8)
            var text: [UInt8] = []
            text.reserveCapacity(bytes.count * 2)
            for byte in bytes {
                text.append(digits[Int(byte >> 4)])
                text.append(digits[Int(byte & 0x0f)])
            }
            return String(decoding: text, as: UTF8.self)
        }
    }

    /// libnettle ships with libarchive (libnettle8 on Debian), so it is missing only from a
    /// broken install. Hashing cannot go on without it: say so in one line and stop.
    static func requireLibrary() {
        guard !isLibraryAvailable else { return }
        let message =
            "error: libnettle (libnettle8) is not installed; blocks needs it for SHA-256 checksums. Install it, for example with 'apt-get install libnettle8'.\n"
        _ = message.utf8.withContiguousStorageIfAvailable { FileDescriptorIO.writeAll(STDERR_FILENO, UnsafeRawBufferPointer($0)) }
        exit(1)
    }
}

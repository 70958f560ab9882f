import BlocksCrypto

/// SHA-256 through Nettle's libnettle, opened with dlopen on first use (see the shim), so
/// commands that hash nothing never map it. Checksums guard every archive the tool
/// publishes, caches and installs, and every file `add` records in `blocks.lock`.
public enum SHA256 {
    /// The lowercase hex digest of some bytes.
    public static func hex(_ data: Data) -> String {
        let context = Digest()
        data.withUnsafeBytes { context.update($0) }
        return context.finish()
    }

    public static func hex(_ text: String) -> String { hex(Data(text.utf8)) }

    /// The digest of a file, read in chunks so large files never sit in memory.
    public static func hex(fileAt url: URL) throws -> String {
        let context = Digest()
        let failure = FileDescriptorIO.readChunks(of: url.path) { context.update($0) }
        guard failure == 0 else { throw RegistryError.unreadable(location: url.path, reason: String(cString: strerror(failure))) }
        return context.finish()
    }

    /// Whether libnettle loaded with every function used here (loading it if needed).
    static var isLibraryAvailable: Bool { blocks_crypto_available() }

    #if DEBUG
    /// Whether libnettle would load from the first of `candidates` that opens and has
    /// every function. Only for tests: the real list lives in the shim.
    static func libraryLoads(fromCandidates candidates: [String]) -> Bool {
        let names = candidates.map { strdup($0) }
        defer { names.forEach { free($0) } }
        return names.map { UnsafePointer($0) }.withUnsafeBufferPointer {
            blocks_crypto_loads_from($0.baseAddress, $0.count)
        }
    }
    #endif

    /// An incremental digest, for bytes that arrive in pieces.
    public final class Digest {
        private let context = UnsafeMutablePointer<sha256_ctx>.allocate(capacity: 1)

        public init() {
            SHA256.requireLibrary()
            context.initialize(to: sha256_ctx())
            blocks_nettle_sha256_init(context)
        }

        deinit {
            context.deinitialize(count: 1)
            context.deallocate()
        }

        public func update(_ bytes: UnsafeRawBufferPointer) {
            guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
            blocks_nettle_sha256_update(context, bytes.count, base.assumingMemoryBound(to: UInt8.self))
        }

        public func finish() -> String {
            var digest = [UInt8](repeating: 0, count: 32)
            blocks_nettle_sha256_digest(context, digest.count, &digest)
            return Self.hex(digest[...])
        }

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
        let message = "error: libnettle (libnettle8) is not installed; blocks needs it for SHA-256 checksums. Install it, for example with 'apt-get install libnettle8'.\n"
        _ = message.utf8.withContiguousStorageIfAvailable { FileDescriptorIO.writeAll(STDERR_FILENO, UnsafeRawBufferPointer($0)) }
        exit(1)
    }
}

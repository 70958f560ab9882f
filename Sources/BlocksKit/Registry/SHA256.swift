import BlocksCrypto
import Foundation

/// SHA-256 through OpenSSL's libcrypto, which libcurl's dev package already installs.
/// Checksums guard every archive the tool publishes, caches and installs.
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
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        let context = Digest()
        while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
            chunk.withUnsafeBytes { context.update($0) }
        }
        return context.finish()
    }

    /// An incremental digest, for bytes that arrive in pieces.
    public final class Digest {
        private let context: OpaquePointer?

        public init() {
            context = EVP_MD_CTX_new()
            EVP_DigestInit_ex(context, EVP_sha256(), nil)
        }

        deinit { EVP_MD_CTX_free(context) }

        public func update(_ bytes: UnsafeRawBufferPointer) {
            guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
            EVP_DigestUpdate(context, base, bytes.count)
        }

        public func finish() -> String {
            var digest = [UInt8](repeating: 0, count: 32)
            var length: UInt32 = 0
            EVP_DigestFinal_ex(context, &digest, &length)
            return digest.prefix(Int(length)).map { String(format: "%02x", $0) }.joined()
        }
    }
}

import BlocksCrypto
import Foundation

/// SHA-256 in plain Swift for small inputs and through OpenSSL's libcrypto for large ones.
/// Checksums guard every archive the tool publishes, caches and installs.
///
/// libcrypto is opened with dlopen on first use (see the shim), and only for inputs
/// larger than `Digest.libcryptoThreshold`: loading it and letting OpenSSL 3 initialise
/// costs several milliseconds (it reads its configuration and sets up its providers),
/// more than hashing a few hundred KiB in Swift, so `blocks add` of a few source files
/// never loads it. When libcrypto is missing, Swift hashes everything: slower on large
/// files but the same digest, so none of the many callers needs an error path.
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

    /// Whether libcrypto loaded with every function used here (loading it if needed).
    static var isLibraryAvailable: Bool { blocks_crypto_available() }

    /// Whether libcrypto would load from the first of `candidates` that opens and has
    /// every function. Only for tests: the real list lives in the shim.
    static func libraryLoads(fromCandidates candidates: [String]) -> Bool {
        let names = candidates.map { strdup($0) }
        defer { names.forEach { free($0) } }
        return names.map { UnsafePointer($0) }.withUnsafeBufferPointer {
            blocks_crypto_loads_from($0.baseAddress, $0.count)
        }
    }

    /// An incremental digest, for bytes that arrive in pieces.
    public final class Digest {
        /// Inputs up to this size are hashed in Swift (about 5 ms per MiB here), larger ones
        /// by libcrypto, whose loading costs more than hashing this much in Swift.
        static let libcryptoThreshold = 256 * 1024

        /// Who hashes: chosen by size, or forced (tests compare the two).
        enum Engine { case bySize, libcrypto, swift }

        /// libcrypto's context, once it does the work.
        private var context: OpaquePointer?
        /// The Swift digest, once it does the work.
        private var portable: PortableSHA256?
        /// Bytes received while the size still decides, at most `libcryptoThreshold`.
        private var held = Data()

        public convenience init() { self.init(engine: .bySize) }

        init(engine: Engine) {
            switch engine {
            case .bySize: break
            case .libcrypto: choose(libcrypto: true)
            case .swift: choose(libcrypto: false)
            }
        }

        deinit {
            if let context { blocks_EVP_MD_CTX_free(context) }
        }

        /// Whether libcrypto does the work; settled by the first update past the threshold,
        /// or by `finish`.
        var usesLibcrypto: Bool { context != nil }

        public func update(_ bytes: UnsafeRawBufferPointer) {
            guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
            if let context {
                blocks_EVP_DigestUpdate(context, base, bytes.count)
            } else if portable != nil {
                portable?.update(bytes)
            } else if held.count + bytes.count <= Self.libcryptoThreshold {
                held.append(base.assumingMemoryBound(to: UInt8.self), count: bytes.count)
            } else {
                choose(libcrypto: true)
                update(bytes)
            }
        }

        public func finish() -> String {
            if context == nil && portable == nil { choose(libcrypto: false) }
            var digest = [UInt8](repeating: 0, count: 32)
            if let context {
                var length: UInt32 = 0
                blocks_EVP_DigestFinal_ex(context, &digest, &length)
                digest = Array(digest.prefix(Int(length)))
            } else if var portable {
                digest = portable.finish()
            }
            return Self.hex(digest)
        }

        /// Lowercase hex by table: `String(format:)` cost more than hashing a small file.
        private static func hex(_ bytes: [UInt8]) -> String {
            let digits = Array("0123456789abcdef".utf8)
            var text: [UInt8] = []
            text.reserveCapacity(bytes.count * 2)
            for byte in bytes {
                text.append(digits[Int(byte >> 4)])
                text.append(digits[Int(byte & 0x0f)])
            }
            return String(decoding: text, as: UTF8.self)
        }

        /// Settles who hashes (Swift when libcrypto is unwanted or missing), then passes
        /// on the bytes held so far.
        private func choose(libcrypto: Bool) {
            if libcrypto, SHA256.isLibraryAvailable, let context = blocks_EVP_MD_CTX_new() {
                if blocks_EVP_DigestInit_ex(context, blocks_EVP_sha256(), nil) == 1 {
                    self.context = context
                } else {
                    blocks_EVP_MD_CTX_free(context)
                }
            }
            if self.context == nil { portable = PortableSHA256() }
            let pending = held
            held = Data()
            pending.withUnsafeBytes { update($0) }
        }
    }
}

/// SHA-256 as FIPS 180-4 defines it, in plain Swift: the fallback when libcrypto is missing.
struct PortableSHA256 {
    private static let roundConstants: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]

    private var state: [UInt32] = [
        0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19,
    ]
    /// Bytes waiting for a full 64-byte block.
    private var pending: [UInt8] = []
    private var byteCount: UInt64 = 0
    private var schedule = [UInt32](repeating: 0, count: 64)

    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        byteCount &+= UInt64(bytes.count)
        var offset = 0
        if !pending.isEmpty {
            let taken = min(64 - pending.count, bytes.count)
            pending.append(contentsOf: bytes[0..<taken])
            offset = taken
            if pending.count == 64 {
                let block = pending
                block.withUnsafeBytes { compress($0) }
                pending.removeAll(keepingCapacity: true)
            }
        }
        while bytes.count - offset >= 64 {
            compress(UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + 64]))
            offset += 64
        }
        if offset < bytes.count { pending.append(contentsOf: bytes[offset...]) }
    }

    /// The 32-byte digest. Pads the message, so call it once.
    mutating func finish() -> [UInt8] {
        let bitLength = byteCount &* 8
        var padding: [UInt8] = [0x80]
        let used = (pending.count + 1) % 64
        padding += [UInt8](repeating: 0, count: (56 - used + 64) % 64)
        padding += (0..<8).map { UInt8(truncatingIfNeeded: bitLength >> (56 - 8 * $0)) }
        padding.withUnsafeBytes { update($0) }
        return state.flatMap { word in (0..<4).map { UInt8(truncatingIfNeeded: word >> (24 - 8 * $0)) } }
    }

    private mutating func compress(_ block: UnsafeRawBufferPointer) {
        func rotate(_ value: UInt32, _ count: UInt32) -> UInt32 { (value >> count) | (value << (32 - count)) }
        for index in 0..<16 {
            schedule[index] = (0..<4).reduce(0) { $0 << 8 | UInt32(block[index * 4 + $1]) }
        }
        for index in 16..<64 {
            let early = schedule[index - 15]
            let late = schedule[index - 2]
            let sigma0 = rotate(early, 7) ^ rotate(early, 18) ^ (early >> 3)
            let sigma1 = rotate(late, 17) ^ rotate(late, 19) ^ (late >> 10)
            schedule[index] = schedule[index - 16] &+ sigma0 &+ schedule[index - 7] &+ sigma1
        }
        // a to h are the working variables, named as in the standard.
        var (a, b, c, d) = (state[0], state[1], state[2], state[3])
        var (e, f, g, h) = (state[4], state[5], state[6], state[7])
        for index in 0..<64 {
            let sum1 = rotate(e, 6) ^ rotate(e, 11) ^ rotate(e, 25)
            let choice = (e & f) ^ (~e & g)
            let first = h &+ sum1 &+ choice &+ Self.roundConstants[index] &+ schedule[index]
            let sum0 = rotate(a, 2) ^ rotate(a, 13) ^ rotate(a, 22)
            let majority = (a & b) ^ (a & c) ^ (b & c)
            let second = sum0 &+ majority
            (h, g, f, e) = (g, f, e, d &+ first)
            (d, c, b, a) = (c, b, a, first &+ second)
        }
        for (index, value) in [a, b, c, d, e, f, g, h].enumerated() { state[index] &+= value }
    }
}

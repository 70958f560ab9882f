#if canImport(Darwin)
import CommonCrypto
#else
import BlocksCrypto
#endif

/// The SHA-256 the system provides, behind the one interface `SHA256` uses: Nettle on
/// Linux (libnettle, opened with dlopen on first use by the BlocksCrypto shim, so commands
/// that hash nothing never map it) and CommonCrypto on macOS (part of libSystem, so always
/// there). `SystemSHA256` names the one this build uses.
///
/// Ed25519 signatures (issue 18) belong here too, as a second protocol with two small
/// implementations chosen the same way: CryptoKit's `Curve25519.Signing.PublicKey`
/// (`isValidSignature(_:for:)`) on Darwin, and Nettle's `ed25519_sha512_verify` from
/// libhogweed (lazily loaded like libnettle) on Linux.
protocol SHA256Function: AnyObject {
    /// Whether it can run here, loading its library if needed.
    static var isAvailable: Bool { get }

    #if DEBUG
    /// Whether its library would load from the first of `candidates` that opens and has
    /// every function. Only for tests: the real list lives in the shim.
    static func loads(fromCandidates candidates: [String]) -> Bool
    #endif

    init()
    func update(_ bytes: UnsafeRawBufferPointer)
    /// The 32 bytes of the digest. Call once, after the last update.
    func finish() -> [UInt8]
}

#if canImport(Darwin)
typealias SystemSHA256 = CommonCryptoSHA256

/// CommonCrypto's `CC_SHA256_*`, which every macOS has.
final class CommonCryptoSHA256: SHA256Function {
    static var isAvailable: Bool { true }

    #if DEBUG
    /// There is no library to open: CommonCrypto is part of libSystem.
    static func loads(fromCandidates candidates: [String]) -> Bool { false }
    #endif

    private var context = CC_SHA256_CTX()

    init() { CC_SHA256_Init(&context) }

    func update(_ bytes: UnsafeRawBufferPointer) {
        guard var base = bytes.baseAddress else { return }
        var remaining = bytes.count
        // The length is a 32-bit CC_LONG: larger buffers go in pieces of 1 GiB.
        while remaining > 0 {
            let count = min(remaining, 1 << 30)
            CC_SHA256_Update(&context, base, CC_LONG(count))
            base += count
            remaining -= count
        }
    }

    func finish() -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: Int(CC_SHA256_DIGEST_LENGTH))
        CC_SHA256_Final(&digest, &context)
        return digest
    }
}
#else
typealias SystemSHA256 = NettleSHA256

/// Nettle's `sha256_*`, from libnettle, which ships with libarchive (libnettle8 on Debian).
final class NettleSHA256: SHA256Function {
    static var isAvailable: Bool { blocks_crypto_available() }

    #if DEBUG
    static func loads(fromCandidates candidates: [String]) -> Bool {
        let names = candidates.map { strdup($0) }
        defer { names.forEach { free($0) } }
        return names.map { UnsafePointer($0) }.withUnsafeBufferPointer {
            blocks_crypto_loads_from($0.baseAddress, $0.count)
        }
    }
    #endif

    private let context = UnsafeMutablePointer<sha256_ctx>.allocate(capacity: 1)

    init() {
        context.initialize(to: sha256_ctx())
        blocks_nettle_sha256_init(context)
    }

    deinit {
        context.deinitialize(count: 1)
        context.deallocate()
    }

    func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        blocks_nettle_sha256_update(context, bytes.count, base.assumingMemoryBound(to: UInt8.self))
    }

    func finish() -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: 32)
        blocks_nettle_sha256_digest(context, digest.count, &digest)
        return digest
    }
}
#endif

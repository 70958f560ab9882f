#if canImport(Darwin)
import CommonCrypto
import CryptoKit
#else
import BlocksCrypto
#endif

/// The SHA-256 the system provides, behind the one interface `SHA256` uses: Nettle on
/// Linux (libnettle, opened with dlopen on first use by the BlocksCrypto shim, so commands
/// that hash nothing never map it) and CommonCrypto on macOS (part of libSystem, so always
/// there). `SystemSHA256` names the one this build uses.
///
/// Ed25519 signatures are here too (`Ed25519Function`), chosen the same way.
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

/// Ed25519 (RFC 8032) as the system provides it, for signed registries: Nettle's
/// libhogweed on Linux (opened on first use by the BlocksCrypto shim) and CryptoKit on
/// macOS. `SystemEd25519` names the one this build uses. A secret key is the 32-byte
/// seed RFC 8032 calls the private key; public keys and signatures are its 32 and 64 bytes.
protocol Ed25519Function {
    /// Whether it can run here, loading its library if needed.
    static var isAvailable: Bool { get }
    /// The public key of a 32-byte secret key.
    static func publicKey(secret: [UInt8]) -> [UInt8]
    /// The 64-byte signature of `message`.
    static func sign(_ message: [UInt8], secret: [UInt8], publicKey: [UInt8]) -> [UInt8]
    /// Whether `signature` is `publicKey`'s signature of `message`.
    static func isValid(_ signature: [UInt8], of message: UnsafeRawBufferPointer, publicKey: [UInt8]) -> Bool
}

/// Bytes from the kernel's random source, for secret keys: `getrandom` on Linux,
/// `arc4random_buf` on macOS. Never a user-space generator.
enum SystemRandom {
    static func bytes(_ count: Int) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        #if canImport(Darwin)
        arc4random_buf(&bytes, count)
        return bytes
        #else
        var filled = 0
        // getrandom returns at most 32 MiB per call and may be interrupted: bounded retries.
        for _ in 0..<64 where filled < count {
            let got = bytes.withUnsafeMutableBytes { blocks_getrandom($0.baseAddress! + filled, count - filled) }
            if got > 0 { filled += got } else if errno != EINTR { return nil }
        }
        return filled == count ? bytes : nil
        #endif
    }
}

#if canImport(Darwin)
typealias SystemEd25519 = CryptoKitEd25519

/// CryptoKit's `Curve25519.Signing`, in every macOS since 10.15. Not compiled on the
/// Linux machines this project is built on: kept to the four calls it needs.
enum CryptoKitEd25519: Ed25519Function {
    static var isAvailable: Bool { true }

    static func publicKey(secret: [UInt8]) -> [UInt8] {
        guard let key = try? Curve25519.Signing.PrivateKey(rawRepresentation: secret) else { return [] }
        return Array(key.publicKey.rawRepresentation)
    }

    static func sign(_ message: [UInt8], secret: [UInt8], publicKey: [UInt8]) -> [UInt8] {
        guard let key = try? Curve25519.Signing.PrivateKey(rawRepresentation: secret),
            let signature = try? key.signature(for: Data(message))
        else { return [] }
        return Array(signature)
    }

    static func isValid(_ signature: [UInt8], of message: UnsafeRawBufferPointer, publicKey: [UInt8]) -> Bool {
        guard let key = try? Curve25519.Signing.PublicKey(rawRepresentation: publicKey) else { return false }
        return key.isValidSignature(Data(signature), for: Data(message))
    }
}
#else
typealias SystemEd25519 = NettleEd25519

/// Nettle's `ed25519_sha512_*`, from libhogweed (libhogweed6 on Debian, beside libnettle8).
enum NettleEd25519: Ed25519Function {
    static var isAvailable: Bool { blocks_signing_available() }

    static func publicKey(secret: [UInt8]) -> [UInt8] {
        precondition(secret.count == 32)
        var key = [UInt8](repeating: 0, count: 32)
        blocks_nettle_ed25519_sha512_public_key(&key, secret)
        return key
    }

    static func sign(_ message: [UInt8], secret: [UInt8], publicKey: [UInt8]) -> [UInt8] {
        precondition(secret.count == 32 && publicKey.count == 32)
        var signature = [UInt8](repeating: 0, count: 64)
        message.withUnsafeBufferPointer { blocks_nettle_ed25519_sha512_sign(publicKey, secret, $0.count, $0.baseAddress, &signature) }
        return signature
    }

    static func isValid(_ signature: [UInt8], of message: UnsafeRawBufferPointer, publicKey: [UInt8]) -> Bool {
        guard signature.count == 64, publicKey.count == 32 else { return false }
        let empty: UInt8 = 0
        return withUnsafePointer(to: empty) { fallback in
            let bytes = message.baseAddress?.assumingMemoryBound(to: UInt8.self) ?? fallback
            return blocks_nettle_ed25519_sha512_verify(publicKey, message.count, bytes, signature) == 1
        }
    }
}
#endif

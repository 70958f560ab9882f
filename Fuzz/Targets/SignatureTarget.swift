#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The signed-registry parsers, on bytes any host or mirror can serve: `MinisignSignature`
/// (an `index.json.minisig`), `SignedIndexClaims` (its trusted comment) and
/// `MinisignPublicKey` (a `--key` or a `blocks.json` pin). None crashes; a signature or key
/// that parses writes back into bytes that parse as the same value; and a parsed signature
/// never verifies the input itself under a key it was not made with.
enum SignatureTarget {
    static let target = FuzzTarget(name: "signature", prepare: prepare, run: run)

    nonisolated(unsafe) private static var key: SecretKey?

    static func prepare() {
        FuzzCheck.expect(SystemEd25519.isAvailable, "libhogweed (Ed25519) does not load")
        key = try? SecretKey.generate()
        FuzzCheck.expect(key != nil, "cannot make a key")
    }

    static func run(_ data: Data) {
        if let signature = try? MinisignSignature(data: data) {
            guard let reread = try? MinisignSignature(data: signature.fileData) else {
                FuzzCheck.fail("the file written for a signature that was read is refused")
            }
            FuzzCheck.expect(reread == signature, "a round trip through fileData changed the signature")
            if let claims = try? SignedIndexClaims(trustedComment: signature.trustedComment) {
                FuzzCheck.expect(claims.version >= 0 && RFC3339.seconds(claims.expires) != nil, "claims out of range were read")
                FuzzCheck.expect((try? SignedIndexClaims(trustedComment: claims.trustedComment)) == claims, "claims did not round-trip")
            }
            if let key, (try? signature.verify(data, keys: [key.publicKey], location: "fuzz")) != nil {
                FuzzCheck.fail("a signature not made with the key verified under it")
            }
        }
        let text = String(decoding: data, as: UTF8.self)
        if let publicKey = try? MinisignPublicKey(text: text) {
            FuzzCheck.expect(publicKey.keyID.count == 8 && publicKey.key.count == 32, "a key of the wrong size was read")
            FuzzCheck.expect((try? MinisignPublicKey(text: publicKey.base64)) == publicKey, "a key did not round-trip through base64")
            FuzzCheck.expect((try? MinisignPublicKey(text: publicKey.fileText)) == publicKey, "a key did not round-trip through its file")
        }
    }
}

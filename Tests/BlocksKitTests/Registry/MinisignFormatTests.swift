import Foundation
import Testing

@testable import BlocksKit

/// The formats and primitives under signed registries, in-process: Nettle's Ed25519
/// against RFC 8032's first test vector, minisign's key and signature files both ways,
/// and every malformed input named rather than crashing.
@Suite struct MinisignFormatTests {
    static func bytes(_ hex: String) -> [UInt8] {
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            bytes.append(UInt8(hex[index..<next], radix: 16)!)
            index = next
        }
        return bytes
    }

    @Test func ed25519MatchesRFC8032TestOne() throws {
        try #require(SystemEd25519.isAvailable, "libhogweed did not load")
        let secret = Self.bytes("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60")
        let publicKey = SystemEd25519.publicKey(secret: secret)
        #expect(publicKey == Self.bytes("d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a"))
        let signature = SystemEd25519.sign([], secret: secret, publicKey: publicKey)
        #expect(
            signature
                == Self.bytes(
                    "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"))
        #expect([UInt8]().withUnsafeBytes { SystemEd25519.isValid(signature, of: $0, publicKey: publicKey) })
        var flipped = signature
        flipped[0] ^= 1
        #expect(![UInt8]().withUnsafeBytes { SystemEd25519.isValid(flipped, of: $0, publicKey: publicKey) })
    }

    @Test func aSignatureRoundTripsAndEveryChangeIsCaught() throws {
        let key = try SecretKey.generate()
        let message = Data("{\"blocks\" : []}\n".utf8)
        let claims = SignedIndexClaims(version: 3, expires: "2030-01-02T03:04:05Z")
        let signature = try MinisignSignature(signing: message, with: key, trustedComment: claims.trustedComment)
        let parsed = try MinisignSignature(data: signature.fileData)
        #expect(parsed == signature)
        #expect(try SignedIndexClaims(trustedComment: parsed.trustedComment) == claims)
        #expect(try parsed.verify(message, keys: [key.publicKey], location: "r") == key.publicKey)
        #expect(throws: SignatureError.forgedIndex(location: "r", keyID: key.publicKey.id)) {
            try parsed.verify(message + Data(" ".utf8), keys: [key.publicKey], location: "r")
        }
        var comment = parsed
        comment.trustedComment = SignedIndexClaims(version: 4, expires: claims.expires).trustedComment
        #expect(throws: SignatureError.forgedTrustedComment(location: "r")) { try comment.verify(message, keys: [key.publicKey], location: "r") }
        let other = try SecretKey.generate()
        #expect(throws: SignatureError.unknownKey(location: "r", keyID: key.publicKey.id, pinned: [other.publicKey.id])) {
            try parsed.verify(message, keys: [other.publicKey], location: "r")
        }
        // The public key reads back from its base64 and from its file.
        #expect(try MinisignPublicKey(text: key.publicKey.base64) == key.publicKey)
        #expect(try MinisignPublicKey(text: key.publicKey.fileText) == key.publicKey)
    }

    @Test(arguments: [
        "", "untrusted comment: x\n", "a\nb\nc\nd\n", "untrusted comment: x\nAAAA\ntrusted comment: y\nAAAA\n",
        String(repeating: "x", count: 5000),
    ])
    func malformedSignaturesAreNamed(_ text: String) {
        #expect(throws: SignatureError.self) { try MinisignSignature(data: Data(text.utf8)) }
    }

    @Test(arguments: ["", "RW", "not base64!", "untrusted comment: a\nb\nc", Data(repeating: 1, count: 42).base64EncodedString()])
    func malformedPublicKeysAreNamed(_ text: String) {
        #expect(throws: SignatureError.self) { try MinisignPublicKey(text: text) }
    }

    @Test func timesAndDurations() {
        #expect(RFC3339.seconds("1970-01-01T00:00:00Z") == 0)
        #expect(RFC3339.seconds("2026-12-01T15:51:31Z").map(PublicationDate.iso8601(secondsSince1970:)) == "2026-12-01T15:51:31Z")
        for bad in ["2026-02-30T00:00:00Z", "2026-12-01 15:51:31Z", "2026-12-01T15:51:31+01:00", "x"] { #expect(RFC3339.seconds(bad) == nil, "\(bad)") }
        #expect(RFC3339.duration("7d") == 7 * 86_400)
        #expect(RFC3339.duration("90s") == 90)
        #expect(RFC3339.duration("12h") == 12 * 3600)
        #expect(RFC3339.duration("5m") == 300)
        for bad in ["", "d", "0d", "-1d", "7w", "4000d"] { #expect(RFC3339.duration(bad) == nil, "\(bad)") }
    }

    @Test func aSignedIndexReadsBackWhatTheBuilderWrote() throws {
        let entry = RegistryEntry(
            manifest: try #require(BlockManifest.decode(Data(sampleManifestJSON(name: "strip").utf8))), metadata: "blocks/strip.json",
            sourceSHA256: "00", archives: [:])
        let fields = RegistryIndex.SignedFields(
            version: 7, expires: "2030-01-01T00:00:00Z", metadata: ["blocks/strip.json": RegistryFileDigest(sha256: SHA256.hex("abc"), size: 3)], nextKey: "RWQ")
        let written = try RegistryIndex.encoded([(entry, RegistryIndex.fragment(entryJSON: entry.stableJSON))], signed: fields)
        var expected = RegistryIndex(blocks: [entry])
        fields.apply(to: &expected)
        // Byte for byte what encoding the whole index gives, and it reads back the same.
        #expect(written == (try expected.encoded()))
        #expect(try RegistryIndex.decode(written, location: "t") == expected)
        let empty = try RegistryIndex.encoded([], signed: fields)
        #expect(try RegistryIndex.decode(empty, location: "t").version == 7)
    }

    @Test func aSecretKeyNeverPrintsItsSeed() throws {
        let key = try SecretKey.generate()
        let seed = Data(key.seed).base64EncodedString()
        for text in ["\(key)", String(describing: key), String(reflecting: key), "\([key])"] {
            #expect(!text.contains(seed) && !text.contains("\(key.seed)"), "\(text)")
        }
        var dumped = ""
        dump(key, to: &dumped)
        #expect(!dumped.contains("\(key.seed.first!), \(key.seed.dropFirst().first!)"), "\(dumped)")
    }

    /// The fuzz target's seeds are what they say: a real signature and key parse, the
    /// truncated signature does not.
    @Test func theFuzzSeedsAreRealInputs() throws {
        let seeds = repositoryRoot.appendingPathComponent("Fuzz/corpus/signature")
        let signature = try MinisignSignature(data: Data(contentsOf: seeds.appendingPathComponent("index.json.minisig")))
        #expect(try SignedIndexClaims(trustedComment: signature.trustedComment).version == 1)
        let key = try MinisignPublicKey(text: String(contentsOf: seeds.appendingPathComponent("key.txt"), encoding: .utf8))
        #expect(try MinisignPublicKey(text: String(contentsOf: seeds.appendingPathComponent("blocks.pub"), encoding: .utf8)) == key)
        #expect(key.keyID == signature.keyID)
        #expect(throws: SignatureError.self) { try MinisignSignature(data: Data(contentsOf: seeds.appendingPathComponent("truncated.minisig"))) }
    }
}

/// Why a signed registry, a key or a signature was refused: one case per attack a pinned
/// client stops (a forged index, mixed metadata, a rollback, a freeze) and per key
/// problem. No case carries a secret key, and none prints one.
public enum SignatureError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A key is pinned and the registry has no `index.json.minisig`; `keyOrigin` says
    /// where the key was pinned (`--key` or blocks.json), nil when that is not known.
    case missingSignature(location: String, keyOrigin: MinisignPublicKey.KeyOrigin? = nil)
    /// The signature file is not minisign's four lines (cut short, say).
    case malformedSignature(reason: String)
    /// A `--key` or pinned key that is not a minisign public key.
    case malformedPublicKey(reason: String)
    /// Signed, but by a key that is not pinned.
    case unknownKey(location: String, keyID: String, pinned: [String])
    /// The signature does not match the index: it was changed after signing.
    case forgedIndex(location: String, keyID: String)
    /// The trusted comment was changed or swapped.
    case forgedTrustedComment(location: String)
    /// The index's `version` or `expires` is not what its signature's trusted comment says.
    case claimsMismatch(location: String)
    /// An older index than one already accepted: a rollback.
    case rollback(location: String, version: Int, accepted: Int)
    /// Another index with a version already accepted.
    case sameVersionDifferentIndex(location: String, version: Int)
    /// Past `expires`: a frozen (or simply stale) registry.
    case expired(location: String, expires: String)
    /// A metadata file that does not match the index's SHA-256 and size.
    case metadataMismatch(location: String, path: String)
    /// `keygen --out` into a folder that already has a key.
    case keyExists(path: String)
    /// A secret key file group or others may read or write.
    case looseSecretKey(path: String, mode: String)
    case unreadableSecretKey(path: String, reason: String)
    /// `--expires` that is not a count and a unit.
    case invalidExpiry(String)
    /// libhogweed (Nettle's Ed25519) did not load.
    case cryptographyUnavailable
    /// The system's random source failed.
    case noRandomness

    public var description: String {
        switch self {
        case .missingSignature(let location, let origin):
            let unsigned = "registry \(location) is not signed (no index.json.minisig), but "
            let sign = "ask its publisher to sign it with 'blocks build --sign', or "
            switch origin {
            case .option?:
                return unsigned + "--key asks for a signed one; " + sign + "leave out --key"
            case .projectConfig(let field)?:
                return unsigned + "blocks.json pins a key for it (\(field)); " + sign + "unpin the key"
            case nil:
                return unsigned + "a key is pinned for it (by --key or blocks.json); " + sign + "unpin the key"
            }
        case .malformedSignature(let reason):
            return "the registry's index.json.minisig is not a minisign signature: \(reason)"
        case .malformedPublicKey(let reason):
            return "not a minisign public key: \(reason)"
        case .unknownKey(let location, let keyID, let pinned):
            return
                "registry \(location) is signed by key \(keyID), which is not pinned (pinned: \(pinned.joined(separator: ", "))); if its publisher rotated keys, pin the new key after checking it with them"
        case .forgedIndex(let location, let keyID):
            return "registry \(location): index.json does not match its signature by key \(keyID); it was changed after signing, so nothing was read from it"
        case .forgedTrustedComment(let location):
            return "registry \(location): the trusted comment of index.json.minisig does not match its signature; it was changed after signing"
        case .claimsMismatch(let location):
            return "registry \(location): the index's version or expiry differs from what its signature says"
        case .rollback(let location, let version, let accepted):
            return
                "registry \(location) serves index version \(version), older than version \(accepted) already accepted: a rollback to an old index; try again later or use another mirror"
        case .sameVersionDifferentIndex(let location, let version):
            return
                "registry \(location) serves a different index with version \(version), which was already accepted with other content; a signed index never changes without a new version"
        case .expired(let location, let expires):
            return
                "registry \(location) expired on \(expires): its publisher has not signed a current index, or it is a frozen copy; ask the publisher to rebuild it, or pass --allow-expired to use it anyway (for a mirror carried across an air gap)"
        case .metadataMismatch(let location, let path):
            return
                "registry \(location): \(path) does not match the SHA-256 and size its signed index lists; it was changed or mixed in from another build, so nothing was read from it"
        case .keyExists(let path):
            return "\(path) already exists; keygen never overwrites a key: choose another --out folder"
        case .looseSecretKey(let path, let mode):
            return "\(path) has mode \(mode), so others may read the secret key; run 'chmod 600 \(path)' (and consider the key exposed if others could read it)"
        case .unreadableSecretKey(let path, let reason):
            return "cannot read the secret key \(path): \(reason)"
        case .invalidExpiry(let text):
            return "'\(text)' is not an expiry: write a count and a unit, s, m, h or d, as in 7d (at most ten years)"
        case .cryptographyUnavailable:
            return
                "libhogweed (libhogweed6) is not installed; blocks needs it for Ed25519 signatures. Install it, for example with 'apt-get install libhogweed6'"
        case .noRandomness:
            return "the system's random source failed; no key was written"
        }
    }
}

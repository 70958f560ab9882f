/// How `blocks build --sign` signs a registry: the key, how long an index stays valid,
/// and the clock that starts that time.
///
/// Reproducible: the clock is `SOURCE_DATE_EPOCH` when set. An index whose blocks and
/// metadata are unchanged keeps its bytes (version, expiry and all) while more than half
/// of its lifetime is left, so a rebuild changes nothing and keeps its ETag; past that, the
/// build signs a new version with a fresh expiry, which is how a publisher keeps an
/// unchanged registry current (rebuild it, from cron, at least every half lifetime).
public struct IndexSigning: Sendable {
    public static let defaultLifetime = 30 * 86_400

    public var key: SecretKey
    /// Seconds from `now` to the index's `expires`.
    public var lifetime: Int
    /// Seconds since 1970.
    public var now: Int
    /// `--next-key`: the key the publisher will sign with next, listed in the index.
    public var nextKey: MinisignPublicKey?

    public init(key: SecretKey, lifetime: Int = IndexSigning.defaultLifetime, now: Int, nextKey: MinisignPublicKey? = nil) {
        self.key = key
        self.lifetime = lifetime
        self.now = now
        self.nextKey = nextKey
    }

    public static let signatureFile = RegistrySignature.signatureFile

    /// The signed index's bytes and its signature file, given the entries, the metadata
    /// files' bytes by path, and the previous index in the output folder.
    /// A new key always signs a new version, so that the index's bytes (and ETag) change
    /// with its signature and every cache and mirror fetches both.
    func sign(
        _ entries: [(entry: RegistryEntry, fragment: Data)], metadata: [String: RegistryFileDigest], previous: Data?, previousSignature: Data?
    ) throws -> (index: Data, signature: Data) {
        try sign(previous: previous, previousSignature: previousSignature, metadata: metadata) { try RegistryIndex.encoded(entries, signed: $0) }
    }

    /// The signed bytes `encode` makes of the signed fields, for either kind of index: the
    /// previous version and expiry when they still sign the same bytes, else the next version.
    func sign(
        previous: Data?, previousSignature: Data?, metadata: [String: RegistryFileDigest] = [:], encode: (RegistryIndex.SignedFields) throws -> Data
    ) throws -> (index: Data, signature: Data) {
        let previousIndex = previous.flatMap { try? RegistryIndex.read($0) }
        let previousVersion = previousIndex?.version ?? 0
        var fields = RegistryIndex.SignedFields(
            version: previousVersion, expires: previousIndex?.expires ?? "", metadata: metadata, nextKey: nextKey?.base64)
        let keptExpiry = previousIndex?.expires.flatMap(RFC3339.seconds).map { $0 - now > lifetime / 2 } ?? false
        let sameKey = previousSignature.flatMap { try? MinisignSignature(data: $0) }?.keyID == key.publicKey.keyID
        if keptExpiry, sameKey, let previous, try encode(fields) == previous {
            return (previous, try signature(of: previous, fields: fields, previous: previousSignature))
        }
        fields.version = previousVersion + 1
        fields.expires = PublicationDate.iso8601(secondsSince1970: now + lifetime)
        let index = try encode(fields)
        return (index, try signature(of: index, fields: fields, previous: previousSignature))
    }

    /// The signature file of `index`: the previous one when it already signs these bytes
    /// with this key and these claims (CryptoKit's Ed25519 signatures are randomized, so
    /// signing again would change the file on macOS), else a new one.
    func signature(of index: Data, fields: RegistryIndex.SignedFields, previous: Data?) throws -> Data {
        let claims = SignedIndexClaims(version: fields.version, expires: fields.expires)
        if let previous, let parsed = try? MinisignSignature(data: previous), parsed.trustedComment == claims.trustedComment,
            (try? parsed.verify(index, keys: [key.publicKey], location: "")) != nil
        {
            return previous
        }
        return try MinisignSignature(signing: index, with: key, trustedComment: claims.trustedComment).fileData
    }
}

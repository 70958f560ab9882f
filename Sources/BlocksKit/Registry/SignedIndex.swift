/// The checks a pinned registry's index passes before it is parsed, in TUF's order:
/// the signature by a pinned key (forgery), the trusted comment's expiry (freeze), and its
/// version against the highest this cache has accepted from that registry and key
/// (rollback). After parsing, the index's own `version` and `expires` must match.
struct SignedIndexCheck: Sendable {
    let keys: [MinisignPublicKey]
    let allowExpired: Bool
    let location: String
    let cache: RegistryCache
    let notices: NoticeHandler

    /// Seconds since 1970, now.
    var now: Int { Int(Date().timeIntervalSince1970) }

    /// The key that signed `index` and what the signature claims; the error names the attack.
    func verify(index: Data, signature: Data?) throws -> (key: MinisignPublicKey, claims: SignedIndexClaims) {
        guard let signature else { throw SignatureError.missingSignature(location: location, keyOrigin: keys.first?.origin) }
        let parsed = try MinisignSignature(data: signature)
        let key = try parsed.verify(index, keys: keys, location: location)
        let claims = try SignedIndexClaims(trustedComment: parsed.trustedComment)
        try checkExpiry(claims)
        try RollbackRecord(cache: cache, location: location, keyID: key.id).accept(version: claims.version, index: index)
        return (key, claims)
    }

    /// The quick check of a signature whose bytes were verified, both signatures, with the
    /// very index file the cache holds (`fileStamp` unchanged): that its key is still
    /// pinned, and the expiry, which time alone changes. Nothing needs hashing again, so
    /// libhogweed is not even loaded, and a search of a pinned registry costs about one
    /// small request more than an unpinned one.
    func reverify(signature: Data) throws -> (key: MinisignPublicKey, claims: SignedIndexClaims) {
        let parsed = try MinisignSignature(data: signature)
        guard let key = keys.first(where: { $0.keyID == parsed.keyID }) else {
            throw SignatureError.unknownKey(location: location, keyID: MinisignPublicKey.idText(parsed.keyID), pinned: keys.map(\.id))
        }
        let claims = try SignedIndexClaims(trustedComment: parsed.trustedComment)
        try checkExpiry(claims)
        return (key, claims)
    }

    func checkExpiry(_ claims: SignedIndexClaims) throws {
        guard let expiry = RFC3339.seconds(claims.expires), expiry <= now else { return }
        guard allowExpired else { throw SignatureError.expired(location: location, expires: claims.expires) }
        notices(.warning("registry \(location) expired on \(claims.expires); using it anyway (--allow-expired)"))
    }

    /// A file's size, modification time and inode: any rewrite (an atomic rename too)
    /// changes it.
    static func fileStamp(_ url: URL) -> String? {
        var info = stat()
        guard stat(url.path, &info) == 0 else { return nil }
        let modified = info.modificationTime
        return "\(info.st_size) \(modified.tv_sec).\(modified.tv_nsec) \(info.st_ino)"
    }

    /// The parsed index's own fields agree with the signature, and every metadata file has
    /// a hash to be checked against.
    func confirm(_ index: RegistryIndex, claims: SignedIndexClaims) throws {
        // A split index vouches for metadata files through its digest files instead.
        guard index.version == claims.version, index.expires == claims.expires, index.metadata != nil || index.split != nil else {
            throw SignatureError.claimsMismatch(location: location)
        }
        if let next = index.nextKey, let key = try? MinisignPublicKey(text: next), !keys.contains(key) {
            notices(.note("registry \(location) will next be signed by key \(key.id); pin it too (keys in blocks.json) before its publisher rotates"))
        }
    }

    /// A metadata file's bytes against the hash and size a signed index gives its path.
    static func checkMetadata(_ data: Data, path: String, digests: [String: RegistryFileDigest], location: String) throws {
        guard let digest = digests[path], digest.size == Int64(data.count), digest.sha256 == SHA256.hex(data) else {
            throw SignatureError.metadataMismatch(location: location, path: path)
        }
    }
}

/// The highest index version this cache accepted from one registry signed by one key,
/// and that index's SHA-256: `trust/<hash of location and key>.json` under the cache.
struct RollbackRecord {
    let file: URL
    let location: String

    init(cache: RegistryCache, location: String, keyID: String) {
        file = cache.root.joining("trust/" + SHA256.hex(location + "\n" + keyID) + ".json")
        self.location = location
    }

    func accept(version: Int, index: Data) throws {
        let digest = SHA256.hex(index)
        if let data = FileManager.default.contents(atPath: file.path), case .object(let members)? = try? JSONReader.parse(data),
            case .int(let accepted)? = members["version"], case .string(let acceptedDigest)? = members["sha256"]
        {
            if version < accepted { throw SignatureError.rollback(location: location, version: version, accepted: accepted) }
            if version == accepted {
                guard digest == acceptedDigest else { throw SignatureError.sameVersionDifferentIndex(location: location, version: version) }
                return
            }
        }
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try AtomicFile.write(StableJSON.data(.object(["location": .string(location), "version": .int(version), "sha256": .string(digest)])), to: file)
    }
}

/// What `info` and `status` say of a registry's signature: "signed by KEYID" once a
/// pinned key verified its index, "unsigned" for any registry read without a pinned key,
/// and "built in" for the catalog inside the binary.
enum RegistrySignature {
    /// The signature file beside a signed registry's `index.json`, which `blocks build
    /// --sign` writes (`IndexSigning.signatureFile`) and clients and mirrors fetch.
    static let signatureFile = "index.json.minisig"

    static func status(of source: RegistrySource) throws -> String {
        if let built = source.readingSource as? BuiltRegistrySource { return try built.signatureStatus() }
        if source.location == CatalogSource.embedded.location { return "built in" }
        return "unsigned"
    }
}

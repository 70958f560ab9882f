/// A mirror of a signed registry is a signed registry: it copies `index.json.minisig`
/// byte for byte beside the index and never signs anything itself. With pinned keys
/// (`--key`) it checks what it copies as a client would (signature, expiry, no older or
/// changed version than the one DEST holds, every metadata file against the index), so a
/// bad upstream never replaces a good snapshot. `verify` checks a mirror at rest.
public struct MirrorSignature {
    public var keys: [MinisignPublicKey]
    public var allowExpired: Bool
    public var notices: NoticeHandler

    public init(keys: [MinisignPublicKey] = [], allowExpired: Bool = false, notices: @escaping NoticeHandler = { _ in }) {
        self.keys = keys
        self.allowExpired = allowExpired
        self.notices = notices
    }

    static let file = IndexSigning.signatureFile

    /// Checks an upstream index and its signature (nil: the upstream has none) before
    /// anything is staged. Unpinned, a signature is only carried along.
    func check(index: Data, signature: Data?, location: String, destination: URL) throws {
        guard !keys.isEmpty else { return }
        guard let signature else { throw SignatureError.missingSignature(location: location, keyOrigin: keys.first?.origin) }
        let parsed = try MinisignSignature(data: signature)
        _ = try parsed.verify(index, keys: keys, location: location)
        let claims = try SignedIndexClaims(trustedComment: parsed.trustedComment)
        if let expiry = RFC3339.seconds(claims.expires), expiry <= Int(Date().timeIntervalSince1970) {
            guard allowExpired else { throw SignatureError.expired(location: location, expires: claims.expires) }
            notices(.warning("registry \(location) expired on \(claims.expires); mirroring it anyway (--allow-expired)"))
        }
        // DEST's own index is the version already accepted.
        let held = FileManager.default.contents(atPath: destination.appendingPathComponent("index.json").path)
        if let held, let version = (try? RegistryIndex.read(held))?.version {
            if claims.version < version { throw SignatureError.rollback(location: location, version: claims.version, accepted: version) }
            if claims.version == version, held != index { throw SignatureError.sameVersionDifferentIndex(location: location, version: version) }
        }
        let decoded = try RegistryIndex.decode(index, location: location)
        guard decoded.version == claims.version, decoded.expires == claims.expires, decoded.metadata != nil || decoded.split != nil else {
            throw SignatureError.claimsMismatch(location: location)
        }
    }

    /// Every metadata file a signed index lists, as `file(path)` reads it (staged or in
    /// place), against its hash and size. Nothing to check for an unsigned index.
    static func checkMetadata(index: Data, location: String, file: (String) -> Data?) throws {
        guard looksSigned(index), let decoded = try? RegistryIndex.read(index), decoded.metadata != nil else { return }
        for path in decoded.metadata!.keys.sorted() {
            guard let data = file(path) else { throw SignatureError.metadataMismatch(location: location, path: path) }
            try SignedIndexCheck.checkMetadata(data, path: path, digests: decoded.metadata ?? [:], location: location)
        }
    }

    /// How many of an index's last bytes `looksSigned` reads.
    static let signedTailLength = 64

    /// Whether an index ends as a signed build writes one, with `version` last: how an
    /// unpinned mirror decides to fetch a signature, and to check metadata, without
    /// decoding a 20 MB unsigned index (whose peak memory the mirror keeps flat).
    static func looksSigned(_ index: Data) -> Bool {
        let tail = String(decoding: index.suffix(signedTailLength), as: UTF8.self)
        return tail.contains("\n  \"version\" : ")
    }

    /// The problems `mirror --verify` reports for DEST's signature and signed fields.
    func problems(destination: URL) -> [String] {
        let location = destination.path
        guard let index = FileManager.default.contents(atPath: destination.appendingPathComponent("index.json").path) else { return [] }
        let signature = FileManager.default.contents(atPath: destination.appendingPathComponent(Self.file).path)
        var problems: [String] = []
        if !keys.isEmpty {
            do {
                try check(index: index, signature: signature, location: location, destination: URL(fileURLWithPath: "/nonexistent"))
            } catch {
                problems.append("\(Self.file): \(ErrorText.line(for: error))")
            }
        }
        do {
            try Self.checkMetadata(index: index, location: location) { FileManager.default.contents(atPath: destination.appendingPathComponent($0).path) }
        } catch {
            problems.append(ErrorText.line(for: error))
        }
        return problems
    }
}

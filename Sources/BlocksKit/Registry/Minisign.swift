/// A public key in minisign's format, so that `minisign -Vm index.json -P KEY` checks a
/// registry's signature with a tool its users already trust: the base64 of the algorithm
/// `Ed`, an 8-byte key id and the 32-byte Ed25519 key. A `.pub` file is an untrusted
/// comment line and that base64 line.
public struct MinisignPublicKey: Equatable, Hashable, Sendable {
    /// minisign's tag for plain Ed25519 over the message itself ("legacy"), which minisign
    /// 0.11 still verifies by default. Its other tag, `ED`, signs a BLAKE2b-512 of the
    /// message, which Nettle 3.8 cannot compute.
    static let algorithm: [UInt8] = [UInt8(ascii: "E"), UInt8(ascii: "d")]

    /// As stored: little-endian, as minisign reads it.
    public let keyID: [UInt8]
    public let key: [UInt8]
    /// Where the key was pinned, for messages: `--key`, or the blocks.json field that
    /// holds it; nil when unknown. Not part of the key: two equal keys pinned in two
    /// places are the same key.
    public var origin: KeyOrigin?

    /// Where a pinned key came from.
    public enum KeyOrigin: Sendable, Hashable, CustomStringConvertible {
        /// The command line's `--key`.
        case option
        /// A field of blocks.json: `keys`, or `registries.@acme.keys`.
        case projectConfig(field: String)

        public var description: String {
            switch self {
            case .option: return "--key"
            case .projectConfig(let field): return "blocks.json (\(field))"
            }
        }
    }

    init(keyID: [UInt8], key: [UInt8]) {
        self.keyID = keyID
        self.key = key
    }

    public static func == (left: MinisignPublicKey, right: MinisignPublicKey) -> Bool { left.keyID == right.keyID && left.key == right.key }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(keyID)
        hasher.combine(key)
    }

    /// The same key, recorded as pinned by `origin`.
    public func pinned(by origin: KeyOrigin) -> MinisignPublicKey {
        var copy = self
        copy.origin = origin
        return copy
    }

    /// The key from its base64 line, or from a whole `.pub` file (whose last non-empty
    /// line is that base64).
    public init(text: String) throws(SignatureError) {
        guard text.utf8.count <= 1024 else { throw .malformedPublicKey(reason: "it is longer than a public key") }
        let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingWhitespace() }.filter { !$0.isEmpty }
        guard let line = lines.last, lines.count <= 2 else { throw .malformedPublicKey(reason: "it is not a minisign public key (RW... in base64)") }
        if lines.count == 2, !lines[0].hasPrefix("untrusted comment:") {
            throw .malformedPublicKey(reason: "a public key file has an untrusted comment line, then the key")
        }
        guard let bytes = Data(base64Encoded: line).map(Array.init), bytes.count == 42 else {
            throw .malformedPublicKey(reason: "it is not 42 bytes of base64 (minisign's Ed, key id and key)")
        }
        guard Array(bytes[0..<2]) == Self.algorithm else {
            throw .malformedPublicKey(reason: "its algorithm is not Ed25519 (Ed)")
        }
        self.init(keyID: Array(bytes[2..<10]), key: Array(bytes[10..<42]))
    }

    /// What `minisign -P` takes and `blocks.json` pins.
    public var base64: String { Data(Self.algorithm + keyID + key).base64EncodedString() }

    /// The id as minisign prints it: the little-endian number in upper-case hex.
    public var id: String { MinisignPublicKey.idText(keyID) }

    static func idText(_ keyID: [UInt8]) -> String {
        let number = keyID.reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return String(number, radix: 16, uppercase: true)
    }

    /// A `.pub` file as `minisign -G` writes one.
    public var fileText: String { "untrusted comment: minisign public key \(id)\n\(base64)\n" }
}

/// A `.minisig` file: an untrusted comment, the signature of the file (algorithm, key id,
/// 64 bytes), a trusted comment, and the global signature of the file's signature and
/// the trusted comment together, so the trusted comment cannot be swapped.
public struct MinisignSignature: Equatable, Sendable {
    /// Far more than four lines of a signature need; anything longer is not one.
    static let maximumBytes = 4096
    static let untrustedPrefix = "untrusted comment: "
    static let trustedPrefix = "trusted comment: "

    public var keyID: [UInt8]
    public var signature: [UInt8]
    public var trustedComment: String
    public var globalSignature: [UInt8]

    /// Parses the file; `truncated` and friends become `malformedSignature` with a reason.
    public init(data: Data) throws(SignatureError) {
        func malformed(_ reason: String) -> SignatureError { .malformedSignature(reason: reason) }
        guard data.count <= Self.maximumBytes else { throw malformed("it is longer than a signature file") }
        guard let text = String(strictUTF8: data) else { throw malformed("it is not UTF-8 text") }
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.hasSuffix("\r") ? String($0.dropLast()) : String($0) }
        if lines.last == "" { lines.removeLast() }
        guard lines.count == 4 else { throw malformed("it has \(lines.count) of the 4 lines a signature file has") }
        guard lines[0].hasPrefix(Self.untrustedPrefix) else { throw malformed("line 1 is not an untrusted comment") }
        guard let signed = Data(base64Encoded: lines[1]).map(Array.init), signed.count == 74 else {
            throw malformed("line 2 is not 74 bytes of base64 (algorithm, key id, signature)")
        }
        guard Array(signed[0..<2]) == MinisignPublicKey.algorithm else {
            throw malformed("its algorithm is not Ed (plain Ed25519), the one blocks writes and checks")
        }
        guard lines[2].hasPrefix(Self.trustedPrefix) else { throw malformed("line 3 is not a trusted comment") }
        guard let global = Data(base64Encoded: lines[3]).map(Array.init), global.count == 64 else {
            throw malformed("line 4 is not a 64-byte signature in base64")
        }
        keyID = Array(signed[2..<10])
        signature = Array(signed[10..<74])
        trustedComment = String(lines[2].dropFirst(Self.trustedPrefix.count))
        globalSignature = global
    }

    /// Signs `message` with `secret`, carrying `trustedComment` (one line).
    init(signing message: Data, with secret: SecretKey, trustedComment: String) throws(SignatureError) {
        guard SystemEd25519.isAvailable else { throw .cryptographyUnavailable }
        keyID = secret.publicKey.keyID
        signature = SystemEd25519.sign(Array(message), secret: secret.seed, publicKey: secret.publicKey.key)
        self.trustedComment = trustedComment
        globalSignature = SystemEd25519.sign(signature + Array(trustedComment.utf8), secret: secret.seed, publicKey: secret.publicKey.key)
    }

    public var fileData: Data {
        Data(
            (Self.untrustedPrefix + "signature from blocks secret key \(MinisignPublicKey.idText(keyID))\n"
                + Data(MinisignPublicKey.algorithm + keyID + signature).base64EncodedString() + "\n"
                + Self.trustedPrefix + trustedComment + "\n"
                + Data(globalSignature).base64EncodedString() + "\n").utf8)
    }

    /// The pinned key that made this signature of `message`, with its trusted comment
    /// checked too; the error names what failed.
    func verify(_ message: Data, keys: [MinisignPublicKey], location: String) throws(SignatureError) -> MinisignPublicKey {
        guard let key = keys.first(where: { $0.keyID == keyID }) else {
            throw .unknownKey(location: location, keyID: MinisignPublicKey.idText(keyID), pinned: keys.map(\.id))
        }
        guard SystemEd25519.isAvailable else { throw .cryptographyUnavailable }
        let valid = message.withUnsafeBytes { SystemEd25519.isValid(signature, of: $0, publicKey: key.key) }
        guard valid else { throw .forgedIndex(location: location, keyID: key.id) }
        try verifyTrustedComment(key: key, location: location)
        return key
    }

    /// The global signature: the trusted comment belongs to this signature, by `key`.
    func verifyTrustedComment(key: MinisignPublicKey, location: String) throws(SignatureError) {
        guard SystemEd25519.isAvailable else { throw .cryptographyUnavailable }
        let comment = signature + Array(trustedComment.utf8)
        guard comment.withUnsafeBytes({ SystemEd25519.isValid(globalSignature, of: $0, publicKey: key.key) }) else {
            throw .forgedTrustedComment(location: location)
        }
    }
}

/// What a signed index's trusted comment says, so rollback and expiry are decided
/// before the index is parsed: `version:N<TAB>expires:RFC3339<TAB>file:index.json`.
public struct SignedIndexClaims: Equatable, Sendable {
    public var version: Int
    public var expires: String

    public init(version: Int, expires: String) {
        self.version = version
        self.expires = expires
    }

    var trustedComment: String { "version:\(version)\texpires:\(expires)\tfile:index.json" }

    init(trustedComment: String) throws(SignatureError) {
        var fields: [String: String] = [:]
        for part in trustedComment.split(separator: "\t") {
            guard let colon = part.firstIndex(of: ":") else { continue }
            fields[String(part[..<colon])] = String(part[part.index(after: colon)...])
        }
        guard let versionText = fields["version"], let version = Int(versionText), version >= 0,
            let expires = fields["expires"], RFC3339.seconds(expires) != nil
        else {
            throw .malformedSignature(reason: "its trusted comment does not carry the index's version and expiry")
        }
        self.init(version: version, expires: expires)
    }
}

/// The secret key file `blocks keygen` writes: our own two lines, an untrusted comment and
/// the base64 of `BS`, the key id and the 32-byte Ed25519 seed. It is never encrypted, so
/// its mode is the guard: 0600, and a file others can read is refused.
public struct SecretKey: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    static let tag: [UInt8] = [UInt8(ascii: "B"), UInt8(ascii: "S")]
    let seed: [UInt8]
    public let publicKey: MinisignPublicKey

    init(seed: [UInt8], keyID: [UInt8]) throws(SignatureError) {
        guard SystemEd25519.isAvailable else { throw .cryptographyUnavailable }
        self.seed = seed
        publicKey = MinisignPublicKey(keyID: keyID, key: SystemEd25519.publicKey(secret: seed))
    }

    /// Never the seed: a key interpolated, dumped or reflected by mistake shows its id only.
    public var description: String { "secret key \(publicKey.id)" }
    public var debugDescription: String { description }
    public var customMirror: Swift.Mirror { Swift.Mirror(self, children: ["publicKey": publicKey.base64]) }

    /// A new key from the system's random source.
    static func generate() throws(SignatureError) -> SecretKey {
        guard let bytes = SystemRandom.bytes(40) else { throw .noRandomness }
        return try SecretKey(seed: Array(bytes[0..<32]), keyID: Array(bytes[32..<40]))
    }

    var fileData: Data {
        Data(
            ("untrusted comment: blocks secret key \(publicKey.id); keep this file private (mode 0600)\n"
                + Data(Self.tag + publicKey.keyID + seed).base64EncodedString() + "\n").utf8)
    }

    /// Reads a key file, refusing one that group or others may read or write.
    public static func read(path: String) throws(SignatureError) -> SecretKey {
        var info = stat()
        guard stat(path, &info) == 0 else { throw .unreadableSecretKey(path: path, reason: String(cString: strerror(errno))) }
        let mode = info.st_mode & 0o777
        guard mode & 0o077 == 0 else { throw .looseSecretKey(path: path, mode: String(mode, radix: 8)) }
        guard info.st_size <= 1024, let data = FileManager.default.contents(atPath: path) else {
            throw .unreadableSecretKey(path: path, reason: "it is not a blocks secret key file")
        }
        let lines = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline)
        guard lines.count == 2, let bytes = Data(base64Encoded: String(lines[1])).map(Array.init), bytes.count == 42,
            Array(bytes[0..<2]) == tag
        else {
            throw .unreadableSecretKey(path: path, reason: "it is not a blocks secret key file")
        }
        return try SecretKey(seed: Array(bytes[10..<42]), keyID: Array(bytes[2..<10]))
    }
}

/// RFC 3339 times in UTC, as the index's `expires` holds them (`2026-01-31T00:00:00Z`),
/// and `--expires` durations.
enum RFC3339 {
    /// Seconds since 1970 of `YYYY-MM-DDTHH:MM:SSZ`; nil for anything else.
    static func seconds(_ text: String) -> Int? {
        let bytes = Array(text.utf8)
        guard bytes.count == 20, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"), bytes[10] == UInt8(ascii: "T"),
            bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"), bytes[19] == UInt8(ascii: "Z")
        else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            guard bytes[range].allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return nil }
            return Int(String(decoding: bytes[range], as: UTF8.self))
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
            year >= 1970, (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 60
        else { return nil }
        // Days from civil, the inverse of `PublicationDate.iso8601`.
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = shiftedYear / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        let total = days * 86_400 + hour * 3600 + minute * 60 + second
        // 31 February and the like: only a date that prints back the same is one.
        return PublicationDate.iso8601(secondsSince1970: total) == text ? total : nil
    }

    /// `7d`, `12h`, `30m`, `90s`: a positive count and one unit; nil otherwise.
    static func duration(_ text: String) -> Int? {
        guard let unit = text.last, let count = Int(text.dropLast()), count > 0, count <= 10 * 365 * 86_400 else { return nil }
        let scale: Int
        switch unit {
        case "s": scale = 1
        case "m": scale = 60
        case "h": scale = 3600
        case "d": scale = 86_400
        default: return nil
        }
        // Ten years at most: an index that never expires is no defence against a freeze.
        return count * scale <= 10 * 365 * 86_400 ? count * scale : nil
    }
}

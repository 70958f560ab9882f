extension String {
    /// The bytes as text when they are well-formed UTF-8, else nil: the one rule every
    /// reader of untrusted text uses (JSON strings, signature files, percent-decoded URLs).
    ///
    /// The standard library's validating initializer says the same but needs macOS 15
    /// (docs/PLATFORMS.md).
    /// Decoding replaces each ill-formed sequence with U+FFFD, so the bytes were valid
    /// exactly when decoding kept them; ASCII, the common case, is checked byte by byte.
    init?<Bytes: Collection>(strictUTF8 bytes: Bytes) where Bytes.Element == UInt8 {
        let decoded = String(decoding: bytes, as: UTF8.self)
        guard bytes.allSatisfy({ $0 < 0x80 }) || decoded.utf8.elementsEqual(bytes) else { return nil }
        self = decoded
    }
}

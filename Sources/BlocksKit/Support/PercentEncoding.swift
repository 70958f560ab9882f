/// URL percent escapes, for the parts of a location blocks reads itself: a `file://`
/// URL's path and a registry URL's user information.
enum PercentEncoding {
    /// `%XX` escapes turned back into bytes; nil when the result is not UTF-8.
    static func decoded(_ text: String) -> String? {
        var bytes: [UInt8] = []
        var input = text.utf8[...]
        while let byte = input.popFirst() {
            let digits = input.prefix(2)
            if byte == UInt8(ascii: "%"), digits.count == 2, digits.allSatisfy({ Character(Unicode.Scalar($0)).isHexDigit }),
                let value = UInt8(String(decoding: digits, as: UTF8.self), radix: 16)
            {
                bytes.append(value)
                input = input.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(strictUTF8: bytes)
    }
}

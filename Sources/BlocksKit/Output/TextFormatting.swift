extension StringProtocol {
    /// The text without leading and trailing whitespace and newlines (Unicode's
    /// `White_Space`), for values read from headers, prompts and small files.
    func trimmingWhitespace() -> String {
        guard let first = firstIndex(where: { !$0.isWhitespace }),
            let last = lastIndex(where: { !$0.isWhitespace })
        else { return "" }
        return String(self[first...last])
    }

    /// The text padded with spaces to `width` characters, for the label column of plans.
    func paddedToWidth(_ width: Int) -> String {
        String(self) + String(repeating: " ", count: Swift.max(0, width - count))
    }
}

extension Double {
    /// The value with exactly `places` decimals, as in "0.25 s" and "1.5 MB", by the C
    /// library's printf (`String(format:)` lives in the part of Foundation not linked).
    func fixedPoint(places: Int) -> String {
        var buffer = [CChar](repeating: 0, count: 64)
        let length = withVaList([Int32(places), self]) { vsnprintf(&buffer, buffer.count, "%.*f", $0) }
        return String(decoding: buffer.prefix(Int(max(0, min(length, 63)))).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

extension StringProtocol {
    /// The text without leading and trailing whitespace and newlines (Unicode's
    /// `White_Space`), for values read from headers, prompts and small files.
    func trimmingWhitespace() -> String {
        guard let first = firstIndex(where: { !$0.isWhitespace }),
              let last = lastIndex(where: { !$0.isWhitespace }) else { return "" }
        return String(self[first...last])
    }

    /// The text padded with spaces to `width` characters, for the label column of plans.
    func paddedToWidth(_ width: Int) -> String {
        String(self) + String(repeating: " ", count: Swift.max(0, width - count))
    }
}

extension Double {
    /// The value with exactly `places` decimals, rounded half away from zero, as in
    /// "0.25 s" and "1.5 MB" (what `String(format: "%.2f")` printed).
    func fixedPoint(places: Int) -> String {
        let scale = (0..<places).reduce(1) { product, _ in product * 10 }
        let scaled = Int((abs(self) * Double(scale)).rounded())
        let sign = self < 0 && scaled != 0 ? "-" : ""
        guard places > 0 else { return sign + String(scaled) }
        let fraction = String(scaled % scale)
        return sign + String(scaled / scale) + "." + String(repeating: "0", count: places - fraction.count) + fraction
    }
}

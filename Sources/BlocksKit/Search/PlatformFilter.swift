/// A `--platform` value such as `ios18`, `iOS 18` or `ios18.0`: a platform and the
/// OS version the user targets. A block fits when its minimum is at most that version.
public struct PlatformFilter: Sendable, Equatable {
    public var platform: String
    public var version: [Int]

    public init?(_ text: String) {
        let compact = text.replacing(" ", with: "").lowercased()
        guard let digitStart = compact.firstIndex(where: \.isNumber) else { return nil }
        let name = String(compact[..<digitStart])
        guard let platform = ManifestValidator.knownPlatforms.first(where: { $0.lowercased() == name }) else { return nil }
        let numbers = compact[digitStart...].split(separator: ".", omittingEmptySubsequences: false).map { Int($0) }
        guard !numbers.isEmpty, numbers.allSatisfy({ $0 != nil }) else { return nil }
        self.platform = platform
        self.version = numbers.compactMap { $0 }
    }

    /// True when the manifest runs on this platform at this version. iPadOS falls back
    /// to the iOS minimum, since an iOS block runs on iPad.
    public func accepts(_ platforms: [String: String]) -> Bool {
        let minimum = platforms[platform] ?? (platform == "iPadOS" ? platforms["iOS"] : nil)
        guard let minimum else { return false }
        return Self.compare(Self.parse(minimum), version) <= 0
    }

    static func parse(_ version: String) -> [Int] {
        version.split(separator: ".").map { Int($0) ?? 0 }
    }

    /// Compares dotted versions numerically, padding the shorter with zeros.
    public static func compare(_ left: [Int], _ right: [Int]) -> Int {
        for index in 0..<max(left.count, right.count) {
            let a = index < left.count ? left[index] : 0
            let b = index < right.count ? right[index] : 0
            if a != b { return a < b ? -1 : 1 }
        }
        return 0
    }
}

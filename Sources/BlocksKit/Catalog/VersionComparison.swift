/// Orders version strings: semantic versions of blocks (`1.2.0`, `1.2.0-beta.1`) and
/// OS deployment targets (`17`, `10.15`), so `status` can spot updates and `add` can
/// spot a block that needs a newer OS than the project targets.
public enum VersionComparison {
    /// True when `candidate` is a later version than `current`.
    public static func isNewer(_ candidate: String, than current: String) -> Bool {
        compare(candidate, current) > 0
    }

    /// Negative, zero or positive, like `strcmp`. Missing numeric parts count as 0,
    /// build metadata (`+...`) is ignored, and a pre-release sorts before its release.
    public static func compare(_ left: String, _ right: String) -> Int {
        let (leftCore, leftPre) = split(left)
        let (rightCore, rightPre) = split(right)
        for index in 0..<max(leftCore.count, rightCore.count) {
            let a = index < leftCore.count ? leftCore[index] : 0
            let b = index < rightCore.count ? rightCore[index] : 0
            if a != b { return a < b ? -1 : 1 }
        }
        switch (leftPre, rightPre) {
        case (nil, nil): return 0
        case (nil, _): return 1
        case (_, nil): return -1
        case (let a?, let b?): return comparePrerelease(a, b)
        }
    }

    static func split(_ version: String) -> ([Int], [Substring]?) {
        var text = Substring(version.trimmingWhitespace())
        if text.hasPrefix("v") { text = text.dropFirst() }
        text = text.prefix { $0 != "+" }
        let parts = text.split(separator: "-", maxSplits: 1)
        let core = (parts.first ?? "").split(separator: ".").map { Int($0) ?? 0 }
        let prerelease = parts.count > 1 ? parts[1].split(separator: ".") : nil
        return (core, prerelease)
    }

    static func comparePrerelease(_ left: [Substring], _ right: [Substring]) -> Int {
        for (a, b) in zip(left, right) where a != b {
            switch (Int(a), Int(b)) {
            case (let x?, let y?): return x < y ? -1 : 1
            case (_?, nil): return -1
            case (nil, _?): return 1
            default: return a < b ? -1 : 1
            }
        }
        return left.count == right.count ? 0 : (left.count < right.count ? -1 : 1)
    }
}

/// Compares a block's minimum OS versions with a package's deployment targets.
public enum PlatformCheck {
    /// One platform where the block needs more than the project targets.
    public struct Gap: Sendable, Equatable {
        public var platform: String
        public var blockMinimum: String
        public var projectMinimum: String
    }

    /// The platforms the project declares at a lower version than the block needs.
    /// Platforms the project does not declare are not reported: its `platforms:` list
    /// says which systems it cares about.
    public static func gaps(block: [String: String], project: [String: String]) -> [Gap] {
        block.sorted { $0.key < $1.key }.compactMap { platform, minimum in
            guard let declared = project.first(where: { $0.key.lowercased() == platform.lowercased() })?.value else { return nil }
            guard VersionComparison.compare(minimum, declared) > 0 else { return nil }
            return Gap(platform: platform, blockMinimum: minimum, projectMinimum: declared)
        }
    }
}

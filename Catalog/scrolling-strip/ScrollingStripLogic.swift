/// The pure decisions behind ``ScrollingStrip``, kept apart from SwiftUI so they can be
/// unit-tested anywhere Swift runs.
@available(iOS 18.0, *)
public enum ScrollingStripLogic {
    /// The tabs the strip shows: each title once, in its first position, so every tab has
    /// a stable identity even when the caller passes a duplicate by mistake.
    public static func uniqueTabs(_ tabs: [String]) -> [String] {
        var seen: Set<String> = []
        return tabs.filter { seen.insert($0).inserted }
    }

    /// The tab that should be selected after the list changes from `previousTabs` to
    /// `tabs`.
    ///
    /// - A selection that is still listed stays, wherever it moved to.
    /// - A removed selection passes to the nearest tab that survived, looking first at
    ///   the ones after it (the tab that slides into its place), then at the ones before.
    /// - A selection that was never listed becomes the first tab.
    /// - With no tabs at all the answer is `nil`: there is nothing to select.
    public static func resolvedSelection(_ selection: String, previousTabs: [String], tabs: [String]) -> String? {
        guard let first = tabs.first else { return nil }
        if tabs.contains(selection) { return selection }
        guard let oldIndex = previousTabs.firstIndex(of: selection) else { return first }
        let after = previousTabs[previousTabs.index(after: oldIndex)...]
        if let next = after.first(where: tabs.contains) { return next }
        let before = previousTabs[..<oldIndex].reversed()
        if let previous = before.first(where: tabs.contains) { return previous }
        return first
    }

    /// How far a tab's touch area reaches beyond its drawn frame.
    public struct Outsets: Equatable, Sendable {
        public var horizontal: Double
        public var vertical: Double

        public init(horizontal: Double, vertical: Double) {
            self.horizontal = horizontal
            self.vertical = vertical
        }
    }

    /// The outsets that grow a tab of `width` × `height` points toward a `minimum` square
    /// touch target without moving anything on screen.
    ///
    /// Sideways the area never reaches past half the `spacing`, so neighbouring targets
    /// never overlap; vertically it grows freely. Negative or missing room gives zero.
    public static func touchTargetOutsets(width: Double, height: Double, spacing: Double, minimum: Double = 44) -> Outsets {
        let horizontalNeed = max(0, (minimum - max(0, width)) / 2)
        let horizontalRoom = max(0, spacing / 2)
        return Outsets(
            horizontal: min(horizontalNeed, horizontalRoom),
            vertical: max(0, (minimum - max(0, height)) / 2)
        )
    }
}

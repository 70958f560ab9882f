/// The pure decisions behind ``FloatingTabBar``, kept apart from SwiftUI so they can be
/// unit-tested anywhere Swift runs.
@available(iOS 17.0, *)
public enum FloatingTabBarLogic {
    /// The tab that should be selected after the tabs change from `previousValues` to
    /// `values`.
    ///
    /// - A selection that is still listed stays, wherever it moved to.
    /// - A removed selection passes to the nearest tab that survived, looking first at the
    ///   ones after it (the tab that slides into its place), then at the ones before.
    /// - A selection that was never listed becomes the first tab.
    /// - With no tabs the answer is `nil`: there is nothing to select.
    public static func resolvedSelection<Value: Hashable>(_ selection: Value, previousValues: [Value], values: [Value]) -> Value? {
        guard let first = values.first else { return nil }
        if values.contains(selection) { return selection }
        guard let oldIndex = previousValues.firstIndex(of: selection) else { return first }
        if let next = previousValues[(oldIndex + 1)...].first(where: values.contains) { return next }
        if let previous = previousValues[..<oldIndex].reversed().first(where: values.contains) { return previous }
        return first
    }

    /// The tabs whose content has been built: the ones visited before that still exist,
    /// plus the selection, in tab order. A tab's content is built the first time it is
    /// selected and then kept, so its state (a scroll position, a navigation path)
    /// survives switching away and back; a removed tab's content is dropped.
    public static func builtTabs<Value: Hashable>(visited: [Value], selection: Value, values: [Value]) -> [Value] {
        values.filter { $0 == selection || visited.contains($0) }
    }

    /// Which tabs sit before the centre action and which after it. With no centre action
    /// every tab is leading. With one, the leading side gets the extra tab of an odd
    /// count, so in reading order the action comes after the larger half.
    public static func sides(count: Int, hasCenterAction: Bool) -> (leading: Range<Int>, trailing: Range<Int>) {
        let count = max(0, count)
        guard hasCenterAction else { return (0..<count, count..<count) }
        let leadingCount = (count + 1) / 2
        return (0..<leadingCount, leadingCount..<count)
    }

    /// What a count badge shows.
    public enum CountBadge: Equatable, Sendable {
        /// The count itself.
        case number(Int)
        /// More than the limit: the limit and a plus sign, such as "99+".
        case overLimit(Int)
    }

    /// The badge for a count, or `nil` for none: zero or less shows no badge, and counts
    /// over `limit` show "99+" the way Mail and Messages cap them. The view formats the
    /// number for the user's locale.
    public static func countBadge(_ count: Int, limit: Int = 99) -> CountBadge? {
        guard count > 0 else { return nil }
        return count > limit ? .overLimit(max(0, limit)) : .number(count)
    }

    /// Whether the software keyboard is up, from how far it reaches into the bottom safe
    /// area of a view that ignores the keyboard. Less than `threshold` points (a rounding
    /// error, a hardware keyboard's hidden bar) is no keyboard.
    public static func isKeyboardShown(keyboardInset: Double, threshold: Double = 1) -> Bool {
        keyboardInset.isFinite && keyboardInset >= max(threshold, 0.5)
    }

    /// Whether the bar is shown: always, unless it hides while the keyboard is up and the
    /// keyboard is up.
    public static func showsBar(keyboardShown: Bool, hidesWithKeyboard: Bool) -> Bool {
        !(keyboardShown && hidesWithKeyboard)
    }

    /// The values that appear more than once, each reported once, in the order of their
    /// second appearance. Selection goes by value, so ``FloatingTabBar`` checks its tabs
    /// with this in debug builds.
    public static func duplicates<Value: Hashable>(_ values: [Value]) -> [Value] {
        var seen: Set<Value> = []
        var reported: Set<Value> = []
        var duplicates: [Value] = []
        for value in values where !seen.insert(value).inserted && reported.insert(value).inserted {
            duplicates.append(value)
        }
        return duplicates
    }
}

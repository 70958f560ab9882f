/// How much a ``SearchTabView`` bottom accessory shows: all of it above a full-size tab
/// bar, or a compact form inline with a minimized one.
@available(iOS 26.0, *)
public enum SearchTabAccessoryStyle: Hashable, Sendable {
    /// Above the tab bar, with room for artwork, titles and controls.
    case full
    /// Inline with the minimized tab bar: a title and one or two buttons.
    case compact
}

/// The pure decisions behind ``SearchTabView``, kept apart from SwiftUI so they can be
/// unit-tested anywhere Swift runs.
@available(iOS 26.0, *)
public enum SearchTabViewLogic {
    /// The tab that should be selected after the tabs change from `previousValues` to
    /// `values`. The search tab is always there, so there is always an answer:
    ///
    /// - The search tab, or a listed tab, stays selected, wherever it moved to.
    /// - A removed tab passes the selection to the nearest tab that survived, looking first
    ///   at the ones after it (the tab that slides into its place), then at the ones before.
    /// - A value that no tab has becomes the first tab, or search when there are no others.
    public static func resolvedSelection<Value: Hashable>(_ selection: Value, previousValues: [Value], values: [Value], search: Value) -> Value {
        if selection == search || values.contains(selection) { return selection }
        guard let first = values.first else { return search }
        guard let oldIndex = previousValues.firstIndex(of: selection) else { return first }
        if let next = previousValues[(oldIndex + 1)...].first(where: values.contains) { return next }
        if let previous = previousValues[..<oldIndex].reversed().first(where: values.contains) { return previous }
        return first
    }

    /// The search text once the selection moved from `previous` to `selection`: kept, so
    /// going back to search shows the same results, unless `clearsSearchOnLeave` and the
    /// user just left the search tab.
    public static func searchText<Value: Hashable>(_ text: String, movingFrom previous: Value, to selection: Value, search: Value, clearsSearchOnLeave: Bool) -> String {
        clearsSearchOnLeave && previous == search && selection != search ? "" : text
    }

    /// Where the system placed the bottom accessory; the view maps SwiftUI's
    /// `TabViewBottomAccessoryPlacement?` to this.
    public enum AccessoryPlacement: Sendable, Equatable {
        /// Above the full-size tab bar.
        case expanded
        /// Inline with the minimized tab bar.
        case inline
    }

    /// The accessory's style for its placement: compact inline with a minimized bar, full
    /// above a full-size one, and full when the system gives no placement (iPad in regular
    /// width, where the bar does not minimize), so nothing is ever hidden for lack of one.
    public static func accessoryStyle(for placement: AccessoryPlacement?) -> SearchTabAccessoryStyle {
        placement == .inline ? .compact : .full
    }

    /// What a count badge shows.
    public enum CountBadge: Equatable, Sendable {
        /// The count itself.
        case number(Int)
        /// More than the limit: the limit and a plus sign, such as "99+".
        case overLimit(Int)
    }

    /// The badge for a count, or `nil` for none: zero or less shows no badge, like the
    /// system's `badge(_:)`, and counts over `limit` show "99+".
    public static func countBadge(_ count: Int, limit: Int = 99) -> CountBadge? {
        guard count > 0 else { return nil }
        return count > limit ? .overLimit(max(0, limit)) : .number(count)
    }

    /// The values that appear more than once among the tabs and the search tab, each
    /// reported once, in the order of their second appearance. Selection goes by value, so
    /// ``SearchTabView`` checks with this in debug builds.
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

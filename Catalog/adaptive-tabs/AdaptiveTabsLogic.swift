/// How much the user may customize a tab in the sidebar and the tab bar.
@available(iOS 18.0, *)
public enum AdaptiveTabCustomization: Hashable, Sendable {
    /// The user may reorder and hide the tab.
    case full
    /// The user may reorder the tab but never hide it.
    case reorderOnly
    /// The tab stays where it is and is always visible.
    case pinned
}

/// The pure decisions behind ``AdaptiveTabs``, kept apart from SwiftUI so they can be
/// unit-tested anywhere Swift runs.
@available(iOS 18.0, *)
public enum AdaptiveTabsLogic {
    /// What is selected, and what the Browse tab's navigation stack shows.
    public struct Navigation<Value: Hashable>: Equatable {
        public var selection: Value
        public var browsePath: [Value]

        public init(selection: Value, browsePath: [Value] = []) {
            self.selection = selection
            self.browsePath = browsePath
        }
    }

    /// The navigation that shows the same place after the width class changes, or after
    /// the selection was set to a tab that this width does not show.
    ///
    /// In compact width the section tabs are hidden and reached through Browse: a selected
    /// section tab becomes Browse with that tab pushed, in place of whatever Browse showed
    /// before. In regular width Browse is hidden: Browse becomes the section tab at the
    /// root of its path, or the first section tab when nothing was pushed. A value that no
    /// tab has becomes `fallback`, and Browse's path is left alone.
    public static func navigation<Value: Hashable>(
        _ navigation: Navigation<Value>,
        isCompact: Bool,
        browse: Value,
        primaryValues: [Value],
        sectionValues: [Value],
        fallback: Value
    ) -> Navigation<Value> {
        let selection = navigation.selection
        if isCompact {
            if selection == browse || primaryValues.contains(selection) { return navigation }
            if sectionValues.contains(selection) { return Navigation(selection: browse, browsePath: [selection]) }
            return Navigation(selection: fallback, browsePath: navigation.browsePath)
        }
        if selection == browse {
            if let root = navigation.browsePath.first, sectionValues.contains(root) {
                return Navigation(selection: root)
            }
            return Navigation(selection: sectionValues.first ?? fallback)
        }
        if primaryValues.contains(selection) || sectionValues.contains(selection) { return navigation }
        return Navigation(selection: fallback, browsePath: navigation.browsePath)
    }

    /// What a count badge shows.
    public enum CountBadge: Equatable, Sendable {
        /// The count itself.
        case number(Int)
        /// More than the limit: the limit and a plus sign, such as "99+".
        case overLimit(Int)
    }

    /// The badge for a count, or `nil` for none: zero or less shows no badge, like the
    /// system's `badge(_:)`, and counts over `limit` show "99+" the way Mail and Messages
    /// cap them. The view formats the number for the user's locale.
    public static func countBadge(_ count: Int, limit: Int = 99) -> CountBadge? {
        guard count > 0 else { return nil }
        return count > limit ? .overLimit(limit) : .number(count)
    }

    /// The customization identifier of a tab or section: your namespace and its stable id,
    /// so two tab views in one app never share customizations.
    public static func customizationID(namespace: String, id: String) -> String {
        namespace.isEmpty ? id : "\(namespace).\(id)"
    }

    /// Whether the user may hide the tab. Browse is always pinned: it is the only way to
    /// the sections in compact width.
    public static func canHide(_ customization: AdaptiveTabCustomization, isBrowse: Bool) -> Bool {
        !isBrowse && customization == .full
    }

    /// Whether the user may move the tab.
    public static func canReorder(_ customization: AdaptiveTabCustomization, isBrowse: Bool) -> Bool {
        !isBrowse && customization != .pinned
    }

    /// The values that appear more than once, each reported once, in the order of their
    /// second appearance. Selection goes by value and customization by id, so
    /// ``AdaptiveTabs`` checks both with this in debug builds.
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

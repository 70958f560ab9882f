/// A badge on a tab: a count, or a short text such as "New" or "!".
@available(iOS 18.0, *)
public enum AdaptiveTabBadge: Hashable, Sendable {
    /// A number. Zero or less shows no badge, like the system's `badge(_:)`.
    case count(Int)
    /// A short string. An empty string shows no badge.
    case text(String)
}

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

/// One tab of an ``AdaptiveTabs`` view.
@available(iOS 18.0, *)
public struct AdaptiveTab<Value: Hashable>: Identifiable {
    /// A stable identifier. It keys the user's customization, so never reuse or rename it.
    public var id: String
    /// The title, looked up in your strings catalog.
    public var title: String
    /// An SF Symbol name.
    public var systemImage: String
    /// The selection value that shows this tab.
    public var value: Value
    /// The badge, if any.
    public var badge: AdaptiveTabBadge?
    /// What the user may do with the tab when customizing.
    public var customization: AdaptiveTabCustomization

    public init(
        id: String, title: String, systemImage: String, value: Value,
        badge: AdaptiveTabBadge? = nil, customization: AdaptiveTabCustomization = .full
    ) {
        self.id = id
        self.title = title
        self.systemImage = systemImage
        self.value = value
        self.badge = badge
        self.customization = customization
    }
}

/// A titled group of tabs, shown as a `TabSection` in the sidebar and reached through
/// the Browse tab in compact width.
@available(iOS 18.0, *)
public struct AdaptiveTabGroup<Value: Hashable>: Identifiable {
    /// A stable identifier, used for the section's customization.
    public var id: String
    /// The section title, looked up in your strings catalog.
    public var title: String
    /// The tabs in the section, in their default order.
    public var tabs: [AdaptiveTab<Value>]

    public init(id: String, title: String, tabs: [AdaptiveTab<Value>]) {
        self.id = id
        self.title = title
        self.tabs = tabs
    }
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
    /// section tab becomes Browse with that tab pushed. In regular width Browse is hidden:
    /// Browse becomes the section tab at the root of its path, or the first section tab
    /// when nothing was pushed. A value that no tab has becomes `fallback`.
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

    /// The text of a badge, or `nil` for no badge. Counts over `limit` read "99+" the way
    /// Mail and Messages cap them.
    public static func badgeText(_ badge: AdaptiveTabBadge?, limit: Int = 99) -> String? {
        switch badge {
        case .none:
            return nil
        case .count(let count):
            guard count > 0 else { return nil }
            return count > limit ? "\(limit)+" : String(count)
        case .text(let text):
            return text.isEmpty ? nil : text
        }
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

    /// The values that appear more than once among the tabs. Selection by value needs
    /// each value once; the demo and tests use this to catch mistakes early.
    public static func duplicateValues<Value: Hashable>(_ values: [Value]) -> [Value] {
        var seen: Set<Value> = []
        var reported: Set<Value> = []
        var duplicates: [Value] = []
        for value in values where !seen.insert(value).inserted && reported.insert(value).inserted {
            duplicates.append(value)
        }
        return duplicates
    }
}

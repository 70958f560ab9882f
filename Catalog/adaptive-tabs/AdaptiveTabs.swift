#if os(iOS)
import SwiftUI

/// A system `TabView` that adapts between an iPhone tab bar and an iPad sidebar, with
/// badges, a section of secondary tabs, a Browse tab for compact width, and tab
/// customization that persists.
///
/// ```swift
/// enum Destination: Hashable { case home, inbox, browse, favorites, drafts, archive }
///
/// @State private var destination = Destination.home
///
/// AdaptiveTabs(
///     selection: $destination,
///     tabs: [
///         AdaptiveTab(id: "home", title: "Home", systemImage: "house", value: .home, customization: .pinned),
///         AdaptiveTab(id: "inbox", title: "Inbox", systemImage: "tray", value: .inbox, badge: .count(unread)),
///     ],
///     sections: [
///         AdaptiveTabGroup(id: "mailboxes", title: "Mailboxes", tabs: [
///             AdaptiveTab(id: "favorites", title: "Favorites", systemImage: "star", value: .favorites),
///             AdaptiveTab(id: "drafts", title: "Drafts", systemImage: "doc", value: .drafts, badge: .text("New")),
///             AdaptiveTab(id: "archive", title: "Archive", systemImage: "archivebox", value: .archive),
///         ]),
///     ],
///     browse: AdaptiveTab(id: "browse", title: "Browse", systemImage: "square.grid.2x2", value: .browse)
/// ) { destination in
///     DestinationView(destination)     // without a NavigationStack: each tab gets one
/// }
/// ```
///
/// - **Tabs and sections.** `tabs` are always in the tab bar. Each group in `sections`
///   is a `TabSection` in the sidebar (iPad, regular width).
/// - **Browse.** In compact width the section tabs are hidden and the Browse tab lists
///   them instead; picking one pushes its page onto Browse's navigation stack. When the
///   size class changes the block keeps you in the same place: a selected section tab
///   becomes Browse with that page pushed, and back.
/// - **Selection.** Set the binding to any tab's value to switch tabs in code. A value
///   that the current width does not show is mapped to the one that does. Every tab
///   needs its own value and its own id; debug builds stop with the repeated ones named.
/// - **Titles and badges.** Titles and text badges are `LocalizedStringKey`s, so string
///   literals are extracted into your strings catalog. `.count(3)` badges are numbers
///   formatted for the user's locale; counts over 99 read "99+".
/// - **Customization.** On iPad people can reorder and hide tabs. Their choices are saved
///   in `UserDefaults` under `customizationKey` with `@AppStorage`. Each tab's stable `id`
///   keys its customization, so never reuse or rename one.
/// - **Accessibility.** The tab bar and sidebar are the system's, so VoiceOver, Dynamic
///   Type, Reduce Motion, right-to-left layout and the large content viewer behave as in
///   Apple's apps; badges are read with their tab.
@available(iOS 18.0, *)
public struct AdaptiveTabs<Value: Hashable, Content: View>: View {
    private let tabs: [AdaptiveTab<Value>]
    private let sections: [AdaptiveTabGroup<Value>]
    private let browse: AdaptiveTab<Value>
    @Binding private var selection: Value
    private let customizationKey: String
    private let content: (Value) -> Content

    @AppStorage private var customization: TabViewCustomization
    @State private var browsePath: [Value] = []
    @Environment(\.horizontalSizeClass) private var horizontalSizeClass

    /// Creates an adaptive tab view.
    ///
    /// - Parameters:
    ///   - selection: The value of the selected tab.
    ///   - tabs: The main tabs, always shown.
    ///   - sections: Groups of secondary tabs: sidebar sections in regular width, reached
    ///     through Browse in compact width. Defaults to none.
    ///   - browse: The tab that lists the sections in compact width.
    ///   - customizationKey: The `UserDefaults` key for the user's customization, also
    ///     used to namespace customization ids. Defaults to "AdaptiveTabs.customization".
    ///   - content: The page for a tab's value. Each tab wraps it in a `NavigationStack`.
    public init(
        selection: Binding<Value>,
        tabs: [AdaptiveTab<Value>],
        sections: [AdaptiveTabGroup<Value>] = [],
        browse: AdaptiveTab<Value>,
        customizationKey: String = "AdaptiveTabs.customization",
        @ViewBuilder content: @escaping (Value) -> Content
    ) {
        self._selection = selection
        self.tabs = tabs
        self.sections = sections
        self.browse = browse
        self.customizationKey = customizationKey
        self.content = content
        self._customization = AppStorage(wrappedValue: TabViewCustomization(), customizationKey)
        let everyTab = tabs + [browse] + sections.flatMap(\.tabs)
        assert(
            AdaptiveTabsLogic.duplicates(everyTab.map(\.value)).isEmpty,
            "AdaptiveTabs: each tab needs its own value; repeated: \(AdaptiveTabsLogic.duplicates(everyTab.map(\.value)))")
        assert(
            AdaptiveTabsLogic.duplicates(everyTab.map(\.id) + sections.map(\.id)).isEmpty,
            "AdaptiveTabs: each tab and section needs its own id; repeated: \(AdaptiveTabsLogic.duplicates(everyTab.map(\.id) + sections.map(\.id)))")
    }

    public var body: some View {
        TabView(selection: $selection) {
            ForEach(tabs) { tab in
                Tab(tab.title, systemImage: tab.systemImage, value: tab.value) {
                    NavigationStack {
                        content(tab.value)
                    }
                }
                .badge(badge(for: tab))
                .customizationID(customizationID(for: tab.id))
                .customizationBehavior(behavior(for: tab, isBrowse: false), for: .sidebar, .tabBar)
            }

            Tab(browse.title, systemImage: browse.systemImage, value: browse.value) {
                browseStack
            }
            .badge(badge(for: browse))
            .hidden(!isCompact)
            .customizationID(customizationID(for: browse.id))
            .customizationBehavior(behavior(for: browse, isBrowse: true), for: .sidebar, .tabBar)

            ForEach(sections) { group in
                TabSection(group.title) {
                    ForEach(group.tabs) { tab in
                        Tab(tab.title, systemImage: tab.systemImage, value: tab.value) {
                            NavigationStack {
                                content(tab.value)
                            }
                        }
                        .badge(badge(for: tab))
                        .hidden(isCompact)
                        .customizationID(customizationID(for: tab.id))
                        .customizationBehavior(behavior(for: tab, isBrowse: false), for: .sidebar, .tabBar)
                    }
                }
                .customizationID(customizationID(for: group.id))
                .defaultVisibility(.hidden, for: .tabBar)
            }
        }
        .tabViewStyle(.sidebarAdaptable)
        .tabViewCustomization($customization)
        .onChange(of: horizontalSizeClass, initial: true) {
            keepNavigationConsistent()
        }
        .onChange(of: selection) {
            keepNavigationConsistent()
        }
    }

    /// Browse: the section tabs as a list, each pushing its page.
    private var browseStack: some View {
        NavigationStack(path: $browsePath) {
            List {
                ForEach(sections) { group in
                    Section(group.title) {
                        ForEach(group.tabs) { tab in
                            NavigationLink(value: tab.value) {
                                Label(tab.title, systemImage: tab.systemImage)
                            }
                            .badge(badge(for: tab))
                        }
                    }
                }
            }
            .navigationTitle(browse.title)
            .navigationDestination(for: Value.self) { value in
                content(value)
            }
        }
    }

    private var isCompact: Bool {
        horizontalSizeClass == .compact
    }

    /// Maps the selection and Browse's path to what the current width shows.
    private func keepNavigationConsistent() {
        let current = AdaptiveTabsLogic.Navigation(selection: selection, browsePath: browsePath)
        let next = AdaptiveTabsLogic.navigation(
            current,
            isCompact: isCompact,
            browse: browse.value,
            primaryValues: tabs.map(\.value),
            sectionValues: sections.flatMap { $0.tabs.map(\.value) },
            fallback: tabs.first?.value ?? browse.value
        )
        guard next != current else { return }
        browsePath = next.browsePath
        selection = next.selection
    }

    private func badge(for tab: AdaptiveTab<Value>) -> Text? {
        switch tab.badge {
        case nil:
            return nil
        case .text(let text)?:
            return Text(text)
        case .count(let count)?:
            switch AdaptiveTabsLogic.countBadge(count) {
            case nil:
                return nil
            case .number(let number)?:
                return Text(number, format: .number)
            case .overLimit(let limit)?:
                return Text("\(limit, format: .number)+", comment: "A tab badge for more items than it counts, as in 99+")
            }
        }
    }

    private func customizationID(for id: String) -> String {
        AdaptiveTabsLogic.customizationID(namespace: customizationKey, id: id)
    }

    private func behavior(for tab: AdaptiveTab<Value>, isBrowse: Bool) -> TabCustomizationBehavior {
        if AdaptiveTabsLogic.canHide(tab.customization, isBrowse: isBrowse) { return .automatic }
        if AdaptiveTabsLogic.canReorder(tab.customization, isBrowse: isBrowse) { return .reorderable }
        return .disabled
    }
}

/// A badge on a tab: a count, or a short text such as "New" or "!".
///
/// Not `Sendable`: SwiftUI's `LocalizedStringKey` is not, so a badge is built and read on
/// the main actor, with the view that shows it.
@available(iOS 18.0, *)
public enum AdaptiveTabBadge: Equatable {
    /// A number, formatted for the user's locale. Zero or less shows no badge, like the
    /// system's `badge(_:)`.
    case count(Int)
    /// A short text, looked up in your strings catalog.
    case text(LocalizedStringKey)
}

/// One tab of an ``AdaptiveTabs`` view.
@available(iOS 18.0, *)
public struct AdaptiveTab<Value: Hashable>: Identifiable {
    /// A stable identifier. It keys the user's customization, so never reuse or rename it.
    public var id: String
    /// The title, looked up in your strings catalog.
    public var title: LocalizedStringKey
    /// An SF Symbol name.
    public var systemImage: String
    /// The selection value that shows this tab.
    public var value: Value
    /// The badge, if any.
    public var badge: AdaptiveTabBadge?
    /// What the user may do with the tab when customizing.
    public var customization: AdaptiveTabCustomization

    public init(
        id: String, title: LocalizedStringKey, systemImage: String, value: Value,
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
    public var title: LocalizedStringKey
    /// The tabs in the section, in their default order.
    public var tabs: [AdaptiveTab<Value>]

    public init(id: String, title: LocalizedStringKey, tabs: [AdaptiveTab<Value>]) {
        self.id = id
        self.title = title
        self.tabs = tabs
    }
}
#endif

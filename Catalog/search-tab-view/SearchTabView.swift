#if os(iOS)
import SwiftUI

/// The newest system tab bar, assembled: your tabs and a search tab (`Tab(role: .search)`),
/// a tab bar that minimizes as the user scrolls (`tabBarMinimizeBehavior`), and a bottom
/// accessory, such as a mini player, that adapts when the bar minimizes
/// (`tabViewBottomAccessory`). iOS 26 introduced the last two, hence the minimum.
///
/// ```swift
/// enum Section: Hashable { case listenNow, library, radio, search }
///
/// @State private var section = Section.listenNow
/// @State private var query = ""
///
/// SearchTabView(
///     selection: $section,
///     searchText: $query,
///     tabs: [
///         SearchTab(value: .listenNow, title: "Listen Now", systemImage: "play.circle"),
///         SearchTab(value: .library, title: "Library", systemImage: "square.stack", badge: .count(newSongs)),
///         SearchTab(value: .radio, title: "Radio", systemImage: "dot.radiowaves.left.and.right"),
///     ],
///     search: .search
/// ) { section in
///     SectionView(section)
/// } searchContent: { query in
///     SearchResults(query)
/// } accessory: { style in
///     MiniPlayer(style: style)          // .full above the bar, .compact inline with it
/// }
/// ```
///
/// - **Search.** The search tab sits apart at the trailing end of the tab bar. Selecting it
///   opens the search field (`activatesSearchOnSelection`); dismissing search returns to
///   the tab you came from. The text lives in your `searchText` binding and is kept when
///   you leave search, unless `clearsSearchOnLeave`.
/// - **Minimizing.** With `.onScrollDown` (the default) the bar shrinks as content scrolls
///   down and comes back on the way up; the system minimizes tab bars on iPhone only.
/// - **Accessory.** Your accessory gets `.full` above the full-size bar and `.compact`
///   inline with the minimized one; iPad in regular width, where the system gives no
///   placement, gets `.full`.
/// - **Selection and size classes.** Selection is by value; an unknown value selects the
///   first tab and a removed tab passes the selection to the one that takes its place.
///   Selection and search text live in your bindings, outside the tab view, and nothing in
///   the tab view depends on the width, so both survive size-class changes (iPad
///   multitasking, rotation) with nothing rebuilt.
/// - **Accessibility.** The tab bar, search field and accessory container are the
///   system's, so VoiceOver reads each tab with its title, badge, selection and position,
///   and the search tab as "Search". When the accessory changes style, its content
///   cross-fades, or swaps at once with Reduce Motion on.
@available(iOS 26.0, *)
public struct SearchTabView<Value: Hashable, Content: View, SearchContent: View, Accessory: View>: View {
    @Binding private var selection: Value
    @Binding private var searchText: String
    private let tabs: [SearchTab<Value>]
    private let search: Value
    private let searchPrompt: LocalizedStringKey
    private let minimizeBehavior: TabBarMinimizeBehavior
    private let activatesSearchOnSelection: Bool
    private let clearsSearchOnLeave: Bool
    private let content: (Value) -> Content
    private let searchContent: (String) -> SearchContent
    private let accessory: (SearchTabAccessoryStyle) -> Accessory

    /// Creates a tab view with a search tab and a bottom accessory.
    ///
    /// - Parameters:
    ///   - selection: The value of the selected tab, the search tab's included.
    ///   - searchText: The text in the search field.
    ///   - tabs: The tabs before the search tab; values must be unique.
    ///   - search: The selection value of the search tab.
    ///   - searchPrompt: The search field's placeholder. Defaults to "Search".
    ///   - minimizeBehavior: When the tab bar minimizes. Defaults to `.onScrollDown`.
    ///   - activatesSearchOnSelection: Whether selecting the search tab opens the search
    ///     field, and dismissing it returns to the previous tab. Defaults to `true`.
    ///   - clearsSearchOnLeave: Whether leaving the search tab clears the text. Defaults
    ///     to `false`.
    ///   - content: The page for a tab's value; each tab wraps it in a `NavigationStack`.
    ///   - searchContent: The search tab's page for the current text, in a `NavigationStack`.
    ///   - accessory: The bottom accessory in its current style.
    public init(
        selection: Binding<Value>,
        searchText: Binding<String>,
        tabs: [SearchTab<Value>],
        search: Value,
        searchPrompt: LocalizedStringKey = "Search",
        minimizeBehavior: TabBarMinimizeBehavior = .onScrollDown,
        activatesSearchOnSelection: Bool = true,
        clearsSearchOnLeave: Bool = false,
        @ViewBuilder content: @escaping (Value) -> Content,
        @ViewBuilder searchContent: @escaping (String) -> SearchContent,
        @ViewBuilder accessory: @escaping (SearchTabAccessoryStyle) -> Accessory
    ) {
        self._selection = selection
        self._searchText = searchText
        self.tabs = tabs
        self.search = search
        self.searchPrompt = searchPrompt
        self.minimizeBehavior = minimizeBehavior
        self.activatesSearchOnSelection = activatesSearchOnSelection
        self.clearsSearchOnLeave = clearsSearchOnLeave
        self.content = content
        self.searchContent = searchContent
        self.accessory = accessory
        assert(
            SearchTabViewLogic.duplicates(tabs.map(\.value) + [search]).isEmpty,
            "SearchTabView: each tab, and the search tab, needs its own value; repeated: \(SearchTabViewLogic.duplicates(tabs.map(\.value) + [search]))")
    }

    public var body: some View {
        let values = tabs.map(\.value)
        TabView(selection: $selection) {
            ForEach(tabs) { tab in
                Tab(tab.title, systemImage: tab.systemImage, value: tab.value) {
                    NavigationStack {
                        content(tab.value)
                    }
                }
                .badge(badge(for: tab))
            }
            Tab(value: search, role: .search) {
                NavigationStack {
                    searchContent(searchText)
                }
            }
        }
        .searchable(text: $searchText, prompt: searchPrompt)
        .tabViewSearchActivation(activatesSearchOnSelection ? .searchTabSelection : .automatic)
        .tabBarMinimizeBehavior(minimizeBehavior)
        .tabViewBottomAccessory {
            AccessoryHost(accessory: accessory)
        }
        .onChange(of: values, initial: true) { previousValues, newValues in
            let resolved = SearchTabViewLogic.resolvedSelection(
                selection, previousValues: previousValues, values: newValues, search: search)
            if resolved != selection {
                selection = resolved
            }
        }
        .onChange(of: selection) { previousSelection, newSelection in
            let text = SearchTabViewLogic.searchText(
                searchText, movingFrom: previousSelection, to: newSelection, search: search,
                clearsSearchOnLeave: clearsSearchOnLeave)
            if text != searchText {
                searchText = text
            }
        }
    }

    private func badge(for tab: SearchTab<Value>) -> Text? {
        switch tab.badge {
        case nil:
            return nil
        case .text(let text)?:
            return Text(text)
        case .count(let count)?:
            switch SearchTabViewLogic.countBadge(count) {
            case nil:
                return nil
            case .number(let number)?:
                return Text(number, format: .number)
            case .overLimit(let limit)?:
                return Text("\(limit, format: .number)+", comment: "A tab badge for more items than it counts, as in 99+")
            }
        }
    }
}

/// The accessory in the style its placement calls for. The placement is only in the
/// environment inside the accessory, so it is read here.
@available(iOS 26.0, *)
private struct AccessoryHost<Accessory: View>: View {
    let accessory: (SearchTabAccessoryStyle) -> Accessory

    @Environment(\.tabViewBottomAccessoryPlacement) private var placement
    @Environment(\.accessibilityReduceMotion) private var reduceMotion

    var body: some View {
        let style = SearchTabViewLogic.accessoryStyle(for: placement.map(SearchTabViewLogic.AccessoryPlacement.init))
        accessory(style)
            .animation(reduceMotion ? nil : .smooth(duration: 0.25), value: style)
    }
}

@available(iOS 26.0, *)
extension SearchTabViewLogic.AccessoryPlacement {
    /// The logic's placement for SwiftUI's.
    fileprivate init(_ placement: TabViewBottomAccessoryPlacement) {
        self = placement == .inline ? .inline : .expanded
    }
}

/// A badge on a tab: a count, or a short text such as "New".
///
/// Not `Sendable`: SwiftUI's `LocalizedStringKey` is not, so a badge is built and read on
/// the main actor, with the view that shows it.
@available(iOS 26.0, *)
public enum SearchTabBadge: Equatable {
    /// A number, formatted for the user's locale; zero or less shows no badge, over 99 "99+".
    case count(Int)
    /// A short text, looked up in your strings catalog.
    case text(LocalizedStringKey)
}

/// One tab of a ``SearchTabView``, before the search tab.
@available(iOS 26.0, *)
public struct SearchTab<Value: Hashable>: Identifiable {
    /// The selection value that shows this tab; also its identity.
    public var value: Value
    /// The title, looked up in your strings catalog.
    public var title: LocalizedStringKey
    /// An SF Symbol name.
    public var systemImage: String
    /// The badge, if any.
    public var badge: SearchTabBadge?

    public var id: Value { value }

    public init(value: Value, title: LocalizedStringKey, systemImage: String, badge: SearchTabBadge? = nil) {
        self.value = value
        self.title = title
        self.systemImage = systemImage
        self.badge = badge
    }
}
#endif

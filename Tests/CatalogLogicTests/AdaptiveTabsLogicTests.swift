import Testing
@testable import CatalogLogic

@Suite("adaptive-tabs logic")
struct AdaptiveTabsLogicTests {
    enum Place: Hashable { case home, inbox, browse, favorites, recent, shared, nowhere }
    typealias Navigation = AdaptiveTabsLogic.Navigation<Place>

    func resolve(_ navigation: Navigation, compact: Bool, sections: [Place] = [.favorites, .recent, .shared]) -> Navigation {
        AdaptiveTabsLogic.navigation(
            navigation, isCompact: compact, browse: .browse,
            primaryValues: [.home, .inbox], sectionValues: sections, fallback: .home)
    }

    @Test func compactTurnsASectionTabIntoBrowseWithThatTabPushed() {
        #expect(resolve(Navigation(selection: .recent), compact: true) == Navigation(selection: .browse, browsePath: [.recent]))
    }

    @Test func regularTurnsBrowseIntoTheTabAtTheRootOfItsPath() {
        #expect(resolve(Navigation(selection: .browse, browsePath: [.shared]), compact: false) == Navigation(selection: .shared))
    }

    @Test func regularWithAnEmptyBrowsePathSelectsTheFirstSectionTab() {
        #expect(resolve(Navigation(selection: .browse), compact: false) == Navigation(selection: .favorites))
    }

    @Test func regularWithNoSectionsFallsBack() {
        #expect(resolve(Navigation(selection: .browse), compact: false, sections: []) == Navigation(selection: .home))
    }

    @Test func roundTripKeepsThePlace() {
        let compact = resolve(Navigation(selection: .favorites), compact: true)
        #expect(resolve(compact, compact: false) == Navigation(selection: .favorites))
    }

    @Test func primaryTabsAreUntouchedInBothWidths() {
        let inbox = Navigation(selection: .inbox, browsePath: [.recent])
        #expect(resolve(inbox, compact: true) == inbox)
        #expect(resolve(inbox, compact: false) == inbox)
    }

    @Test func browseStaysInCompact() {
        let browsing = Navigation(selection: .browse, browsePath: [.shared])
        #expect(resolve(browsing, compact: true) == browsing)
    }

    @Test func unknownSelectionFallsBack() {
        #expect(resolve(Navigation(selection: .nowhere), compact: true).selection == .home)
        #expect(resolve(Navigation(selection: .nowhere), compact: false).selection == .home)
    }

    @Test func browsePathWhoseRootIsNotASectionSelectsFirstSection() {
        #expect(resolve(Navigation(selection: .browse, browsePath: [.nowhere]), compact: false) == Navigation(selection: .favorites))
    }

    @Test func badgeText() {
        #expect(AdaptiveTabsLogic.badgeText(nil) == nil)
        #expect(AdaptiveTabsLogic.badgeText(.count(0)) == nil)
        #expect(AdaptiveTabsLogic.badgeText(.count(-2)) == nil)
        #expect(AdaptiveTabsLogic.badgeText(.count(3)) == "3")
        #expect(AdaptiveTabsLogic.badgeText(.count(99)) == "99")
        #expect(AdaptiveTabsLogic.badgeText(.count(100)) == "99+")
        #expect(AdaptiveTabsLogic.badgeText(.count(12), limit: 9) == "9+")
        #expect(AdaptiveTabsLogic.badgeText(.text("New")) == "New")
        #expect(AdaptiveTabsLogic.badgeText(.text("")) == nil)
    }

    @Test func customizationIDs() {
        #expect(AdaptiveTabsLogic.customizationID(namespace: "com.example.tabs", id: "inbox") == "com.example.tabs.inbox")
        #expect(AdaptiveTabsLogic.customizationID(namespace: "", id: "inbox") == "inbox")
    }

    @Test func customizationRules() {
        #expect(AdaptiveTabsLogic.canHide(.full, isBrowse: false))
        #expect(!AdaptiveTabsLogic.canHide(.reorderOnly, isBrowse: false))
        #expect(!AdaptiveTabsLogic.canHide(.pinned, isBrowse: false))
        #expect(!AdaptiveTabsLogic.canHide(.full, isBrowse: true))
        #expect(AdaptiveTabsLogic.canReorder(.full, isBrowse: false))
        #expect(AdaptiveTabsLogic.canReorder(.reorderOnly, isBrowse: false))
        #expect(!AdaptiveTabsLogic.canReorder(.pinned, isBrowse: false))
        #expect(!AdaptiveTabsLogic.canReorder(.full, isBrowse: true))
    }

    @Test func duplicateValuesAreReportedOnce() {
        #expect(AdaptiveTabsLogic.duplicateValues([Place.home, .inbox, .home, .home, .recent, .inbox]) == [.home, .inbox])
        #expect(AdaptiveTabsLogic.duplicateValues([Place]()) == [])
    }

    @Test func tabDefaults() {
        let tab = AdaptiveTab(id: "home", title: "Home", systemImage: "house", value: Place.home)
        #expect(tab.badge == nil)
        #expect(tab.customization == .full)
        let group = AdaptiveTabGroup(id: "library", title: "Library", tabs: [tab])
        #expect(group.tabs.map(\.id) == ["home"])
    }
}

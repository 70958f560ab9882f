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

    @Test func countBadges() {
        #expect(AdaptiveTabsLogic.countBadge(0) == nil)
        #expect(AdaptiveTabsLogic.countBadge(-2) == nil)
        #expect(AdaptiveTabsLogic.countBadge(1) == .number(1))
        #expect(AdaptiveTabsLogic.countBadge(3) == .number(3))
        #expect(AdaptiveTabsLogic.countBadge(99) == .number(99))
        #expect(AdaptiveTabsLogic.countBadge(100) == .overLimit(99))
        #expect(AdaptiveTabsLogic.countBadge(12, limit: 9) == .overLimit(9))
        #expect(AdaptiveTabsLogic.countBadge(9, limit: 9) == .number(9))
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

    @Test func duplicatesAreReportedOnce() {
        #expect(AdaptiveTabsLogic.duplicates([Place.home, .inbox, .home, .home, .recent, .inbox]) == [.home, .inbox])
        #expect(AdaptiveTabsLogic.duplicates([Place]()) == [])
        #expect(AdaptiveTabsLogic.duplicates(["home", "inbox", "browse"]) == [])
    }

    // MARK: A Browse path left from earlier

    @Test func compactReplacesAStaleBrowsePathWithTheSectionTab() {
        // Browse still shows Shared from before; selecting Recent in code must not stack it on top.
        let stale = Navigation(selection: .recent, browsePath: [.shared])
        #expect(resolve(stale, compact: true) == Navigation(selection: .browse, browsePath: [.recent]))
    }

    @Test func regularDropsTheWholeBrowsePath() {
        let deep = Navigation(selection: .browse, browsePath: [.shared, .recent])
        #expect(resolve(deep, compact: false) == Navigation(selection: .shared, browsePath: []))
    }

    @Test func regularKeepsAPathBehindASectionTab() {
        let stale = Navigation(selection: .recent, browsePath: [.shared])
        #expect(resolve(stale, compact: false) == stale)
    }

    @Test func anUnknownSelectionFallsBackAndLeavesThePathAlone() {
        let stale = Navigation(selection: .nowhere, browsePath: [.shared])
        #expect(resolve(stale, compact: true) == Navigation(selection: .home, browsePath: [.shared]))
        #expect(resolve(stale, compact: false) == Navigation(selection: .home, browsePath: [.shared]))
    }
}

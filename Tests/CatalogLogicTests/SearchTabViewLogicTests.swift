import Testing

@testable import CatalogLogic

@Suite("search-tab-view logic")
struct SearchTabViewLogicTests {
    typealias Logic = SearchTabViewLogic
    let tabs = ["listen", "library", "radio"]

    // MARK: Selection

    @Test func withNoTabsSearchIsTheOnlyChoice() {
        #expect(Logic.resolvedSelection("library", previousValues: tabs, values: [], search: "search") == "search")
        #expect(Logic.resolvedSelection("search", previousValues: [], values: [], search: "search") == "search")
    }

    @Test func oneTab() {
        #expect(Logic.resolvedSelection("listen", previousValues: ["listen"], values: ["listen"], search: "search") == "listen")
        #expect(Logic.resolvedSelection("gone", previousValues: ["gone"], values: ["listen"], search: "search") == "listen")
    }

    @Test func searchAlwaysStaysSelected() {
        #expect(Logic.resolvedSelection("search", previousValues: tabs, values: ["radio"], search: "search") == "search")
    }

    @Test func anUnknownSelectionSelectsTheFirstTab() {
        #expect(Logic.resolvedSelection("settings", previousValues: tabs, values: tabs, search: "search") == "listen")
        #expect(Logic.resolvedSelection("settings", previousValues: [], values: tabs, search: "search") == "listen")
    }

    @Test func removingTheSelectedTabSelectsTheOneThatTakesItsPlace() {
        #expect(Logic.resolvedSelection("library", previousValues: tabs, values: ["listen", "radio"], search: "search") == "radio")
        #expect(Logic.resolvedSelection("radio", previousValues: tabs, values: ["listen", "library"], search: "search") == "library")
        // Every neighbour went as well: the first tab.
        #expect(Logic.resolvedSelection("library", previousValues: ["library"], values: ["new"], search: "search") == "new")
    }

    @Test func aReorderKeepsTheSelection() {
        #expect(Logic.resolvedSelection("library", previousValues: tabs, values: ["radio", "library", "listen"], search: "search") == "library")
    }

    // MARK: Search text

    @Test func theSearchTextIsKeptWhenLeavingSearch() {
        #expect(Logic.searchText("jazz", movingFrom: "search", to: "library", search: "search", clearsSearchOnLeave: false) == "jazz")
    }

    @Test func theSearchTextIsClearedOnLeaveOnlyWhenAskedAndOnlyWhenLeavingSearch() {
        #expect(Logic.searchText("jazz", movingFrom: "search", to: "library", search: "search", clearsSearchOnLeave: true) == "")
        #expect(Logic.searchText("jazz", movingFrom: "library", to: "radio", search: "search", clearsSearchOnLeave: true) == "jazz")
        #expect(Logic.searchText("jazz", movingFrom: "library", to: "search", search: "search", clearsSearchOnLeave: true) == "jazz")
        #expect(Logic.searchText("jazz", movingFrom: "search", to: "search", search: "search", clearsSearchOnLeave: true) == "jazz")
    }

    // MARK: The accessory

    @Test func theAccessoryIsCompactOnlyInlineWithAMinimizedBar() {
        #expect(Logic.accessoryStyle(for: .inline) == .compact)
        #expect(Logic.accessoryStyle(for: .expanded) == .full)
        // No placement (iPad in regular width): nothing is hidden.
        #expect(Logic.accessoryStyle(for: nil) == .full)
    }

    // MARK: Badges and values

    @Test func countBadges() {
        #expect(Logic.countBadge(0) == nil)
        #expect(Logic.countBadge(-1) == nil)
        #expect(Logic.countBadge(7) == .number(7))
        #expect(Logic.countBadge(99) == .number(99))
        #expect(Logic.countBadge(100) == .overLimit(99))
        #expect(Logic.countBadge(5, limit: 4) == .overLimit(4))
    }

    @Test func theSearchValueMustNotRepeatATabsValue() {
        #expect(Logic.duplicates(tabs + ["search"]).isEmpty)
        #expect(Logic.duplicates(tabs + ["radio"]) == ["radio"])
    }
}

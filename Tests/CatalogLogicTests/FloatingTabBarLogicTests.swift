import Testing

@testable import CatalogLogic

@Suite("floating-tab-bar logic")
struct FloatingTabBarLogicTests {
    typealias Logic = FloatingTabBarLogic
    let tabs = ["home", "search", "inbox", "profile"]

    // MARK: Selection

    @Test func noTabsMeansNothingToSelect() {
        #expect(Logic.resolvedSelection("home", previousValues: tabs, values: [String]()) == nil)
        #expect(Logic.resolvedSelection("home", previousValues: [], values: [String]()) == nil)
    }

    @Test func oneTab() {
        #expect(Logic.resolvedSelection("home", previousValues: ["home"], values: ["home"]) == "home")
        #expect(Logic.resolvedSelection("gone", previousValues: ["gone"], values: ["home"]) == "home")
    }

    @Test func anUnknownSelectionSelectsTheFirstTab() {
        #expect(Logic.resolvedSelection("settings", previousValues: tabs, values: tabs) == "home")
        #expect(Logic.resolvedSelection("settings", previousValues: [], values: tabs) == "home")
    }

    @Test func removingTheSelectedTabSelectsTheOneThatTakesItsPlace() {
        #expect(Logic.resolvedSelection("search", previousValues: tabs, values: ["home", "inbox", "profile"]) == "inbox")
        // The last tab has nothing after it: the one before it takes over.
        #expect(Logic.resolvedSelection("profile", previousValues: tabs, values: ["home", "search", "inbox"]) == "inbox")
        // Its neighbours went too: the nearest survivor after it.
        #expect(Logic.resolvedSelection("search", previousValues: tabs, values: ["home", "profile"]) == "profile")
    }

    @Test func aReorderKeepsTheSelection() {
        #expect(Logic.resolvedSelection("inbox", previousValues: tabs, values: ["profile", "inbox", "home", "search"]) == "inbox")
    }

    // MARK: Built content

    @Test func contentIsBuiltOnFirstVisitAndKeptInTabOrder() {
        #expect(Logic.builtTabs(visited: [], selection: "home", values: tabs) == ["home"])
        #expect(Logic.builtTabs(visited: ["home"], selection: "profile", values: tabs) == ["home", "profile"])
        #expect(Logic.builtTabs(visited: ["profile", "home"], selection: "search", values: tabs) == ["home", "search", "profile"])
    }

    @Test func aRemovedTabsContentIsDropped() {
        #expect(Logic.builtTabs(visited: ["home", "inbox"], selection: "home", values: ["home", "search"]) == ["home"])
        #expect(Logic.builtTabs(visited: ["home"], selection: "home", values: [String]()) == [])
        // A selection that is not a tab builds nothing until it is repaired.
        #expect(Logic.builtTabs(visited: [], selection: "settings", values: tabs) == [])
    }

    // MARK: The centre action

    @Test func withoutACentreActionEveryTabIsLeading() {
        let sides = Logic.sides(count: 4, hasCenterAction: false)
        #expect(sides.leading == 0..<4)
        #expect(sides.trailing.isEmpty)
    }

    @Test func theCentreActionSplitsTheTabsInHalf() {
        #expect(Logic.sides(count: 4, hasCenterAction: true).leading == 0..<2)
        #expect(Logic.sides(count: 4, hasCenterAction: true).trailing == 2..<4)
        // An odd count puts the extra tab before the action.
        #expect(Logic.sides(count: 3, hasCenterAction: true).leading == 0..<2)
        #expect(Logic.sides(count: 3, hasCenterAction: true).trailing == 2..<3)
    }

    @Test func theCentreActionWithOneOrNoTabs() {
        #expect(Logic.sides(count: 1, hasCenterAction: true).leading == 0..<1)
        #expect(Logic.sides(count: 1, hasCenterAction: true).trailing.isEmpty)
        #expect(Logic.sides(count: 0, hasCenterAction: true).leading.isEmpty)
        #expect(Logic.sides(count: -2, hasCenterAction: true).trailing.isEmpty)
    }

    // MARK: Badges

    @Test func countBadges() {
        #expect(Logic.countBadge(0) == nil)
        #expect(Logic.countBadge(-4) == nil)
        #expect(Logic.countBadge(1) == .number(1))
        #expect(Logic.countBadge(99) == .number(99))
        #expect(Logic.countBadge(100) == .overLimit(99))
        #expect(Logic.countBadge(12_345) == .overLimit(99))
        #expect(Logic.countBadge(10, limit: 9) == .overLimit(9))
    }

    // MARK: The keyboard

    @Test func theKeyboardIsUpWhenItReachesIntoTheSafeArea() {
        #expect(Logic.isKeyboardShown(keyboardInset: 0) == false)
        #expect(Logic.isKeyboardShown(keyboardInset: 0.4) == false)
        #expect(Logic.isKeyboardShown(keyboardInset: 291) == true)
        #expect(Logic.isKeyboardShown(keyboardInset: 40, threshold: 60) == false)
        #expect(Logic.isKeyboardShown(keyboardInset: .infinity) == false)
        #expect(Logic.isKeyboardShown(keyboardInset: .nan) == false)
    }

    @Test func theBarHidesWithTheKeyboardOnlyWhenAskedTo() {
        #expect(Logic.showsBar(keyboardShown: false, hidesWithKeyboard: true))
        #expect(!Logic.showsBar(keyboardShown: true, hidesWithKeyboard: true))
        #expect(Logic.showsBar(keyboardShown: true, hidesWithKeyboard: false))
        #expect(Logic.showsBar(keyboardShown: false, hidesWithKeyboard: false))
    }

    @Test func repeatedValuesAreReportedOnce() {
        #expect(Logic.duplicates(["a", "b", "a", "c", "a", "b"]) == ["a", "b"])
        #expect(Logic.duplicates([String]()).isEmpty)
    }
}

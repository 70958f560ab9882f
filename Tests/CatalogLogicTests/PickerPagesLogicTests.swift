import Testing

@testable import CatalogLogic

@Suite("picker-pages logic")
struct PickerPagesLogicTests {
    let options = ["Day", "Week", "Month", "Year"]

    @Test func movingForwardEntersFromTrailingEdge() {
        #expect(PickerPagesLogic.insertionEdge(from: "Day", to: "Month", in: options) == .trailing)
        #expect(PickerPagesLogic.insertionEdge(from: "Month", to: "Year", in: options) == .trailing)
    }

    @Test func movingBackEntersFromLeadingEdge() {
        #expect(PickerPagesLogic.insertionEdge(from: "Year", to: "Day", in: options) == .leading)
        #expect(PickerPagesLogic.insertionEdge(from: "Week", to: "Day", in: options) == .leading)
    }

    @Test func sameOptionCountsAsForward() {
        #expect(PickerPagesLogic.insertionEdge(from: "Week", to: "Week", in: options) == .trailing)
    }

    @Test func unknownOptionCountsAsFirst() {
        #expect(PickerPagesLogic.index(of: "Decade", in: options) == 0)
        // From an unknown option (position 0) anything later moves forward.
        #expect(PickerPagesLogic.insertionEdge(from: "Decade", to: "Week", in: options) == .trailing)
        // To an unknown option (position 0) from later moves back.
        #expect(PickerPagesLogic.insertionEdge(from: "Year", to: "Decade", in: options) == .leading)
        // Unknown to first: both at 0, forward.
        #expect(PickerPagesLogic.insertionEdge(from: "Decade", to: "Day", in: options) == .trailing)
    }

    @Test func noOptionsAlwaysForward() {
        #expect(PickerPagesLogic.insertionEdge(from: "a", to: "b", in: [String]()) == .trailing)
        #expect(PickerPagesLogic.repairedSelection("a", in: [String]()) == nil)
    }

    @Test func singleOption() {
        #expect(PickerPagesLogic.insertionEdge(from: "Only", to: "Only", in: ["Only"]) == .trailing)
        #expect(PickerPagesLogic.repairedSelection("Gone", in: ["Only"]) == "Only")
    }

    @Test func oppositeEdges() {
        #expect(PickerPagesLogic.Edge.leading.opposite == .trailing)
        #expect(PickerPagesLogic.Edge.trailing.opposite == .leading)
    }

    @Test func repairKeepsListedSelectionAndReplacesUnknown() {
        #expect(PickerPagesLogic.repairedSelection("Month", in: options) == "Month")
        #expect(PickerPagesLogic.repairedSelection("Decade", in: options) == "Day")
        // After a reorder the selection is still listed, so it stays.
        #expect(PickerPagesLogic.repairedSelection("Month", in: options.reversed()) == "Month")
    }

    @Test func worksWithEnums() {
        enum Section: CaseIterable { case a, b, c }
        #expect(PickerPagesLogic.insertionEdge(from: Section.c, to: .a, in: Section.allCases) == .leading)
    }

    // MARK: Selection changes

    @Test func anInvalidStartingSelectionShowsTheOptionItBecomes() {
        #expect(PickerPagesLogic.firstPage("Decade", in: options) == "Day")
        #expect(PickerPagesLogic.firstPage("Month", in: options) == "Month")
        #expect(PickerPagesLogic.firstPage("Any", in: [String]()) == "Any")
    }

    @Test func aSelectionSetLaterToAnUnknownValueIsRepairedWithoutShowingIt() {
        #expect(PickerPagesLogic.selectionChange(to: "Decade", shown: "Month", in: options) == .repair("Day"))
    }

    @Test func aListedSelectionSlidesInFromItsSide() {
        #expect(PickerPagesLogic.selectionChange(to: "Year", shown: "Week", in: options) == .show("Year", from: .trailing))
        #expect(PickerPagesLogic.selectionChange(to: "Day", shown: "Week", in: options) == .show("Day", from: .leading))
    }

    @Test func theRepairOnFirstAppearanceMovesNothing() {
        // The first page already is the repaired option, so the repair write slides nothing in.
        let shown = PickerPagesLogic.firstPage("Decade", in: options)
        #expect(PickerPagesLogic.selectionChange(to: "Day", shown: shown, in: options) == .unchanged)
    }

    @Test func withNoOptionsTheNewPageIsShownAsItIs() {
        #expect(PickerPagesLogic.selectionChange(to: "b", shown: "a", in: [String]()) == .show("b", from: .trailing))
        #expect(PickerPagesLogic.selectionChange(to: "a", shown: "a", in: [String]()) == .unchanged)
    }
}

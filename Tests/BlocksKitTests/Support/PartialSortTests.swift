import Testing

@testable import BlocksKit

/// `min(count:sortedBy:)` gives what sorting everything and taking a prefix gives, for
/// inputs in every order, by picking or (when most are wanted) by sorting, and keeps
/// equivalent elements in their order as the stable sort does.
@Suite struct PartialSortTests {
    @Test func equivalentElementsKeepTheirOrder() {
        var generator = SystemRandomNumberGenerator()
        // Keys from 0 to 4 only, so most elements are equivalent; the second member tells them apart.
        let items = (0..<300).map { (key: Int.random(in: 0..<5, using: &generator), position: $0) }
        for count in [1, 7, 30, 299] {
            let expected = items.sorted { $0.key < $1.key }.prefix(count).map(\.position)
            #expect(items.min(count: count) { $0.key < $1.key }.map(\.position) == Array(expected), "\(count)")
        }
    }

    @Test func itGivesTheSortedPrefix() {
        var generator = SystemRandomNumberGenerator()
        for size in [0, 1, 2, 7, 50, 400] {
            let shuffled = Array(0..<size).shuffled(using: &generator)
            let inputs = [shuffled, Array(0..<size), Array((0..<size).reversed())]
            for input in inputs {
                for count in [0, 1, 3, 10, 49, 50, 51, 1000] {
                    let expected = Array(input.sorted(by: >).prefix(count))
                    #expect(input.min(count: count, sortedBy: >) == expected, "\(size) \(count)")
                }
            }
        }
    }
}

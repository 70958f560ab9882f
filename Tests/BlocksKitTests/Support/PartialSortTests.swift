import Testing

@testable import BlocksKit

/// `min(count:sortedBy:)` gives what sorting everything and taking a prefix gives, for
/// inputs in every order, by picking or (when most are wanted) by sorting.
@Suite struct PartialSortTests {
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

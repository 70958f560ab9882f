extension Collection {
    /// The first `count` elements in the order `areInIncreasingOrder` gives, as
    /// `sorted(by:).prefix(count)` would give them, without sorting the rest. A search
    /// that matches 100,000 blocks and shows 20 keeps 20 in order as it goes, instead of
    /// sorting all of them. Like that sort it is stable: equivalent elements keep their
    /// order, as each goes in after those already kept and a later one never displaces
    /// an equivalent earlier one.
    func min(count: Int, sortedBy areInIncreasingOrder: (Element, Element) -> Bool) -> [Element] {
        guard count > 0 else { return [] }
        // Picking pays while the kept elements are few against all of them.
        guard count * 8 < self.count else { return Array(sorted(by: areInIncreasingOrder).prefix(count)) }
        var kept: [Element] = []
        kept.reserveCapacity(count + 1)
        for element in self {
            if kept.count == count {
                guard let last = kept.last, areInIncreasingOrder(element, last) else { continue }
                kept.removeLast()
            }
            // Binary search for the first kept element that the new one comes before.
            var low = 0
            var high = kept.count
            while low < high {
                let middle = (low + high) / 2
                if areInIncreasingOrder(element, kept[middle]) { high = middle } else { low = middle + 1 }
            }
            kept.insert(element, at: low)
        }
        return kept
    }
}

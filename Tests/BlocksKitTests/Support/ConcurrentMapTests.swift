import Foundation
import Testing

@testable import BlocksKit

/// `ConcurrentMap.forEachInOrder`: results come in order, each item is made once, no more
/// than `ahead + 1` are held at a time, and a throwing caller stops the threads before the
/// error reaches it.
@Suite struct ConcurrentMapTests {
    /// Counts shared by the threads that make items and the one that takes them.
    final class Tally: @unchecked Sendable {
        private let lock = Lock()
        private var made: [Int] = []
        private var held = 0
        private(set) var mostHeld = 0

        func make(_ item: Int) -> Int {
            lock.withLock {
                made.append(item)
                held += 1
                mostHeld = max(mostHeld, held)
            }
            return item * 10
        }

        func taken() { lock.withLock { held -= 1 } }
        var madeItems: [Int] { lock.withLock { made } }
    }

    @Test(arguments: [1, 2, 5])
    func resultsComeInOrderEachMadeOnceAndAtMostAheadPlusOneHeld(ahead: Int) {
        let tally = Tally()
        var seen: [Int] = []
        ConcurrentMap.forEachInOrder(Array(0..<200), ahead: ahead) { item in
            // Items of uneven cost, so threads finish out of order.
            if item % 7 == 0 { usleep(200) }
            return tally.make(item)
        } _: { result in
            seen.append(result)
            tally.taken()
        }
        #expect(seen == (0..<200).map { $0 * 10 })
        #expect(tally.madeItems.sorted() == Array(0..<200))
        #expect(tally.mostHeld <= ahead + 1, "held \(tally.mostHeld) with ahead \(ahead)")
    }

    @Test func noItemsOrOneAreHandedOverToo() {
        var seen: [Int] = []
        ConcurrentMap.forEachInOrder([Int](), ahead: 2) { $0 } _: { seen.append($0) }
        ConcurrentMap.forEachInOrder([7], ahead: 2) { $0 + 1 } _: { seen.append($0) }
        #expect(seen == [8])
    }

    struct Stop: Error {}

    @Test func aThrowingCallerStopsTheThreadsBeforeTheErrorReachesIt() {
        let tally = Tally()
        var seen: [Int] = []
        #expect(throws: Stop.self) {
            try ConcurrentMap.forEachInOrder(Array(0..<500), ahead: 2) { item in
                usleep(100)
                return tally.make(item)
            } _: { result in
                seen.append(result)
                if seen.count == 3 { throw Stop() }
            }
        }
        let madeWhenThrown = tally.madeItems.count
        // At most the three taken, the two made ahead and one per thread begun.
        #expect(seen == [0, 10, 20] && madeWhenThrown <= 3 + 2 + ConcurrentMap.cores, "\(madeWhenThrown) made")
        usleep(20_000)
        #expect(tally.madeItems.count == madeWhenThrown)
    }
}

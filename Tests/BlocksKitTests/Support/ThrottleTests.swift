import Foundation
import Testing

@testable import BlocksKit

/// The one throttle behind the progress bar's redraws and the transfers' notices.
@Suite struct ThrottleTests {
    @Test func allowsOncePerIntervalUnlessForced() {
        var throttle = Throttle(interval: 2)
        let start = Date(timeIntervalSince1970: 1_000)
        var answers: [Bool] = []
        answers.append(throttle.allows(at: start))
        answers.append(throttle.allows(at: start.addingTimeInterval(1.9)))
        answers.append(throttle.allows(at: start.addingTimeInterval(1.9), force: true))
        // Forcing restarts the interval from then.
        answers.append(throttle.allows(at: start.addingTimeInterval(3.8)))
        answers.append(throttle.allows(at: start.addingTimeInterval(3.9)))
        #expect(answers == [true, false, true, false, true])
        var never = Throttle(interval: 0)
        let twice = [never.allows(at: start), never.allows(at: start)]
        #expect(twice == [true, true])
    }
}

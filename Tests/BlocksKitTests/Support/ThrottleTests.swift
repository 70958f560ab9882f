import Foundation
import Testing
@testable import BlocksKit

/// The one throttle behind the progress bar's redraws and the transfers' notices.
@Suite struct ThrottleTests {
    @Test func allowsOncePerIntervalUnlessForced() {
        var throttle = Throttle(interval: 2)
        let start = Date(timeIntervalSince1970: 1_000)
        #expect(throttle.allows(at: start))
        #expect(!throttle.allows(at: start.addingTimeInterval(1.9)))
        #expect(throttle.allows(at: start.addingTimeInterval(1.9), force: true))
        // Forcing restarts the interval from then.
        #expect(!throttle.allows(at: start.addingTimeInterval(3.8)))
        #expect(throttle.allows(at: start.addingTimeInterval(3.9)))
        var never = Throttle(interval: 0)
        #expect(never.allows(at: start) && never.allows(at: start))
    }
}

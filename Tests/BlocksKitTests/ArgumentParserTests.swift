import Testing
@testable import BlocksKit

import Foundation
import Testing

@testable import BlocksKit

/// The one checksum check (issue 33): every place that hashes, compares and refuses goes
/// through `SHA256.verify`, which throws the caller's own error.
@Suite struct SHA256VerifyTests {
    struct Refused: Error, Equatable {
        var actual: String
    }

    @Test func aMatchingDigestPassesInEitherCase() throws {
        let digest = SHA256.hex("block")
        try SHA256.verify(Data("block".utf8), expected: digest) { Refused(actual: $0) }
        try SHA256.verify(Data("block".utf8), expected: digest.uppercased()) { Refused(actual: $0) }
        try SHA256.verify(digest: digest, expected: digest.uppercased()) { Refused(actual: $0) }
    }

    @Test func aMismatchThrowsTheCallersErrorWithTheActualDigest() {
        #expect(throws: Refused(actual: SHA256.hex("other"))) {
            try SHA256.verify(Data("other".utf8), expected: SHA256.hex("block")) { Refused(actual: $0) }
        }
        #expect(throws: Refused(actual: "")) {
            try SHA256.verify(digest: "", expected: SHA256.hex("block")) { Refused(actual: $0) }
        }
    }
}

import Foundation
import Testing

@testable import BlocksKit

/// The one rule for a relative path from untrusted text (issue 33): a manifest's files,
/// the lock, staging lists and a registry's index and metadata all ask `RelativePath.isSafe`.
@Suite struct RelativePathTests {
    @Test(arguments: ["Tabs.swift", "Sources/Tabs.swift", "blocks/tabs-1.0.0.tar.gz", "a/b/c.d", "ñandú/é.swift", ".hidden", "a..b"])
    func plainRelativePathsAreSafe(path: String) {
        #expect(RelativePath.isSafe(path))
    }

    @Test(arguments: [
        "", "/etc/passwd", "../x", "a/../../x", "a/..", "./x", "a/./b", "a//b", "a/", "a\\b", "..\\x", "a\u{0}b", "C:x",
        "https:evil.example/x.zip",
    ])
    func pathsThatCouldLeaveTheFolderAreRefused(path: String) {
        #expect(!RelativePath.isSafe(path))
    }
}

import Foundation
import Testing

@testable import BlocksKit

/// A search that only its filters empty says so, and how many blocks the query finds
/// without them, instead of suggesting other words for a query that works (issue 16).
@Suite struct SearchFilterMessageTests {
    @Test func filtersThatExcludeEverythingAreNamed() {
        let result = runBlocks(["search", "tabs", "--platform", "ios16"])
        #expect(result.code == 0, "\(result.err)")
        #expect(result.out.contains("No block matches the filters --platform ios16; 9 blocks match 'tabs' without them."), "\(result.out)")
        #expect(!result.out.contains("Did you mean"))
    }

    @Test func oneMatchingBlockIsSingular() {
        let result = runBlocks(["search", "sidebar", "--level", "beginner"])
        #expect(result.out.contains("No block matches the filters --level beginner; 1 block matches 'sidebar' without them."), "\(result.out)")
    }

    @Test func aQueryThatFindsNothingStillSuggests() {
        let result = runBlocks(["search", "pagerrr", "--platform", "ios18"])
        #expect(result.out.contains("No blocks match 'pagerrr'. Did you mean: pager"), "\(result.out)")
    }
}

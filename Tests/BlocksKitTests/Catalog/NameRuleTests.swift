import Foundation
import Testing

@testable import BlocksKit

/// Block names have one rule (`ManifestValidator.isValidName`, the schema's pattern and
/// length), and `add`, the lock reader and lint all ask it.
@Suite struct NameRuleTests {
    // "A" was here until issue 35 made names case-insensitive ("A" is "a"); "A_" is no
    // slug in any case.
    @Test(arguments: ["a--b", "a-", "A_", String(repeating: "a", count: 101)])
    func addRefusesWhatLintRefuses(name: String) throws {
        let project = try TemporaryFolder("names")
        defer { project.cleanUp() }
        let result = runBlocks(["add", name], in: project.url)
        #expect(result.code == 64, "add \(name) exits \(result.code): \(result.err)")
        #expect(result.err.contains("is not a valid value for '<name>'"))
        #expect(!ManifestValidator.isValidName(name))
        #expect(!FileManager.default.fileExists(atPath: project.path("blocks.lock").path))
    }

    @Test func theLimitIsTheSchemasLimit() throws {
        let schema =
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: repositoryRoot.appendingPathComponent("Schemas/block.schema.json"))) as? [String: Any]
        let name = ((schema?["properties"] as? [String: Any])?["name"] as? [String: Any])
        #expect(name?["maxLength"] as? Int == 100)
        #expect(name?["pattern"] as? String == "^[a-z0-9]+(-[a-z0-9]+)*$")
        #expect(ManifestValidator.isValidName(String(repeating: "a", count: 100)))
        #expect(ManifestValidator.isValidName("a-b-1"))
    }
}

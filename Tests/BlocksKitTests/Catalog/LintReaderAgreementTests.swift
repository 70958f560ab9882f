import Foundation
import Testing

@testable import BlocksKit

/// Found by the manifest fuzz target (Fuzz/crashes/manifest-lint-clean-unreadable.json):
/// `lint` passed a manifest whose extra language was not text, and `build` then failed
/// with "not valid JSON". Lint now names the field, and every manifest lint passes reads.
@Suite struct LintReaderAgreementTests {
    @Test(arguments: [
        ("title", #"{"en": "T", "es": "T", "fr": 1}"#, "title.fr"),
        ("summary", #"{"en": "S.", "es": "S.", "de": ["x"]}"#, "summary.de"),
        ("tags", #"{"en": ["tabs"], "es": ["pestañas"], "fr": "onglets"}"#, "tags.fr"),
        ("accessibility", #"{"voiceOver": "B.", "dynamicType": "S.", "reduceMotion": "J.", "switchControl": 3}"#, "accessibility.switchControl"),
    ])
    func lintNamesAValueTheReaderCannotRead(field: String, value: String, path: String) throws {
        let folder = try TemporaryFolder("lint-gap")
        defer { folder.cleanUp() }
        var manifest = try #require(try JSONSerialization.jsonObject(with: Data(sampleManifestJSON(name: "sample").utf8)) as? [String: Any])
        manifest[field] = try JSONSerialization.jsonObject(with: Data(value.utf8))
        let text = String(decoding: try JSONSerialization.data(withJSONObject: manifest, options: [.sortedKeys]), as: UTF8.self)
        #expect(BlockManifest.decode(Data(text.utf8)) == nil, "the reader refuses it")
        try writeBlock(in: folder, name: "sample", manifest: text)
        let lint = try runBinary(["lint", "Catalog"], in: folder.url)
        #expect(lint.code == 1, "lint exits \(lint.code): \(lint.out)\(lint.err)")
        #expect((lint.out + lint.err).contains(path), "lint names \(path): \(lint.out)\(lint.err)")
    }
}

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `BlockManifest.decode` and `ManifestValidator.problems` on the bytes of a `block.json`
/// (archives, catalogs and registries all hand them over). Neither crashes; the reader
/// gives what the tests' `Decodable` oracle gives, except that it refuses control
/// characters, and hands out none; what it reads survives the round trip `build` makes;
/// and a manifest lint passes can be read.
enum ManifestTarget {
    static let target = FuzzTarget(name: "manifest", run: run)

    static func run(_ data: Data) {
        let manifest = BlockManifest.decode(data)
        let problems = ManifestValidator.problems(in: data, folderName: manifest?.name)
        let parses = (try? JSONReader.parse(data)) != nil
        let decoded = try? JSONDecoder().decode(BlockManifest.self, from: data)
        if let manifest {
            FuzzCheck.expect(decoded == manifest, "JSONDecoder reads \(String(describing: decoded)), the reader \(manifest)")
            FuzzCheck.expect(ManifestValidator.controlCharacters(in: manifest.jsonValue).isEmpty,
                             "the reader hands out a control character: \(manifest)")
            let written = StableJSON.data(manifest.jsonValue)
            FuzzCheck.expect(BlockManifest.decode(written) == manifest, "a round trip through jsonValue changed \(manifest)")
        } else if parses, let decoded {
            // The one rule the reader adds to the Decodable oracle: no control characters.
            FuzzCheck.expect(!ManifestValidator.controlCharacters(in: decoded.jsonValue).isEmpty,
                             "JSONDecoder reads a manifest the reader refuses: \(decoded)")
        }
        if problems.isEmpty {
            FuzzCheck.expect(manifest != nil, "lint finds no problem in a manifest the reader refuses")
        }
    }
}

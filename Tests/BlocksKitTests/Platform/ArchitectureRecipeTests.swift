import Foundation
import Testing

@testable import BlocksKit

/// docs/ARCHITECTURE.md's "Extending blocks" recipes say each extension point is one type
/// plus one registration line. These checks hold the recipes to the code: every
/// registration a recipe names exists, and every type of each kind is registered there.
@Suite struct ArchitectureRecipeTests {
    static let sources = repositoryRoot.appendingPathComponent("Sources/BlocksKit")

    /// The "Extending blocks" section of docs/ARCHITECTURE.md.
    static func recipes() throws -> String {
        let document = try String(contentsOf: repositoryRoot.appendingPathComponent("docs/ARCHITECTURE.md"), encoding: .utf8)
        let start = try #require(document.range(of: "## Extending blocks\n"))
        let rest = document[start.upperBound...]
        return String(rest[..<(rest.range(of: "\n## ")?.lowerBound ?? rest.endIndex)])
    }

    /// Names of the types declared in `folder` (a path under Sources/BlocksKit) that
    /// conform to `conformance` in their declaration.
    static func types(in folder: String, conformingTo conformance: String) throws -> Set<String> {
        var names: Set<String> = []
        let pattern = try Regex("^(?:public )?(?:struct|enum|final class|class) (\\w+)\\s*:[^{]*\\b\(conformance)\\b")
        let folderURL = sources.appendingPathComponent(folder)
        for file in try FileManager.default.contentsOfDirectory(atPath: folderURL.path) where file.hasSuffix(".swift") {
            let text = try String(contentsOf: folderURL.appendingPathComponent(file), encoding: .utf8)
            for line in SourceCode.codeLines(text) {
                if let match = line.firstMatch(of: pattern), let name = match.output[1].substring { names.insert(String(name)) }
            }
        }
        return names
    }

    /// The type's name as Swift prints it, without the module.
    static func name(of type: Any.Type) -> String { String(describing: type) }

    @Test func everyRegistrationARecipeNamesExists() throws {
        let recipes = try Self.recipes()
        let registrations = ["RegistrySources.kinds", "Archives.codec(for:)", "BlocksCLI.commands", "RegistrySourceKind", "ArchiveCodec", "ArchiveFormat"]
        for registration in registrations {
            #expect(recipes.contains("`\(registration)`"), "the recipes no longer name \(registration)")
        }
        // Each file a recipe says to copy exists.
        for example in ["GitSource", "GitSourceTests"] {
            #expect(recipes.contains("`\(example)`"))
        }
        #expect(FileManager.default.fileExists(atPath: Self.sources.appendingPathComponent("Plugins/GitSource.swift").path))
        #expect(FileManager.default.fileExists(atPath: repositoryRoot.appendingPathComponent("Tests/BlocksKitTests/Registry/GitSourceTests.swift").path))
    }

    @Test func everySourceKindIsRegisteredAndOwnsItsSchemes() throws {
        // `PluginSource` is the one kind found at run time (an installed blocks-plugin-NAME), not registered.
        let declared = try Self.types(in: "Plugins", conformingTo: "RegistrySourceKind")
            .union(Self.types(in: "Registry", conformingTo: "RegistrySourceKind")).subtracting(["PluginSource"])
        #expect(!declared.isEmpty)
        let registered = Set(RegistrySources.kinds.map { Self.name(of: type(of: $0)) })
        #expect(declared == registered, "RegistrySources.kinds must list every RegistrySourceKind")
        // A scheme belongs to one kind, and each parses to it.
        let schemes = RegistrySources.kinds.flatMap(\.schemes)
        #expect(Set(schemes).count == schemes.count)
        for scheme in schemes {
            #expect(try RegistryLocation("\(scheme)://host.example/repo") == .fetched(scheme: scheme, location: "\(scheme)://host.example/repo"))
        }
    }

    @Test func everyArchiveFormatHasItsCodec() throws {
        for format in ArchiveFormat.allCases {
            #expect(Archives.codec(for: format).format == format)
            #expect(ArchiveFormat.spelled().contains(format.suffixes[0]))
        }
        #expect(Archives.codecs.map(\.format) == ArchiveFormat.allCases)
        let codecs = try Self.types(in: "Archive", conformingTo: "ArchiveCodec")
        #expect(codecs == Set(Archives.codecs.map { Self.name(of: type(of: $0)) }))
    }

    @Test func everyCommandIsRegistered() throws {
        let declared = try Self.types(in: "Commands", conformingTo: "Command")
        let registered = Set(BlocksCLI.commands.map { Self.name(of: $0) })
        #expect(declared == registered, "BlocksCLI.commands must list every Command in Commands/")
        // One command per file, named after it.
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.sources.appendingPathComponent("Commands").path)
        #expect(Set(files.map { String($0.dropLast(".swift".count)) }) == declared)
    }
}

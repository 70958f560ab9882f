import Foundation
import Testing

@testable import BlocksKit

/// The three transforms built into blocks (issue 36): `access-level`, `prefix` and
/// `swift-format`, each through the same protocol and chain as an installed plugin.
@Suite struct BuiltInTransformTests {
    static let header = LicenseHeader.render(year: 2026, holders: "blocks contributors")

    static func file(_ path: String, _ code: String, role: BlockFile.Role = .component) -> TransformFile {
        TransformFile(path: path, role: role, content: Data((header + code).utf8))
    }

    static func run(_ name: String, _ files: [TransformFile], kind: TransformInput.TargetKind = .library, options: [String: JSONValue] = [:], in folder: URL? = nil) throws -> [TransformFile] {
        let plugin = try PluginCatalog.find(name, declared: nil, environment: ["PATH": "/opt/swift/usr/bin:/usr/bin:/bin"])
        let manifest = try #require(try CatalogSource.embedded.manifests().first)
        let chain = TransformChain(steps: [.init(plugin: plugin, options: .object(options))])
        return try chain.apply(
            TransformInput(manifest: manifest, files: files, targetKind: kind), environment: ["PATH": "/opt/swift/usr/bin:/usr/bin:/bin"],
            workingDirectory: folder ?? FileManager.default.temporaryDirectory)
    }

    static func text(_ file: TransformFile) -> String {
        String(String(decoding: file.content, as: UTF8.self).dropFirst(header.count))
    }

    static let sample = """
        import SwiftUI

        // struct InComment should stay
        struct Strip: View {
            let titles: [String]
            @State private var selection = 0
            private(set) var count = 0
            internal var note = "struct InString { var x }"

            init(_ titles: [String]) { self.titles = titles }

            var body: some View {
                let local = titles.count
                Text("\\(local) var inside")
            }

            func helper() -> Int { 1 }
        }

        protocol Styling {
            var tint: Int { get }
        }

        extension Strip {
            func extra() {}
        }

        enum StripStyle { case plain }

        """

    @Test func accessLevelMakesALibrarysAPIPublic() throws {
        let result = try Self.run("access-level", [Self.file("Strip.swift", Self.sample)], kind: .library)
        let expected = """
            import SwiftUI

            // struct InComment should stay
            public struct Strip: View {
                public let titles: [String]
                @State private var selection = 0
                private(set) var count = 0
                public var note = "struct InString { var x }"

                public init(_ titles: [String]) { self.titles = titles }

                public var body: some View {
                    let local = titles.count
                    Text("\\(local) var inside")
                }

                public func helper() -> Int { 1 }
            }

            public protocol Styling {
                var tint: Int { get }
            }

            extension Strip {
                public func extra() {}
            }

            public enum StripStyle { case plain }

            """
        #expect(Self.text(result[0]) == expected)
        // Once public, public: running it again changes nothing.
        let again = try Self.run("access-level", result, kind: .library)
        #expect(again == result)
    }

    @Test func accessLevelMakesAnAppsInternal() throws {
        let library = try Self.run("access-level", [Self.file("Strip.swift", Self.sample)], kind: .package)
        let app = try Self.run("access-level", library, kind: .app)
        // Back to no modifiers, except `internal var note`, which had one of its own.
        #expect(Self.text(app[0]) == Self.sample.replacingOccurrences(of: "internal var note", with: "var note"))
        #expect(throws: PluginError.refused(plugin: "access-level", message: "option \"level\" is open; it takes public or internal")) {
            try Self.run("access-level", [Self.file("Strip.swift", Self.sample)], options: ["level": .string("open")])
        }
    }

    /// Every catalog block, made public, still parses (`swiftc -parse`), and each of its
    /// top-level views is public.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/opt/swift/usr/bin/swiftc")))
    func accessLevelKeepsTheCatalogParsing() throws {
        let folder = try TemporaryFolder("access-level")
        defer { folder.cleanUp() }
        var written: [String] = []
        for content in try CatalogSource.embedded.contents(of: try CatalogSource.embedded.blockNames()) {
            let files = content.manifest.files.map { Self.file($0.path, String(decoding: content.files[$0.path] ?? Data(), as: UTF8.self), role: $0.role) }
            for file in try Self.run("access-level", files, kind: .library) {
                let text = Self.text(file)
                #expect(!text.contains("\nstruct ") && !text.contains("\n    struct "), "\(content.manifest.name)/\(file.path)")
                let url = folder.path("\(content.manifest.name)-\(file.path)")
                try file.content.write(to: url)
                written.append(url.path)
            }
        }
        let errors = try SwiftSyntaxCheck(compiler: URL(fileURLWithPath: "/opt/swift/usr/bin/swiftc")).firstErrors(in: written)
        #expect(errors.isEmpty, "\(errors)")
    }

    @Test func prefixRenamesTheBlocksOwnTypesEverywhereInCode() throws {
        let component = Self.file("Pager.swift", """
            struct Pager: View {
                var style: PagerStyle = .plain
                var body: some View { Text("Pager") } // Pager in a comment
            }
            enum PagerStyle { case plain }

            """)
        let demo = Self.file("PagerDemo.swift", """
            struct PagerDemo: View {
                var body: some View { Pager(style: PagerStyle.plain) }
            }

            """, role: .demo)
        let result = try Self.run("prefix", [component, demo], options: ["prefix": .string("BK")])
        #expect(Self.text(result[0]) == """
            struct BKPager: View {
                var style: BKPagerStyle = .plain
                var body: some View { Text("Pager") } // Pager in a comment
            }
            enum BKPagerStyle { case plain }

            """)
        #expect(Self.text(result[1]) == """
            struct BKPagerDemo: View {
                var body: some View { BKPager(style: BKPagerStyle.plain) }
            }

            """)
        // A new name the block already uses would make the rename ambiguous: refused.
        let clash = Self.file("Clash.swift", "struct Pager {}\nstruct BKPager {}\n")
        #expect(throws: PluginError.self) { try Self.run("prefix", [clash], options: ["prefix": .string("BK")]) }
        #expect(throws: PluginError.self) { try Self.run("prefix", [component], options: ["prefix": .string("9x")]) }
    }

    /// The toolchain's real `swift format`, with the project's own configuration.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/opt/swift/usr/bin/swift-format")))
    func swiftFormatUsesTheProjectsConfiguration() throws {
        let project = try TemporaryFolder("swift-format")
        defer { project.cleanUp() }
        try project.write(".swift-format", #"{"version": 1, "indentation": {"spaces": 3}, "lineLength": 100}"#)
        let messy = Self.file("Messy.swift", "struct Messy {\nvar a = 1\n  func b() -> Int {\nreturn a\n}\n}\n")
        let result = try Self.run("swift-format", [messy], in: project.url)
        #expect(Self.text(result[0]) == "struct Messy {\n   var a = 1\n   func b() -> Int {\n      return a\n   }\n}\n")
        #expect(LicenseHeader.hasHeader(String(decoding: result[0].content, as: UTF8.self)))
        #expect(try Self.run("swift-format", result, in: project.url) == result)
    }
}

import Foundation
import Testing

@testable import BlocksKit

/// `remove` takes out of Package.swift the package dependency `add` put in (through
/// SwiftPM's own commands) once no block needs it, and only that: a package the project
/// had before, one another block still needs, or one an older lock says nothing about
/// stays, with a note saying why. Real SwiftPM, a real folder registry, a real project.
@Suite(.serialized) struct RemovePackageTests {
    static let collections = PackageDependency(url: "https://github.com/apple/swift-collections.git", from: "1.1.0", products: ["OrderedCollections"])

    let catalog: TestCatalog
    let project: TestProject

    init() throws {
        var pager = TestCatalog.Block.standard("pager", type: "Pager")
        pager.dependencies = BlockDependencies(blocks: ["dots"], packages: [Self.collections])
        var carousel = TestCatalog.Block.standard("carousel", type: "Carousel")
        carousel.dependencies = BlockDependencies(packages: [Self.collections])
        catalog = try TestCatalog.make([pager, carousel, .standard("dots", type: "Dots")])
        project = try TestProject.make()
    }

    func cleanUp() {
        project.delete()
        catalog.delete()
    }

    /// SwiftPM comes from the PATH this test runs with.
    func blocks(_ arguments: [String]) -> CommandResult {
        project.run(
            ["--registry", catalog.root.path] + arguments, environment: ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"])
    }

    func manifestBytes() throws -> Data { try Data(contentsOf: project.url("Package.swift")) }

    @Test func removingWhatAddedThePackageGivesBackPackageSwiftByteForByte() throws {
        defer { cleanUp() }
        let before = try manifestBytes()
        let added = blocks(["add", "pager"])
        #expect(added.code == 0, "\(added.errors)")
        let manifest = try #require(project.read("Package.swift"))
        #expect(manifest.contains(#".package(url: "https://github.com/apple/swift-collections.git", from: "1.1.0")"#), "\(manifest)")
        #expect(manifest.contains(#".product(name: "OrderedCollections", package: "swift-collections")"#), "\(manifest)")
        let record = try #require(try project.lock().package(Self.collections.url))
        #expect(record.added && record.createdList && record.block == "pager")
        #expect(record.products == [Lockfile.Package.Product(name: "OrderedCollections", target: "App", createdList: true)])
        #expect(try project.lock().blocks["pager"]?.packages == [Self.collections.url])
        #expect(try project.lock().blocks["dots"]?.packages == [])

        let removed = blocks(["remove", "pager", "--with-dependencies", "--json"])
        #expect(removed.code == 0, "\(removed.errors)")
        let json = try JSONReader.parse(Data(removed.output.utf8))
        #expect(
            json["packageDependencies"]
                == .object([
                    "removed": .array([.object(["package": .string("swift-collections"), "url": .string(Self.collections.url)])]),
                    "kept": .array([]), "unrecorded": .array([]),
                ]), "\(removed.output)")
        #expect(try manifestBytes() == before, "\(project.read("Package.swift") ?? "")")
        #expect(!project.exists("blocks.lock"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: project.root.path).filter { $0.hasPrefix(StagingArea.prefix) } == [])
    }

    @Test func aPackageTheProjectHadBeforeStays() throws {
        defer { cleanUp() }
        let own = """
            // swift-tools-version:6.0
            import PackageDescription

            let package = Package(
                name: "TestApp",
                dependencies: [.package(url: "https://github.com/apple/swift-collections.git", from: "1.0.0")],
                targets: [
                    .target(name: "App", dependencies: [.product(name: "OrderedCollections", package: "swift-collections")]),
                ]
            )

            """
        try project.write("Package.swift", own)
        let added = blocks(["add", "carousel"])
        #expect(added.code == 0, "\(added.errors)")
        #expect(!added.output.contains("run "), "\(added.output)")
        #expect(try project.lock().package(Self.collections.url) == Lockfile.Package(url: Self.collections.url, block: "carousel", added: false))

        let removed = blocks(["remove", "carousel", "--with-dependencies"])
        #expect(removed.code == 0, "\(removed.errors)")
        #expect(removed.errors.contains("note: kept swift-collections in Package.swift: it was in Package.swift before blocks added carousel"), "\(removed.errors)")
        #expect(!removed.output.contains("from Package.swift"))
        #expect(project.read("Package.swift") == own)
    }

    @Test func aPackageAnotherBlockStillNeedsStaysUntilTheLastOneGoes() throws {
        defer { cleanUp() }
        let before = try manifestBytes()
        #expect(blocks(["add", "pager"]).code == 0)
        let afterAdd = try manifestBytes()
        let second = blocks(["add", "carousel"])
        #expect(second.code == 0 && !second.output.contains("run "), "\(second.output)")
        #expect(try manifestBytes() == afterAdd)

        let first = blocks(["remove", "pager", "--with-dependencies"])
        #expect(first.code == 0, "\(first.errors)")
        #expect(first.errors.contains("note: kept swift-collections in Package.swift: still used by carousel"), "\(first.errors)")
        #expect(try manifestBytes() == afterAdd)
        #expect(try project.lock().package(Self.collections.url)?.added == true, "the record stays for the last block")

        let last = blocks(["remove", "carousel"])
        #expect(last.code == 0, "\(last.errors)")
        #expect(last.output.contains("  remove  swift-collections from Package.swift"), "\(last.output)")
        #expect(try manifestBytes() == before)
    }

    @Test func aLockThatDoesNotSayLeavesPackageSwiftAlone() throws {
        defer { cleanUp() }
        #expect(blocks(["add", "pager"]).code == 0)
        let afterAdd = try manifestBytes()
        let lockURL = project.url("blocks.lock")
        let saved = try Data(contentsOf: lockURL)

        // A lock from before blocks recorded packages: no block says what it needs.
        var old = try project.lock()
        old.packages = []
        for key in old.blocks.keys { old.blocks[key]?.packages = nil }
        try old.encoded().write(to: lockURL)
        #expect(!String(decoding: try Data(contentsOf: lockURL), as: UTF8.self).contains("packages"))
        let unrecorded = blocks(["remove", "pager", "--with-dependencies", "--json"])
        #expect(unrecorded.code == 0, "\(unrecorded.errors)")
        #expect(try JSONReader.parse(Data(unrecorded.output.utf8))["packageDependencies"]?["unrecorded"] == .array([.string("pager"), .string("dots")]),
            "neither entry says what it needs: \(unrecorded.output)")
        #expect(try manifestBytes() == afterAdd)

        // The same in words.
        try old.encoded().write(to: lockURL)
        let words = blocks(["remove", "pager", "--with-dependencies"])
        #expect(words.errors.contains("note: blocks.lock does not record which Swift packages pager needs"), "\(words.errors)")

        // The block says what it needs, but no record says blocks put the package there.
        try saved.write(to: lockURL)
        try FileManager.default.createDirectory(at: project.url("Sources/App/Blocks"), withIntermediateDirectories: true)
        #expect(blocks(["add", "pager", "--overwrite"]).code == 0)
        var partial = try project.lock()
        partial.packages = []
        try partial.encoded().write(to: lockURL)
        let unknown = blocks(["remove", "pager", "--with-dependencies"])
        #expect(unknown.code == 0, "\(unknown.errors)")
        #expect(
            unknown.errors.contains("note: kept swift-collections in Package.swift: blocks.lock does not record that blocks added it"), "\(unknown.errors)")
        #expect(try manifestBytes() == afterAdd)
    }
}

/// The editor on its own: SwiftPM's edits undone to the byte, and anything it cannot find
/// exactly once refused with the file untouched.
@Suite struct PackageManifestEditorTests {
    static let record = Lockfile.Package(
        url: "https://github.com/apple/swift-collections.git", block: "pager", added: true, createdList: true,
        products: [Lockfile.Package.Product(name: "OrderedCollections", target: "App", createdList: true)])

    static let before = """
        // swift-tools-version: 6.0
        import PackageDescription

        let package = Package(
            name: "App",
            targets: [
                .target(name: "App")
            ]
        )

        """

    /// What SwiftPM 6's add-dependency and add-target-dependency make of `before`.
    static let after = """
        // swift-tools-version: 6.0
        import PackageDescription

        let package = Package(
            name: "App",
            dependencies: [
                .package(url: "https://github.com/apple/swift-collections.git", from: "1.1.0"),
            ],
            targets: [
                .target(name: "App",dependencies: [
            .product(name: "OrderedCollections", package: "swift-collections"),])
            ]
        )

        """

    /// `record`, for a package and product that went into lists the user had made.
    static var recordInUserLists: Lockfile.Package {
        var record = record
        record.createdList = false
        record.products[0].createdList = false
        return record
    }

    @Test func undoesSwiftPMsEditToTheByte() throws {
        #expect(PackageManifestEditor.hasDependencyList(Self.before) == false)
        #expect(PackageManifestEditor.hasDependencyList(Self.after) && PackageManifestEditor.hasDependencyList(Self.after, target: "App"))
        #expect(try PackageManifestEditor.removing(Self.record, removePackage: true, from: Self.after).get() == Self.before)
    }

    @Test func listsTheUserMadeStayAndOtherEntriesToo() throws {
        let record = Self.recordInUserLists
        let text = """
            let package = Package(
                name: "App",
                dependencies: [
                    // .package(url: "https://github.com/apple/swift-collections.git", from: "0.1.0"),
                    .package(url: "https://github.com/apple/swift-algorithms", from: "1.0.0"),
                    .package(url: "https://github.com/apple/swift-collections.git", from: "1.1.0"),
                ],
                targets: [.target(name: "App", dependencies: [.product(name: "Algorithms", package: "swift-algorithms"), .product(name: "OrderedCollections", package: "swift-collections")])]
            )
            """
        let expected = """
            let package = Package(
                name: "App",
                dependencies: [
                    // .package(url: "https://github.com/apple/swift-collections.git", from: "0.1.0"),
                    .package(url: "https://github.com/apple/swift-algorithms", from: "1.0.0"),
                ],
                targets: [.target(name: "App", dependencies: [.product(name: "Algorithms", package: "swift-algorithms")])]
            )
            """
        #expect(try PackageManifestEditor.removing(record, removePackage: true, from: text).get() == expected)
    }

    /// Read with the one Swift lexer: a block comment nests, so an entry commented out
    /// inside `/* /* */ */` is no code, and a raw string `#"…"#` is a name. The editor's
    /// old character scanner ended the comment at the first `*/` and took out the
    /// commented-out entry instead of the real one, and it never saw the raw name.
    @Test func readsNestedCommentsAndRawStringsAsSwiftDoes() throws {
        let record = Self.recordInUserLists
        let text = """
            let package = Package(
                name: "App",
                dependencies: [
                    /* Pinned before 1.1:
                    /* see #12 */ .package(url: "https://github.com/apple/swift-collections.git", exact: "1.0.4"),
                    */
                    .package(url: "https://github.com/apple/swift-collections.git", from: "1.1.0"),
                ],
                targets: [.target(name: "App", dependencies: [.product(name: #"OrderedCollections"#, package: "swift-collections")])]
            )
            """
        let expected = """
            let package = Package(
                name: "App",
                dependencies: [
                    /* Pinned before 1.1:
                    /* see #12 */ .package(url: "https://github.com/apple/swift-collections.git", exact: "1.0.4"),
                    */
                ],
                targets: [.target(name: "App", dependencies: [])]
            )
            """
        #expect(try PackageManifestEditor.removing(record, removePackage: true, from: text).get() == expected)
    }

    @Test func refusesWhatItCannotFindExactlyOnce() {
        let twice = Self.after.replacing(
            #"        .package(url: "https://github.com/apple/swift-collections.git", from: "1.1.0"),"#,
            with: #"        .package(url: "https://github.com/apple/swift-collections.git", from: "1.1.0"),\#n        .package(url: "https://github.com/apple/swift-collections", from: "1.0.0"),"#)
        guard case .failure(let refusal) = PackageManifestEditor.removing(Self.record, removePackage: true, from: twice) else {
            Issue.record("two entries for one package must be refused")
            return
        }
        #expect(refusal.reason.contains("lists more than one .package(url:"), "\(refusal.reason)")
        let noTarget = Self.after.replacing(#".target(name: "App","#, with: #".target(name: "Main","#)
        guard case .failure(let missing) = PackageManifestEditor.removing(Self.record, removePackage: true, from: noTarget) else {
            Issue.record("a missing target must be refused")
            return
        }
        #expect(missing.reason == "it has no target App")
    }
}

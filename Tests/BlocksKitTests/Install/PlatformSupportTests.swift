import Foundation
import Testing

@testable import BlocksKit

/// `add` warns when the project builds for a platform the block does not support, as a
/// macOS target would for the catalog's iOS-only blocks. A class, so that its `deinit`
/// removes the catalog each test's instance makes, also for the tests that never use it.
@Suite final class PlatformSupportTests {
    @Test func platformsTheBlockDoesNotListAreUnsupported() {
        #expect(PlatformSupport.unsupported(block: ["iOS": "17.0"], project: ["macOS": "14"]) == ["macOS"])
        #expect(PlatformSupport.unsupported(block: ["iOS": "17.0"], project: ["iOS": "17", "macOS": "14", "visionOS": "1"]) == ["macOS", "visionOS"])
        #expect(PlatformSupport.unsupported(block: ["iOS": "17.0"], project: ["iOS": "18"]) == [])
        #expect(PlatformSupport.unsupported(block: ["iOS": "17.0", "macOS": "14.0"], project: ["iOS": "17", "macOS": "14"]) == [])
        // A package without platforms: names none.
        #expect(PlatformSupport.unsupported(block: ["iOS": "17.0"], project: [:]) == [])
    }

    @Test func iOSCoversiPadOSAndMacCatalyst() {
        #expect(PlatformSupport.unsupported(block: ["iPadOS": "17.0"], project: ["iOS": "17"]) == [])
        #expect(PlatformSupport.unsupported(block: ["iOS": "17.0"], project: ["macCatalyst": "17"]) == [])
        #expect(PlatformSupport.unsupported(block: ["macOS": "14.0"], project: ["iOS": "17"]) == ["iOS"])
        #expect(PlatformSupport.unsupported(block: ["ios": "17.0"], project: ["IOS": "17"]) == [])
    }

    @Test func theConditionNamesTheBlocksSystems() {
        #expect(PlatformSupport.condition(for: ["iOS": "17.0"]) == "os(iOS)")
        #expect(PlatformSupport.condition(for: ["macOS": "14.0", "iOS": "17.0"]) == "os(iOS) || os(macOS)")
        #expect(PlatformSupport.condition(for: ["iPadOS": "17.0", "iOS": "17.0"]) == "os(iOS)")
    }

    // MARK: With the real binary

    let catalog: TestCatalog

    init() throws {
        catalog = try TestCatalog.make([.standard("strip", type: "Strip", platforms: ["iOS": "18.0"])])
    }

    deinit { catalog.delete() }

    func add(_ platforms: String?, _ names: [String] = ["strip"]) throws -> (TestProject, CommandResult) {
        let project = try TestProject.make(platforms: platforms)
        return (project, try project.runBinary(["--registry", catalog.root.path, "add"] + names))
    }

    @Test func aMacOSOnlyPackageIsWarned() throws {
        let (project, result) = try add(".macOS(.v14)")
        defer { project.delete() }
        #expect(result.code == 0, "\(result.errors)")
        #expect(
            result.errors.contains(
                "warning: strip supports iOS 18.0 only, but Package.swift also targets macOS. "
                    + "Its code is not written or checked for macOS, so use it only under '#if os(iOS)'. This does not stop the add."),
            "\(result.errors)")
        #expect(project.exists("Sources/App/Blocks/strip/Strip.swift"))
    }

    @Test func aMultiplatformPackageIsWarnedForTheOtherPlatformOnly() throws {
        let (project, result) = try add(".iOS(.v18), .macOS(.v15), .visionOS(.v2)")
        defer { project.delete() }
        #expect(result.code == 0, "\(result.errors)")
        #expect(result.errors.contains("also targets macOS"))
        #expect(result.errors.contains("also targets visionOS"))
        #expect(!result.errors.contains("also targets iOS"))
        #expect(!result.errors.contains("needs iOS"))
    }

    @Test func anIOSPackageOrOneWithoutPlatformsIsNotWarned() throws {
        for platforms in [".iOS(.v18)", nil] {
            let (project, result) = try add(platforms)
            defer { project.delete() }
            #expect(result.code == 0, "\(result.errors)")
            #expect(!result.errors.contains("warning"), "\(platforms ?? "no platforms"): \(result.errors)")
        }
    }

    @Test func theWarningIsSaidOncePerVersion() throws {
        let (project, first) = try add(".macOS(.v14)")
        defer { project.delete() }
        #expect(first.errors.contains("also targets macOS"))
        let again = try project.runBinary(["--registry", catalog.root.path, "add", "strip"])
        #expect(again.code == 0)
        #expect(!again.errors.contains("also targets macOS"), "\(again.errors)")
    }

    @Test func theCatalogsOwnBlocksAreWarnedForMacOS() throws {
        let project = try TestProject.make(platforms: ".iOS(.v17), .macOS(.v14)")
        defer { project.delete() }
        let result = try project.runBinary(["add", "top-tabs", "--dry-run"])
        #expect(result.code == 0, "\(result.errors)")
        #expect(result.errors.contains("top-tabs supports iOS 17.0 only, but Package.swift also targets macOS."), "\(result.errors)")
    }
}

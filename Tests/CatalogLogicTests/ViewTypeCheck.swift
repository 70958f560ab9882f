import Foundation

@testable import BlocksKit

/// Runs the Swift compiler that builds the package, for the checks on the catalog's Swift
/// files: `SWIFTC` when set, else `swiftc` on the PATH, else the toolchain's default place.
enum Swiftc {
    static var executable: URL {
        CatalogLinter.findSwiftCompiler(environment: ProcessInfo.processInfo.environment)
            ?? URL(fileURLWithPath: "/opt/swift/usr/bin/swiftc")
    }

    /// Runs swiftc with `arguments` and returns its exit status and its output (stdout and
    /// stderr together). A compiler that runs longer than `timeout` seconds is stopped.
    static func run(_ arguments: [String], in folder: URL, timeout: TimeInterval = 300) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = folder
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let watchdog = DispatchWorkItem { if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: watchdog)
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        watchdog.cancel()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}

/// The repository's view check: BlocksKit's `ViewTypeCheck` (the one `blocks lint
/// --typecheck` runs) over `Catalog/` with the stub in `Tests/SwiftUIStub`, its modules
/// built under `.build/swiftui-stub`.
extension ViewTypeCheck {
    /// Whether the stub is the only SwiftUI the compiler can find, as on Linux. On macOS a
    /// module of that name built for the host would meet Apple's own and check iOS
    /// availability against a macOS target, so the suite runs on Linux only.
    static let stubIsTheOnlySwiftUI: Bool = {
        #if os(Linux)
        return true
        #else
        return false
        #endif
    }()

    static let repositoryRoot = SwiftParseTests.repositoryRoot
    static let stubFolder = repositoryRoot.appendingPathComponent("Tests/SwiftUIStub")
    static let catalogFolder = repositoryRoot.appendingPathComponent("Catalog")

    /// The checker for this repository. `SWIFTUI_STUB` points it at another stub folder,
    /// which is how the controls are shown to fail on an older stub (`git show`).
    static let repository = ViewTypeCheck(
        stubFolder: ProcessInfo.processInfo.environment["SWIFTUI_STUB"].map { URL(fileURLWithPath: $0) } ?? stubFolder,
        compiler: Swiftc.executable,
        moduleCache: repositoryRoot.appendingPathComponent(".build/swiftui-stub"))

    /// Every block in `Catalog/`, sorted by name.
    static func catalogBlocks() throws -> [Block] {
        let names = try FileManager.default.contentsOfDirectory(atPath: catalogFolder.path).sorted()
        return try names.compactMap { name in
            let folder = catalogFolder.appendingPathComponent(name)
            guard FileManager.default.fileExists(atPath: folder.appendingPathComponent("block.json").path) else { return nil }
            return try block(at: folder)
        }
    }
}

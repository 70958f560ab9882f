import Foundation
import Testing

@testable import BlocksKit

/// Issue 12 item 22: `lint` parses many files per `swiftc` run, on every core, and still
/// names each broken file with its own first error.
@Suite struct SwiftSyntaxCheckTests {
    static var compiler: URL? {
        CatalogLinter.findSwiftCompiler(environment: ["PATH": "/opt/swift/usr/bin:" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin")])
    }

    @Test func runsKeepNamesApartAndSpreadOverCores() {
        let files = (0..<600).map { "/c/b\($0)/File\($0).swift" } + ["/c/x/Demo.swift", "/c/y/Demo.swift", "/c/z/Demo.swift"]
        let runs = SwiftSyntaxCheck.runs(of: files, cores: 2)
        #expect(runs.flatMap { $0 }.sorted() == files.sorted())
        for run in runs {
            #expect(run.count <= SwiftSyntaxCheck.filesPerRun)
            #expect(Set(run.map { $0.split(separator: "/").last! }).count == run.count)
        }
        #expect(runs.count >= 4)
        #expect(SwiftSyntaxCheck.runs(of: Array(files.prefix(40)), cores: 2).count == 2)
        #expect(SwiftSyntaxCheck.runs(of: Array(files.prefix(5)), cores: 2).count == 1)
    }

    @Test func errorsAreTracedToTheirFiles() {
        let output = """
            /c/a b/A.swift:2:1: error: expected declaration
            1 | struct A {
              | `- error: expected declaration
            /c/a b/A.swift:2:1: error: expected '}' in struct
            /c/B.swift:1:9: error: expected initial value after '='
            error: something without a file
            /c/Other.swift:1:1: error: not one of ours
            """
        let errors = SwiftSyntaxCheck.firstErrors(in: output, files: ["/c/a b/A.swift", "/c/B.swift", "/c/C.swift"])
        #expect(
            errors == [
                "/c/a b/A.swift": "/c/a b/A.swift:2:1: error: expected declaration",
                "/c/B.swift": "/c/B.swift:1:9: error: expected initial value after '='",
            ])
    }

    /// The real compiler: broken files among many good ones, two files with one name,
    /// each broken file reported once with its own error, in the order given.
    @Test func theRealCompilerFindsEachBrokenFile() throws {
        guard let compiler = Self.compiler else { return }
        let folder = try TemporaryFolder("syntax")
        defer { folder.cleanUp() }
        var files: [String] = []
        for index in 0..<40 {
            try folder.write("b\(index)/File\(index).swift", "struct File\(index) { let value = \(index) }\n")
            files.append(folder.path("b\(index)/File\(index).swift").path)
        }
        try folder.write("x/Demo.swift", "struct Demo {\n")
        try folder.write("y/Demo.swift", "struct Demo {}\n")
        try folder.write("z/Broken.swift", "let = 3\n")
        files.insert(folder.path("x/Demo.swift").path, at: 3)
        files += [folder.path("y/Demo.swift").path, folder.path("z/Broken.swift").path]
        let errors = try SwiftSyntaxCheck(compiler: compiler).firstErrors(in: files)
        #expect(errors.map(\.file) == [folder.path("x/Demo.swift").path, folder.path("z/Broken.swift").path])
        #expect(errors[0].error.hasPrefix(folder.path("x/Demo.swift").path + ":2:1: error: "), "\(errors)")
        #expect(errors[1].error.hasPrefix(folder.path("z/Broken.swift").path + ":1:5: error: "), "\(errors)")
        // A compiler that fails without naming a file gets each file checked on its own.
        let failing = folder.path("bin/swiftc")
        try folder.write(
            "bin/swiftc",
            "#!/bin/sh\nfor last; do :; done\ncase \"$#:$last\" in *Broken.swift) echo \"error: cannot read it\" >&2; exit 1;; esac\n[ $# -gt 5 ] && { echo 'error: crashed' >&2; exit 1; }\nexit 0\n"
        )
        chmod(failing.path, 0o755)
        let fallback = try SwiftSyntaxCheck(compiler: failing).firstErrors(in: files)
        #expect(fallback.map(\.file) == [folder.path("z/Broken.swift").path])
        #expect(fallback.first?.error == "error: cannot read it")
    }

    /// The linter's report through the batched check, as `lint` prints it.
    @Test func lintReportsEachBrokenFileOnce() throws {
        guard let compiler = Self.compiler else { return }
        let folder = try TemporaryFolder("lint-batch")
        defer { folder.cleanUp() }
        let catalog = try RegistryFixtures.writeCatalog(in: folder, count: 30)
        try folder.write("Catalog/block-0007/Block0007.swift", "import SwiftUI\nstruct Block0007: View {\n")
        let report = try CatalogLinter(root: catalog, swiftCompiler: compiler).run()
        #expect(report.problems.map(\.description).count == 1)
        #expect(report.problems.first?.file == "Catalog/block-0007/Block0007.swift")
        #expect(report.problems.first?.message.hasPrefix("does not parse: \(catalog.path)/block-0007/Block0007.swift:") == true, "\(report.problems)")
    }
}

import Foundation

@testable import BlocksKit

/// Builds sites with the real binary, and checks their HTML with real validators.
enum SiteFixtures {
    /// A fixed moment, so builds are comparable byte for byte.
    static let epoch = "1790000000"

    /// `blocks build --catalog CATALOG --out OUT --site` with a fixed SOURCE_DATE_EPOCH;
    /// throws with the tool's own words when it fails.
    @discardableResult
    static func build(catalog: URL = repositoryRoot.appendingPathComponent("Catalog"), into output: URL, site: Bool = true, json: Bool = false) throws -> String
    {
        var arguments = ["build", "--catalog", catalog.path, "--out", output.path]
        if site { arguments.append("--site") }
        if json { arguments.insert("--json", at: 0) }
        var environment = ProcessInfo.processInfo.environment
        environment["SOURCE_DATE_EPOCH"] = epoch
        environment["NO_COLOR"] = "1"
        let result = try runBinary(arguments, environment: environment)
        guard result.code == 0 else { throw HarnessError("build failed (\(result.code)): \(result.err)") }
        return result.out
    }

    /// A copy of the repository's catalog in a folder of its own, to change.
    static func copyOfCatalog(in folder: URL) throws -> URL {
        let copy = folder.appendingPathComponent("Catalog")
        try FileManager.default.copyItem(at: repositoryRoot.appendingPathComponent("Catalog"), to: copy)
        return copy
    }

    /// Every regular file under `root`, by path relative to it, sorted.
    static func files(under root: URL) -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: root.path) else { return [] }
        var files: [String] = []
        while let path = enumerator.nextObject() as? String {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: root.appendingPathComponent(path).path, isDirectory: &isFolder), !isFolder.boolValue {
                files.append(path)
            }
        }
        return files.sorted()
    }

    static func htmlFiles(under root: URL) -> [String] { files(under: root).filter { $0.hasSuffix(".html") } }

    /// html5lib's parse errors, in its strict mode, for each file (Debian's
    /// python3-html5lib, run by the system's own Python, which has it).
    static func html5libErrors(_ paths: [URL]) throws -> String {
        let script = """
            import sys, html5lib
            failed = 0
            for path in sys.argv[1:]:
                parser = html5lib.HTMLParser(strict=True, namespaceHTMLElements=False)
                try:
                    parser.parse(open(path, 'rb').read().decode('utf-8'))
                except Exception as error:
                    failed += 1
                    print(path, error, parser.errors[:3])
            sys.exit(1 if failed else 0)
            """
        let result = try runProcess(URL(fileURLWithPath: "/usr/bin/python3"), ["-c", script] + paths.map(\.path))
        if result.err.contains("No module named 'html5lib'") { throw HarnessError("html5lib is missing; run Scripts/install-deps (python3-html5lib)") }
        return result.code == 0 ? "" : result.out + result.err
    }

    /// What `tidy` reports (errors and warnings) for each file; empty when it finds nothing.
    static func tidyReports(_ paths: [URL]) throws -> String {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/tidy") else { throw HarnessError("tidy is missing; run Scripts/install-deps") }
        var reports = ""
        for path in paths {
            let result = try runProcess(URL(fileURLWithPath: "/usr/bin/tidy"), ["-quiet", "-errors", "--show-warnings", "yes", path.path])
            if result.code != 0 || !result.err.isEmpty { reports += "\(path.path) (exit \(result.code)):\n\(result.err)\n" }
        }
        return reports
    }
}

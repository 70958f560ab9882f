import Foundation

@testable import BlocksKit

/// A temporary folder for one archive test, removed when the value is released.
final class ArchiveScratch {
    let url: URL

    init() throws {
        url = HostTools.temporaryDirectory
            .appendingPathComponent("blocks-archive-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    func path(_ name: String) -> URL { url.appendingPathComponent(name) }

    /// Every path below the folder, relative, sorted: used to prove nothing was written.
    func listing() -> [String] {
        let root = url.resolvingSymlinksInPath().path
        var found: [String] = []
        let enumerator = FileManager.default.enumerator(atPath: root)
        while let next = enumerator?.nextObject() as? String { found.append(next) }
        return found.sorted()
    }
}

/// The result of running an outside tool to completion.
struct ArchiveToolRun {
    var status: Int32
    var output: String
    var errors: String
}

enum ArchiveTool {
    /// Runs a program found on PATH and waits for it. The tools used here always exit on
    /// their own; no test kills them.
    static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> ArchiveToolRun {
        var merged = ProcessInfo.processInfo.environment
        for (key, value) in environment { merged[key] = value }
        let result = try runProcess(URL(fileURLWithPath: "/usr/bin/env"), arguments, environment: merged)
        return ArchiveToolRun(status: result.code, output: result.out, errors: result.err)
    }

    /// Runs a Python program given as text, with arguments.
    static func python(_ program: String, _ arguments: [String]) throws -> ArchiveToolRun {
        try run(["python3", "-c", program] + arguments)
    }
}

/// Sample block files, including non-ASCII names, for round trips.
enum ArchiveSamples {
    static let entries: [ArchiveEntry] = [
        ArchiveEntry(path: "top-tabs/TopTabs.swift", data: Data("// MIT\nstruct TopTabs {}\n".utf8)),
        ArchiveEntry(path: "top-tabs/Pestañas.swift", data: Data("// pestañas\n".utf8)),
        ArchiveEntry(path: "top-tabs/Sources/日本/タブ.swift", data: Data("// タブ\n".utf8)),
        ArchiveEntry(path: "top-tabs/LICENSE", data: Data("MIT License\n".utf8)),
        ArchiveEntry(path: "top-tabs/block.json", data: Data("{\"name\": \"top-tabs\"}\n".utf8)),
        ArchiveEntry(path: "top-tabs/Sources/Empty.swift", data: Data()),
        ArchiveEntry(path: "top-tabs/a-b.swift", data: Data("// sorts between a and a/\n".utf8)),
        ArchiveEntry(path: "top-tabs/a/inner.swift", data: Data((0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })),
    ]

    /// The folders a writer must add, relative to nothing (full paths).
    static let folders: Set<String> = ["top-tabs", "top-tabs/Sources", "top-tabs/Sources/日本", "top-tabs/a"]

    static var filesRelativeToTop: [String: Data] {
        var files: [String: Data] = [:]
        for entry in entries {
            files[String(entry.path.dropFirst("top-tabs/".count))] = entry.data
        }
        return files
    }
}

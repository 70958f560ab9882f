import Foundation
import Testing

@testable import BlocksKit

#if canImport(Glibc)
import Glibc
#endif

@Suite("Archive writing")
struct ArchiveWriteTests {
    @Test("two writes are byte-identical", arguments: ArchiveFormat.allCases)
    func reproducible(_ format: ArchiveFormat) throws {
        let scratch = try ArchiveScratch()
        let first = scratch.path("first.\(format.fileExtension)")
        let second = scratch.path("second.\(format.fileExtension)")
        try Archives.write(ArchiveSamples.entries, format: format, to: first)
        // The caller's order must not matter either.
        try Archives.write(ArchiveSamples.entries.reversed(), format: format, to: second)
        #expect(try Data(contentsOf: first) == Data(contentsOf: second))
    }

    /// Pinned digests prove the bytes do not depend on the run, the process, the clock or
    /// the machine's time zone. If libarchive or zlib is upgraded and changes its
    /// encoding, these change too: check the other reproducibility tests, then update.
    static let pinnedDigests: [ArchiveFormat: String] = [
        .tarGzip: "58ea525228be93cdbc5602d03eba024f7eb97abf7d5b29d2702898b0ad180999",
        .zip: "f274680da8ebf6974d9a6ec3e272eeb32662e54e6c4712d6abbd1cb6b957d884",
    ]

    @Test(
        "the bytes match the pinned digest from an earlier run",
        .enabled(if: HostTools.isLinux, HostTools.needsDebianLibarchive), arguments: ArchiveFormat.allCases)
    func pinned(_ format: ArchiveFormat) throws {
        let bytes = try Archives.data(ArchiveSamples.entries, format: format)
        #expect(SHA256.hex(bytes) == Self.pinnedDigests[format])
    }

    @Test("time zones do not change the bytes")
    func timeZones() throws {
        let zones = ["UTC", "Asia/Tokyo", "America/New_York"]
        var outputs: [ArchiveFormat: Set<Data>] = [:]
        var stampedZips = Set<Data>()
        try withEachTimeZone(zones) {
            for format in ArchiveFormat.allCases {
                outputs[format, default: []].insert(try Archives.data(ArchiveSamples.entries, format: format))
            }
            // A control: a real mtime is stored as local time in zips, so if switching
            // zones had no effect this set would hold one value and the test would be void.
            stampedZips.insert(
                try ZipCodec().encode(
                    ArchiveSamples.entries, archiveName: "control", modificationTime: 1_600_000_000))
        }
        #expect(outputs[.tarGzip]?.count == 1)
        #expect(outputs[.zip]?.count == 1)
        #expect(stampedZips.count == zones.count)
    }

    @Test("write replaces the file atomically and leaves no temporary file")
    func atomicReplace() throws {
        let scratch = try ArchiveScratch()
        let url = scratch.path("tabs.zip")
        try Data("old".utf8).write(to: url)
        try Archives.write(ArchiveSamples.entries, format: .zip, to: url)
        #expect(scratch.listing() == ["tabs.zip"])
        #expect(try Archives.read(url).files == ArchiveSamples.filesRelativeToTop)
    }

    @Test("a folder that cannot exist is a write failure that names the archive")
    func missingFolder() throws {
        let scratch = try ArchiveScratch()
        // A regular file where a folder must go: missing folders are created, this cannot be.
        try Data("a file".utf8).write(to: scratch.path("blocker"))
        let url = scratch.path("blocker/folder/tabs.tar.gz")
        let error = #expect(throws: ArchiveError.self) {
            try Archives.write(ArchiveSamples.entries, format: .tarGzip, to: url)
        }
        guard case .writeFailed(let archive, _)? = error else {
            Issue.record("expected .writeFailed, got \(String(describing: error))")
            return
        }
        #expect(archive == url.path)
        #expect(scratch.listing() == ["blocker"])
    }

    static func badEntries(name: String) -> [(entries: [ArchiveEntry], expected: ArchiveError)] {
        func file(_ path: String) -> ArchiveEntry { ArchiveEntry(path: path, data: Data("x".utf8)) }
        return [
            ([], .emptyArchive(archive: name)),
            ([file("top/a"), file("/abs")], .absolutePath(archive: name, entry: "/abs")),
            ([file("top/../x")], .parentTraversal(archive: name, entry: "top/../x")),
            ([file("top/a"), file("top/a")], .duplicateEntry(archive: name, entry: "top/a")),
            ([file("top/a"), file("top/A")], .duplicateEntry(archive: name, entry: "top/A")),
            ([file("top/a"), file("other/b")], .multipleTopFolders(archive: name, first: "top", second: "other")),
            ([file("top/a"), file("loose")], .entryOutsideTopFolder(archive: name, entry: "loose", topFolder: "top")),
            ([file("top/a"), file("top/a/b")], .pathConflict(archive: name, entry: "top/a/b", other: "top/a")),
            (
                [file("top//a")],
                .unsafeName(
                    archive: name, entry: "top//a",
                    reason: "is not in the form top/folder/file (no empty or '.' parts)")
            ),
            (
                [file("top/./a")],
                .unsafeName(
                    archive: name, entry: "top/./a",
                    reason: "is not in the form top/folder/file (no empty or '.' parts)")
            ),
            ([file("top\\a")], .unsafeName(archive: name, entry: "top\\a", reason: "contains a backslash")),
        ]
    }

    @Test("invalid entries are refused and nothing is written")
    func refusesBadEntries() throws {
        let scratch = try ArchiveScratch()
        let url = scratch.path("bad.tar.gz")
        for (entries, expected) in Self.badEntries(name: url.path) {
            for format in ArchiveFormat.allCases {
                #expect(throws: expected) {
                    try Archives.write(entries, format: format, to: url)
                }
                #expect(throws: expected) {
                    _ = try Archives.data(entries, format: format, name: url.path)
                }
            }
        }
        #expect(scratch.listing().isEmpty)
    }

    @Test("formats are plugins found by format and by content")
    func codecs() throws {
        #expect(Archives.codecs.map(\.format) == ArchiveFormat.allCases)
        for format in ArchiveFormat.allCases {
            #expect(Archives.codec(for: format).format == format)
        }
        #expect(ArchiveFormat.forFile("x.TGZ") == .tarGzip)
        #expect(ArchiveFormat.forFile("x.zip") == .zip)
    }

    @Test("a long non-ASCII path survives both formats")
    func longUnicodePath() throws {
        // Over ustar's 100-byte name field, so the pax writer must use an extended header.
        let deep = "bloque/" + Array(repeating: "Pestañas-ñandú", count: 12).joined(separator: "/") + "/Vista.swift"
        let entries = [ArchiveEntry(path: deep, data: Data("ñ".utf8))]
        for format in ArchiveFormat.allCases {
            let read = try Archives.read(data: Archives.data(entries, format: format), format: format, name: "deep")
            #expect(read.topFolder == "bloque")
            #expect(read.files == [String(deep.dropFirst("bloque/".count)): Data("ñ".utf8)])
        }
    }
}

/// Runs `body` once in each time zone, then restores the process's zone. The zone is
/// process-wide, so every change happens inside this one test.
private func withEachTimeZone(_ zones: [String], _ body: () throws -> Void) rethrows {
    let saved = getenv("TZ").map { String(cString: $0) }
    defer {
        if let saved { setenv("TZ", saved, 1) } else { unsetenv("TZ") }
        tzset()
    }
    for zone in zones {
        setenv("TZ", zone, 1)
        tzset()
        try body()
    }
}

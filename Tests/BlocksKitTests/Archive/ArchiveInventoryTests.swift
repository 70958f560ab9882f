import Foundation
import Testing

@testable import BlocksKit

/// The entry rules on their own, for shapes that are awkward to craft as real archives.
@Suite("Archive entry rules")
struct ArchiveInventoryTests {
    private func header(_ path: String, _ kind: ArchiveHeader.Kind = .file, size: Int64? = nil) -> ArchiveHeader {
        ArchiveHeader(path: path, displayPath: path, kind: kind, declaredSize: size)
    }

    @Test("`./` prefixes, as `tar -C dir .` writes them, are accepted")
    func dotPrefixes() throws {
        var inventory = ArchiveInventory(archiveName: "a", limits: .init())
        #expect(try inventory.admit(header("./", .directory)) == .skip)
        #expect(try inventory.admit(header("./top/", .directory)) == .skip)
        #expect(try inventory.admit(header("./top/a.swift")) == .readFile(relativePath: "a.swift"))
        #expect(try inventory.admit(header("top//sub/./b.swift")) == .readFile(relativePath: "sub/b.swift"))
        #expect(try inventory.finish().topFolder == "top")
    }

    @Test("Windows absolute forms are absolute", arguments: ["C:/x", "c:\\x", "\\\\server\\share\\x", "\\x", "/x"])
    func windowsAbsolute(_ path: String) {
        #expect(ArchivePath.isAbsolute(path))
    }

    @Test("names that only look odd are not absolute", arguments: ["top/C:x", "top/a:b", "1:x/y"])
    func notAbsolute(_ path: String) {
        #expect(!ArchivePath.isAbsolute(path))
    }

    @Test("Unicode normalization forms of one name are duplicates, as on macOS")
    func normalizationDuplicates() throws {
        var inventory = ArchiveInventory(archiveName: "a", limits: .init())
        _ = try inventory.admit(header("top/Pesta\u{F1}as.swift"))
        #expect(throws: ArchiveError.duplicateEntry(archive: "a", entry: "top/Pestan\u{303}as.swift")) {
            _ = try inventory.admit(header("top/Pestan\u{303}as.swift"))
        }
    }

    @Test("a folder entry twice, or a folder where a file was, is refused")
    func folderClashes() throws {
        var inventory = ArchiveInventory(archiveName: "a", limits: .init())
        _ = try inventory.admit(header("top/", .directory))
        #expect(throws: ArchiveError.duplicateEntry(archive: "a", entry: "top/")) {
            _ = try inventory.admit(header("top/", .directory))
        }
        _ = try inventory.admit(header("top/file"))
        #expect(throws: ArchiveError.pathConflict(archive: "a", entry: "top/file/", other: "top/file")) {
            _ = try inventory.admit(header("top/file/", .directory))
        }
        _ = try inventory.admit(header("top/sub/x"))
        #expect(throws: ArchiveError.pathConflict(archive: "a", entry: "top/sub", other: "top/sub/x")) {
            _ = try inventory.admit(header("top/sub"))
        }
    }

    @Test("the size cap trips on a declared size before any data, and on streamed bytes")
    func sizeCap() throws {
        var inventory = ArchiveInventory(archiveName: "a", limits: ExtractionLimits(maxTotalBytes: 100, maxEntries: 10))
        #expect(throws: ArchiveError.tooLarge(archive: "a", entry: "top/big", limit: 100)) {
            _ = try inventory.admit(header("top/big", size: 101))
        }
        #expect(try inventory.admit(header("top/liar", size: 10)) == .readFile(relativePath: "liar"))
        try inventory.account(bytes: 60, entry: "top/liar")
        #expect(throws: ArchiveError.tooLarge(archive: "a", entry: "top/liar", limit: 100)) {
            try inventory.account(bytes: 41, entry: "top/liar")
        }
        // A declared size near Int64.max must not overflow the running total.
        #expect(throws: ArchiveError.tooLarge(archive: "a", entry: "top/huge", limit: 100)) {
            _ = try inventory.admit(header("top/huge", size: .max))
        }
    }

    /// The cap is on entries admitted: exactly `maxEntries` pass and the next is refused,
    /// whatever kind it is (folders count too).
    @Test("the entry cap admits exactly maxEntries entries")
    func entryCapBoundary() throws {
        var inventory = ArchiveInventory(archiveName: "a", limits: ExtractionLimits(maxTotalBytes: 100, maxEntries: 3))
        #expect(try inventory.admit(header("top/", .directory)) == .skip)
        #expect(try inventory.admit(header("top/a.swift")) == .readFile(relativePath: "a.swift"))
        #expect(try inventory.admit(header("top/b.swift")) == .readFile(relativePath: "b.swift"))
        #expect(throws: ArchiveError.tooManyEntries(archive: "a", limit: 3)) {
            _ = try inventory.admit(header("top/c.swift"))
        }
    }

    /// tar and zip readers turn a file named `x/` into a folder before the rules see it,
    /// so only a header made by hand reaches this rule; without it `top/a.swift/` would be
    /// stored as the file `a.swift`.
    @Test("a file whose name ends in '/' is refused, while a folder may")
    func trailingSlashOnAFile() throws {
        var inventory = ArchiveInventory(archiveName: "a", limits: .init())
        _ = try inventory.admit(header("top/ok.swift"))
        #expect(throws: ArchiveError.unsafeName(archive: "a", entry: "top/a.swift/", reason: "ends with '/' but is not a folder")) {
            _ = try inventory.admit(header("top/a.swift/", size: 1))
        }
        #expect(try inventory.admit(header("top/folder/", .directory)) == .skip)
    }

    @Test("DEL and every C1 control in a name are refused, as C0 ones are", arguments: [0x00, 0x1B, 0x1F, 0x7F, 0x80, 0x9B, 0x9F])
    func controlCharacters(_ value: UInt32) throws {
        var inventory = ArchiveInventory(archiveName: "a", limits: .init())
        let name = "top/bad" + String(Character(Unicode.Scalar(value)!)) + ".swift"
        #expect(throws: ArchiveError.unsafeName(archive: "a", entry: name, reason: "contains control characters")) {
            _ = try inventory.admit(header(name))
        }
    }

    @Test("the printable neighbours of the controls are accepted", arguments: [0x20, 0x7E, 0xA0, 0xE9])
    func printableNeighbours(_ value: UInt32) throws {
        var inventory = ArchiveInventory(archiveName: "a", limits: .init())
        let name = "top/ok" + String(Character(Unicode.Scalar(value)!)) + ".swift"
        #expect(try inventory.admit(header(name)) == .readFile(relativePath: String(name.dropFirst(4))))
    }

    @Test("non-UTF-8 and empty names are refused")
    func badNames() {
        var inventory = ArchiveInventory(archiveName: "a", limits: .init())
        let notUTF8 = ArchiveHeader(path: nil, displayPath: "top/\u{FFFD}", kind: .file, declaredSize: 0)
        #expect(throws: ArchiveError.unsafeName(archive: "a", entry: "top/\u{FFFD}", reason: "is not valid UTF-8")) {
            _ = try inventory.admit(notUTF8)
        }
        #expect(throws: ArchiveError.unsafeName(archive: "a", entry: "", reason: "is empty")) {
            _ = try inventory.admit(header(""))
        }
    }
}

/// Archives made by other tools, as users will hand them to `blocks add`.
@Suite("Archives from other tools")
struct ArchiveInteropTests {
    @Test("bsdtar's tar.gz and zip read back, with or without a ./ prefix")
    func bsdtarArchives() throws {
        let scratch = try ArchiveScratch()
        let tree = scratch.path("tree")
        let top = tree.appendingPathComponent("my-block")
        try FileManager.default.createDirectory(at: top.appendingPathComponent("Sub"), withIntermediateDirectories: true)
        try Data("a".utf8).write(to: top.appendingPathComponent("Pestañas.swift"))
        try Data("b".utf8).write(to: top.appendingPathComponent("Sub/B.swift"))
        let expected = ["Pestañas.swift": Data("a".utf8), "Sub/B.swift": Data("b".utf8)]
        func output(_ name: String) -> String { scratch.path(name).path }
        let commands: [(String, [String])] = [
            ("plain.tar.gz", ["-czf", output("plain.tar.gz"), "-C", tree.path, "my-block"]),
            ("dotted.tar.gz", ["-czf", output("dotted.tar.gz"), "-C", tree.path, "./my-block"]),
            ("plain.zip", ["--format", "zip", "-cf", output("plain.zip"), "-C", tree.path, "my-block"]),
            // A zip saved under the wrong name is still read as a zip.
            ("misnamed.tar.gz", ["--format", "zip", "-cf", output("misnamed.tar.gz"), "-C", tree.path, "my-block"]),
        ]
        for (name, arguments) in commands {
            let run = try ArchiveTool.run(["bsdtar"] + arguments, environment: ["LC_ALL": HostTools.utf8Locale])
            #expect(run.status == 0, "\(name): \(run.errors)")
            let read = try Archives.read(scratch.path(name))
            #expect(read.topFolder == "my-block", "\(name)")
            #expect(read.files == expected, "\(name)")
        }
    }
}

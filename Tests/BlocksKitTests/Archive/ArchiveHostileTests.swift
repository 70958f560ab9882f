import Foundation
import Testing

@testable import BlocksKit

/// One crafted archive and the refusal it must get.
struct HostileArchiveCase: Sendable, CustomTestStringConvertible {
    var file: String
    var limits = ExtractionLimits()
    var expected: @Sendable (_ archive: String) -> ArchiveError

    var testDescription: String { file }
}

private let smallEntryCap = ExtractionLimits(maxTotalBytes: 1 << 20, maxEntries: 10)
private let smallSizeCap = ExtractionLimits(maxTotalBytes: 2048, maxEntries: 100)
private let defaultCap = ExtractionLimits().maxTotalBytes

private func bothFormats(
    _ name: String, limits: ExtractionLimits = .init(),
    _ expected: @escaping @Sendable (String) -> ArchiveError
) -> [HostileArchiveCase] {
    [
        HostileArchiveCase(file: name + ".tar.gz", limits: limits, expected: expected),
        HostileArchiveCase(file: name + ".zip", limits: limits, expected: expected),
    ]
}

private let hostileCases: [HostileArchiveCase] =
    bothFormats("absolute") { .absolutePath(archive: $0, entry: "/tmp/blocks-evil.swift") }
    // libarchive turns a zip's `\` into `/` before we see it, so zips show `/`.
    + [HostileArchiveCase(file: "drive-letter.zip") { .absolutePath(archive: $0, entry: "C:/blocks-evil.swift") }]
    + bothFormats("parent") { .parentTraversal(archive: $0, entry: "../blocks-evil.swift") }
    + bothFormats("nested-parent") { .parentTraversal(archive: $0, entry: "top/../../blocks-evil.swift") }
    + [
        HostileArchiveCase(file: "backslash-parent.tar.gz") {
            .parentTraversal(archive: $0, entry: "top\\..\\..\\blocks-evil.swift")
        },
        HostileArchiveCase(file: "backslash-parent.zip") { .parentTraversal(archive: $0, entry: "../blocks-evil.swift") },
        HostileArchiveCase(file: "nested-backslash-parent.zip") {
            .parentTraversal(archive: $0, entry: "top/../../blocks-evil.swift")
        },
        HostileArchiveCase(file: "backslash.tar.gz") {
            .unsafeName(archive: $0, entry: "top\\inner.swift", reason: "contains a backslash")
        },
        HostileArchiveCase(file: "control-char.tar.gz") {
            .unsafeName(archive: $0, entry: "top/bad\u{1B}[2Jname.swift", reason: "contains control characters")
        },
    ]
    // DEL and the C1 controls (CSI, U+009B, is ESC [ on many terminals) are controls too.
    + bothFormats("del-char") { .unsafeName(archive: $0, entry: "top/bad\u{7F}name.swift", reason: "contains control characters") }
    + bothFormats("c1-char") { .unsafeName(archive: $0, entry: "top/bad\u{9B}name.swift", reason: "contains control characters") }
    // With the loose file first there is no top folder yet to name.
    + bothFormats("loose-first") { .entryOutsideTopFolder(archive: $0, entry: "loose.swift", topFolder: nil) }
    // Refused from the header: reading the data would only find it truncated.
    + [
        HostileArchiveCase(file: "declared-large-truncated.tar.gz") {
            .tooLarge(archive: $0, entry: "top/zeros.bin", limit: defaultCap)
        }
    ]
    + bothFormats("symlink") { .symbolicLink(archive: $0, entry: "top/link", target: "/etc/passwd") }
    // Zip has no hard links or block devices; tar has both.
    + [HostileArchiveCase(file: "hardlink.tar.gz") { .hardLink(archive: $0, entry: "top/hard", target: "/etc/passwd") }]
    + bothFormats("char-device") { .specialFile(archive: $0, entry: "top/null", kind: "character device") }
    + [HostileArchiveCase(file: "block-device.tar.gz") { .specialFile(archive: $0, entry: "top/disk", kind: "block device") }]
    // A zip fifo is read as a plain file by libarchive (see `zipQuirks`).
    + [HostileArchiveCase(file: "fifo.tar.gz") { .specialFile(archive: $0, entry: "top/pipe", kind: "fifo") }]
    + bothFormats("duplicate") { .duplicateEntry(archive: $0, entry: "top/ok.swift") }
    + bothFormats("duplicate-case") { .duplicateEntry(archive: $0, entry: "top/OK.swift") }
    + bothFormats("two-tops") { .multipleTopFolders(archive: $0, first: "top", second: "other") }
    + bothFormats("top-level-file") { .entryOutsideTopFolder(archive: $0, entry: "loose.swift", topFolder: "top") }
    + bothFormats("conflict") { .pathConflict(archive: $0, entry: "top/a/b.swift", other: "top/a") }
    + bothFormats("many", limits: smallEntryCap) { .tooManyEntries(archive: $0, limit: 10) }
    + bothFormats("large", limits: smallSizeCap) { .tooLarge(archive: $0, entry: "top/f2.bin", limit: 2048) }
    + bothFormats("empty") { .emptyArchive(archive: $0) }
    // 3 GiB of zeros, refused from the header (honest) or while streaming (lying zip).
    + bothFormats("bomb") { .tooLarge(archive: $0, entry: "top/zeros.bin", limit: defaultCap) }
    + [HostileArchiveCase(file: "bomb-lying.zip") { .tooLarge(archive: $0, entry: "top/zeros.bin", limit: defaultCap) }]

@Suite("Hostile archives")
struct ArchiveHostileTests {
    @Test("each crafted archive gets its refusal", arguments: hostileCases)
    func refusesHostileArchive(_ hostile: HostileArchiveCase) throws {
        let folder = try ArchiveHostileFixtures.shared()
        let url = folder.appendingPathComponent(hostile.file)
        #expect(FileManager.default.fileExists(atPath: url.path))

        // From disk, with the format taken from the name.
        #expect(throws: hostile.expected(url.path)) {
            _ = try Archives.read(url, limits: hostile.limits)
        }
        // From memory, with the format sniffed from the bytes.
        let bytes = try Data(contentsOf: url)
        #expect(throws: hostile.expected("download")) {
            _ = try Archives.read(data: bytes, format: nil, name: "download", limits: hostile.limits)
        }
    }

    /// The real binary adds each crafted archive to a real project, beside a decoy folder:
    /// it fails, and neither the project nor anything beside it changes. The paths the
    /// archives aim at (`../`, `top/../../`, `/tmp/…`) land in the project, in the folder
    /// that holds it, or in /tmp, and each is checked.
    @Test("adding a crafted archive with the binary writes nothing, in the project or beside it", arguments: hostileCases)
    func addingHostileArchiveWritesNothing(_ hostile: HostileArchiveCase) throws {
        let archive = try ArchiveHostileFixtures.shared().appendingPathComponent(hostile.file)
        let base = try TemporaryFolder("blocks-hostile-add")
        defer { base.cleanUp() }
        let project = try TestProject.app(at: base.path("project"), platforms: nil, source: ("x.swift", "let x = 1\n"))
        try base.write("decoy/victim.swift", "// the user's own file\n")
        let evilInTmp = "/tmp/blocks-evil.swift"
        let tmpBefore = FileManager.default.contents(atPath: evilInTmp)
        let projectBefore = try project.treeHash()
        let baseBefore = Self.listing(base.url)

        let result = try project.runBinary(["add", archive.path, "--yes"])

        #expect(result.code == 1, "\(hostile.file): \(result.output)\(result.errors)")
        if hostile.limits == ExtractionLimits() {
            #expect(result.errors.contains("was refused"), "\(hostile.file): \(result.errors)")
        }
        #expect(!result.errors.contains("\u{1B}") && !result.output.contains("\u{1B}"), "\(hostile.file)")
        #expect(try project.treeHash() == projectBefore, "\(hostile.file) changed the project")
        #expect(Self.listing(base.url) == baseBefore, "\(hostile.file) wrote beside the project")
        #expect(FileManager.default.contents(atPath: evilInTmp) == tmpBefore, "\(hostile.file) wrote \(evilInTmp)")
    }

    /// Names and sizes of everything in the folder, to prove a read wrote nothing.
    static func listing(_ folder: URL) -> [String] {
        let names = (try? FileManager.default.subpathsOfDirectory(atPath: folder.path)) ?? []
        return names.sorted().map { name in
            let size = (try? FileManager.default.attributesOfItem(atPath: folder.path + "/" + name)[.size]) as? Int
            return "\(name) \(size ?? -1)"
        }
    }

    @Test("the same shapes are readable once the trick is removed")
    func controlArchivesAreAccepted() throws {
        // Proves the fixtures fail for the intended reason: the maker's good entries read fine.
        let folder = try ArchiveHostileFixtures.shared()
        for name in ["many.tar.gz", "many.zip"] {
            let read = try Archives.read(folder.appendingPathComponent(name))
            #expect(read.topFolder == "top")
            #expect(read.files.count == 20)
        }
        for name in ["large.tar.gz", "large.zip"] {
            let read = try Archives.read(
                folder.appendingPathComponent(name), limits: ExtractionLimits(maxTotalBytes: 3072, maxEntries: 3))
            #expect(read.files == ["f0.bin": Data(count: 1024), "f1.bin": Data(count: 1024), "f2.bin": Data(count: 1024)])
        }
    }

    @Test("libarchive's own zip repairs give safe results")
    func zipQuirks() throws {
        // Windows separators become folders, and Info-Zip's fifo records (made by
        // `zip -FI`) become plain files. Nothing special can come out: we write files.
        let folder = try ArchiveHostileFixtures.shared()
        let backslash = try Archives.read(folder.appendingPathComponent("backslash.zip"))
        #expect(backslash.files == ["ok.swift": Data("// fine\n".utf8), "inner.swift": Data("x".utf8)])
        let fifo = try Archives.read(folder.appendingPathComponent("fifo.zip"))
        #expect(fifo.files == ["ok.swift": Data("// fine\n".utf8), "pipe": Data()])
    }

    @Test("errors name the archive and the entry, and escape control characters")
    func descriptionsAreHelpful() {
        let error = ArchiveError.symbolicLink(archive: "tabs.zip", entry: "top/link", target: "/etc/passwd")
        #expect(error.description.contains("tabs.zip"))
        #expect(error.description.contains("'top/link'"))
        #expect(error.description.contains("Nothing was written"))
        let sneaky = ArchiveError.unsafeName(archive: "a.tar.gz", entry: "x\u{1B}[2J", reason: "contains control characters")
        #expect(!sneaky.description.contains("\u{1B}"))
        #expect(sneaky.description.contains("\\u{1B}"))
    }
}

@Suite("Unreadable archives")
struct ArchiveCorruptionTests {
    @Test("a truncated archive gives libarchive's reason", arguments: ArchiveFormat.allCases)
    func truncated(_ format: ArchiveFormat) throws {
        let whole = try Archives.data(ArchiveSamples.entries, format: format)
        let half = whole.prefix(whole.count / 2)
        let error = #expect(throws: ArchiveError.self) {
            _ = try Archives.read(data: half, format: format, name: "half")
        }
        guard case .unreadable(let archive, let message)? = error else {
            Issue.record("expected .unreadable, got \(String(describing: error))")
            return
        }
        #expect(archive == "half")
        #expect(!message.isEmpty)
    }

    @Test("a flipped byte in zip data fails its CRC")
    func corruptZip() throws {
        var bytes = try Archives.data(
            [ArchiveEntry(path: "top/a.txt", data: Data(repeating: UInt8(ascii: "a"), count: 4000))], format: .zip)
        // Find the file's local header by its name; its data follows the name and extra field.
        let name = Data("top/a.txt".utf8)
        guard let nameRange = bytes.range(of: name) else {
            Issue.record("name not found in the zip")
            return
        }
        let header = nameRange.lowerBound - 30
        let extraLength = Int(bytes[header + 28]) | Int(bytes[header + 29]) << 8
        bytes[nameRange.upperBound + extraLength + 10] ^= 0xFF
        let error = #expect(throws: ArchiveError.self) {
            _ = try Archives.read(data: bytes, format: .zip, name: "flipped.zip")
        }
        guard case .unreadable(let archive, _)? = error else {
            Issue.record("expected .unreadable, got \(String(describing: error))")
            return
        }
        #expect(archive == "flipped.zip")
    }

    @Test("bytes of neither format are refused by name")
    func unknownFormat() throws {
        let junk = Data("not an archive at all".utf8)
        #expect(throws: ArchiveError.unknownFormat(archive: "junk")) {
            _ = try Archives.read(data: junk, format: nil, name: "junk")
        }
        #expect(throws: ArchiveError.unknownFormat(archive: "empty")) {
            _ = try Archives.read(data: Data(), format: nil, name: "empty")
        }
        let scratch = try ArchiveScratch()
        let named = scratch.path("junk.tar.gz")
        try junk.write(to: named)
        let error = #expect(throws: ArchiveError.self) { _ = try Archives.read(named) }
        guard case .unreadable(let archive, let message)? = error else {
            Issue.record("expected .unreadable, got \(String(describing: error))")
            return
        }
        #expect(archive == named.path)
        #expect(!message.isEmpty)
        let unnamed = scratch.path("junk.bin")
        try junk.write(to: unnamed)
        #expect(throws: ArchiveError.unknownFormat(archive: unnamed.path)) { _ = try Archives.read(unnamed) }
    }

    @Test("a missing file is unreadable, not a crash")
    func missingFile() throws {
        let scratch = try ArchiveScratch()
        let missing = scratch.path("missing.zip")
        #expect(throws: ArchiveError.unreadable(archive: missing.path, message: "No such file or directory")) {
            _ = try Archives.read(missing)
        }
    }
}

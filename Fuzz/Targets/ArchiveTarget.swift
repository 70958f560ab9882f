#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `Archives.read(data:)`: libarchive (loaded with dlopen, as in the tool) reads the
/// bytes as a tar.gz and as a zip, and `ArchiveInventory` admits the entries. It never
/// crashes or runs away, and whatever it returns is safe to write: one plain top folder,
/// relative paths without `..`, backslashes or control characters, no two files whose
/// names collide on a case-insensitive disk, no file where another needs a folder, and
/// no more than the caps, which hold exactly.
enum ArchiveTarget {
    static let target = FuzzTarget(name: "archive", prepare: prepare, run: run)

    static let limits = ExtractionLimits()

    /// Without libarchive every input would be refused the same way and the run would
    /// look clean, so stop at once; and prove the reader works on an archive it wrote.
    static func prepare() {
        guard LibArchive.isLibraryAvailable else {
            FuzzCheck.fail("libarchive did not load with dlopen: \(LibArchive.missingLibraryMessage)")
        }
        let entries = [ArchiveEntry(path: "probe/a.swift", data: Data("let a = 1\n".utf8))]
        for format in ArchiveFormat.allCases {
            do {
                let bytes = try Archives.data(entries, format: format)
                let read = try Archives.read(data: bytes, format: format, name: "probe")
                FuzzCheck.expect(read.topFolder == "probe" && read.files["a.swift"] == entries[0].data, "the probe \(format) read back wrong")
            } catch {
                FuzzCheck.fail("the probe \(format) archive failed: \(error)")
            }
        }
        FileDescriptorSink.standardError.write("archive: libarchive loaded with dlopen; a probe tar.gz and zip read back\n")
    }

    static func run(_ data: Data) {
        for format in ArchiveFormat.allCases {
            guard let extracted = try? Archives.read(data: data, format: format, name: "fuzz.\(format.rawValue)", limits: limits) else {
                continue
            }
            check(extracted, format: format)
            checkCaps(data, format: format, extracted: extracted)
        }
    }

    /// The caps hold to the byte and the entry: read again with a cap just below what the
    /// archive holds, it must be refused for that cap. (At the default caps a 64 KiB input
    /// can never reach 10,000 entries or 64 MiB, so this is what exercises them.)
    static func checkCaps(_ data: Data, format: ArchiveFormat, extracted: ExtractedArchive) {
        let total = extracted.files.values.reduce(0) { $0 + Int64($1.count) }
        if total > 0 {
            let tight = ExtractionLimits(maxTotalBytes: total - 1, maxEntries: limits.maxEntries)
            do {
                _ = try Archives.read(data: data, format: format, name: "fuzz", limits: tight)
                FuzzCheck.fail("\(format): \(total) bytes read with a cap of \(total - 1)")
            } catch ArchiveError.tooLarge {
            } catch {
                FuzzCheck.fail("\(format): a cap of \(total - 1) bytes gave \(error), not tooLarge")
            }
        }
        if !extracted.files.isEmpty {
            let tight = ExtractionLimits(maxTotalBytes: limits.maxTotalBytes, maxEntries: extracted.files.count - 1)
            do {
                _ = try Archives.read(data: data, format: format, name: "fuzz", limits: tight)
                FuzzCheck.fail("\(format): \(extracted.files.count) files read with a cap of \(extracted.files.count - 1) entries")
            } catch ArchiveError.tooManyEntries {
            } catch {
                FuzzCheck.fail("\(format): a cap of \(extracted.files.count - 1) entries gave \(error), not tooManyEntries")
            }
        }
    }

    static func check(_ extracted: ExtractedArchive, format: ArchiveFormat) {
        FuzzCheck.expect(isSafeComponent(extracted.topFolder), "\(format): unsafe top folder \(extracted.topFolder.debugDescription)")
        FuzzCheck.expect(extracted.files.count <= limits.maxEntries, "\(format): \(extracted.files.count) files, over the cap")
        let total = extracted.files.values.reduce(0) { $0 + Int64($1.count) }
        FuzzCheck.expect(total <= limits.maxTotalBytes, "\(format): \(total) bytes, over the cap")
        var folded: Set<String> = []
        for path in extracted.files.keys {
            let parts = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
            FuzzCheck.expect(parts.allSatisfy(isSafeComponent), "\(format): unsafe file path \(path.debugDescription)")
            FuzzCheck.expect(folded.insert(path.lowercased()).inserted, "\(format): two files collide as \(path.lowercased().debugDescription)")
        }
        for path in folded {
            var prefix = path
            while let slash = prefix.lastIndex(of: "/") {
                prefix = String(prefix[..<slash])
                FuzzCheck.expect(!folded.contains(prefix), "\(format): \(prefix.debugDescription) is a file and a folder")
            }
        }
    }

    /// One name a file system takes as itself, inside the folder it is written to.
    static func isSafeComponent(_ name: String) -> Bool {
        !name.isEmpty && name != "." && name != ".." && !name.contains("\\") && !name.contains("/")
            && !name.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }
    }
}

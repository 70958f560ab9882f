import Foundation
import Testing

@testable import BlocksKit

/// Archive names belong to `ArchiveFormat` (issue 33): the suffixes it reads, the ones the
/// exporter strips, and the format a client prefers.
@Suite struct ArchiveFormatTests {
    @Test func theSuffixesNameTheFormatInAnyCase() {
        #expect(ArchiveFormat.forFile("tabs.tar.gz") == .tarGzip)
        #expect(ArchiveFormat.forFile("TABS.TGZ") == .tarGzip)
        #expect(ArchiveFormat.forFile("blocks/tabs.Zip") == .zip)
        #expect(ArchiveFormat.forFile("tabs.gz") == nil)
        #expect(ArchiveFormat.forFile("tabs") == nil)
        #expect(ArchiveFormat.allCases.allSatisfy { ArchiveFormat.forFile("x" + $0.suffixes[0]) == $0 })
    }

    @Test func theExportFolderIsTheNameWithoutItsSuffixes() {
        #expect(ArchiveFormat.strippingSuffixes("tabs.tar.gz") == "tabs")
        #expect(ArchiveFormat.strippingSuffixes("Tabs.TGZ") == "Tabs")
        #expect(ArchiveFormat.strippingSuffixes("tabs.zip") == "tabs")
        #expect(ArchiveFormat.strippingSuffixes("tabs.gz") == "tabs.gz")
        #expect(BlockExporter.folderName(for: URL(fileURLWithPath: "/tmp/my-blocks.tar.gz")) == "my-blocks")
    }

    @Test func bothPreferredArchivesTakeTarGzipElseTheFirstByPath() {
        let tar = RegistryArchive(path: "blocks/a.tar.gz", sha256: "1", size: 1)
        let zip = RegistryArchive(path: "blocks/a.zip", sha256: "2", size: 1)
        let other = RegistryArchive(path: "blocks/a.7z", sha256: "3", size: 1)
        #expect(RegistryArchive.preferred(in: ["zip": zip, "tar.gz": tar]) == tar)
        #expect(RegistryArchive.preferred(in: ["zip": zip, "7z": other]) == other)
        #expect(RegistryArchive.preferred(in: [:]) == nil)
    }
}

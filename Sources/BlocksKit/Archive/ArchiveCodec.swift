/// One archive format, as a plugin: how to recognize it, write it and read it.
///
/// `Archives` looks codecs up by `ArchiveFormat`, so adding a format means adding a
/// codec and a case, nothing else. Every codec writes reproducibly (see `ArchiveLayout`)
/// and reads through `ArchiveInventory`, so all formats refuse the same hostile entries.
public protocol ArchiveCodec: Sendable {
    var format: ArchiveFormat { get }
    /// Whether the first bytes of a file look like this format.
    func recognizes(leadingBytes: Data) -> Bool
    /// The archive's bytes. Entries are validated, sorted and given folder entries.
    func encode(_ entries: [ArchiveEntry], archiveName: String) throws -> Data
    /// Reads and validates every entry, holding the files in memory.
    func decode(_ source: ArchiveSource, archiveName: String, limits: ExtractionLimits) throws -> ExtractedArchive
}

extension ArchiveCodec {
    public func encode(_ entries: [ArchiveEntry], archiveName: String) throws -> Data {
        try encode(entries, archiveName: archiveName, modificationTime: 0)
    }

    /// `modificationTime` exists so tests can show the time-zone test would catch a
    /// writer that stamps local times; real archives always use 0.
    func encode(_ entries: [ArchiveEntry], archiveName: String, modificationTime: Int) throws -> Data {
        let items = try ArchiveLayout.items(for: entries, archiveName: archiveName)
        return try encode(laidOut: items, archiveName: archiveName, modificationTime: modificationTime)
    }

    /// Writes entries already checked and ordered by `ArchiveLayout`.
    func encode(laidOut items: [ArchiveLayoutItem], archiveName: String, modificationTime: Int = 0) throws -> Data {
        try LibArchive.write(items, format: format, archiveName: archiveName, modificationTime: modificationTime)
    }

    public func decode(_ source: ArchiveSource, archiveName: String, limits: ExtractionLimits) throws -> ExtractedArchive {
        var inventory = ArchiveInventory(archiveName: archiveName, limits: limits)
        try LibArchive.read(source, format: format, into: &inventory)
        return try inventory.finish()
    }
}

/// Gzip-compressed tar in the POSIX pax format (plain ustar unless a name needs more).
/// Entries have mtime 0, owner 0:0 with no names, and the gzip header has no timestamp.
public struct TarGzipCodec: ArchiveCodec {
    public init() {}
    public var format: ArchiveFormat { .tarGzip }

    public func recognizes(leadingBytes: Data) -> Bool {
        leadingBytes.starts(with: [0x1F, 0x8B])
    }
}

/// Deflated zip with UTF-8 names. An mtime of 0 is clamped by libarchive to 1980-01-01,
/// the same in every time zone, which is what makes zips reproducible.
public struct ZipCodec: ArchiveCodec {
    public init() {}
    public var format: ArchiveFormat { .zip }

    public func recognizes(leadingBytes: Data) -> Bool {
        // A local file header, or the end record of an empty zip.
        leadingBytes.starts(with: [0x50, 0x4B, 0x03, 0x04]) || leadingBytes.starts(with: [0x50, 0x4B, 0x05, 0x06])
    }
}

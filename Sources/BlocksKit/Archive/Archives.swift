/// The front door for archives: write reproducible ones, read untrusted ones.
///
/// Reading never touches the disk beyond the archive itself; callers get validated files
/// in memory and write them where they choose, so a hostile archive can write nothing.
public enum Archives {
    /// One codec per format, in `ArchiveFormat.allCases` order; formats are plugins.
    public static let codecs: [any ArchiveCodec] = ArchiveFormat.allCases.map(codec(for:))

    /// The one registration of each format's codec.
    public static func codec(for format: ArchiveFormat) -> any ArchiveCodec {
        switch format {
        case .tarGzip: return TarGzipCodec()
        case .zip: return ZipCodec()
        }
    }

    /// Loads libarchive now (it is otherwise loaded by the first archive read or written),
    /// so a caller can do it ahead, on another thread.
    public static func prepare() {
        _ = LibArchive.isLibraryAvailable
    }

    /// The archive's bytes. `name` only appears in errors.
    public static func data(_ entries: [ArchiveEntry], format: ArchiveFormat, name: String? = nil) throws -> Data {
        try codec(for: format).encode(entries, archiveName: name ?? "(new \(format.rawValue) archive)")
    }

    /// The same entries in several formats, checked and ordered once for all of them (a
    /// registry build writes every block as both tar.gz and zip). `name` appears in errors.
    public static func data(_ entries: [ArchiveEntry], formats: [ArchiveFormat], name: String) throws -> [Data] {
        let items = try ArchiveLayout.items(for: entries, archiveName: name)
        return try formats.map { try codec(for: $0).encode(laidOut: items, archiveName: name) }
    }

    /// Writes the archive atomically: a temporary file in the same folder, then a rename,
    /// so readers never see half an archive and a failure leaves the old file in place.
    public static func write(_ entries: [ArchiveEntry], format: ArchiveFormat, to url: URL) throws {
        let bytes = try data(entries, format: format, name: url.path)
        do {
            try AtomicFile.write(bytes, to: url)
        } catch let failure as AtomicFile.Failure {
            throw ArchiveError.writeFailed(archive: url.path, message: failure.reason)
        }
    }

    /// Reads an archive file, streaming it from disk. The first bytes decide the format;
    /// when they match none, the name does (`.tar.gz`, `.tgz`, `.zip`), so libarchive can
    /// say what is wrong with the file.
    public static func read(_ url: URL, limits: ExtractionLimits = .init()) throws -> ExtractedArchive {
        let name = url.path
        let format = try detectFormat(
            leadingBytes(of: url, archiveName: name), fileName: url.lastPathComponent,
            archiveName: name)
        return try codec(for: format).decode(.file(url), archiveName: name, limits: limits)
    }

    /// Reads an archive held in memory, such as a download. With `format` nil, the first
    /// bytes decide, then `name`'s extension. `name` also appears in errors.
    public static func read(
        data: Data, format: ArchiveFormat?, name: String, limits: ExtractionLimits = .init()
    ) throws -> ExtractedArchive {
        let chosen = try format ?? detectFormat(data.prefix(8), fileName: name, archiveName: name)
        return try codec(for: chosen).decode(.bytes(data), archiveName: name, limits: limits)
    }

    private static func detectFormat(_ leadingBytes: Data, fileName: String, archiveName: String) throws -> ArchiveFormat {
        if let sniffed = codecs.first(where: { $0.recognizes(leadingBytes: leadingBytes) }) { return sniffed.format }
        if let named = ArchiveFormat.forFile(fileName) { return named }
        throw ArchiveError.unknownFormat(archive: archiveName)
    }

    /// The format whose codec recognizes these bytes.
    public static func sniff(_ leadingBytes: Data, archiveName: String) throws -> ArchiveFormat {
        guard let codec = codecs.first(where: { $0.recognizes(leadingBytes: leadingBytes) }) else {
            throw ArchiveError.unknownFormat(archive: archiveName)
        }
        return codec.format
    }

    private static func leadingBytes(of url: URL, archiveName: String) throws -> Data {
        var bytes = Data()
        let failure = FileDescriptorIO.readChunks(of: url.path, chunkSize: 8, limit: 8) { bytes.append(contentsOf: $0) }
        guard failure == 0 else {
            throw ArchiveError.unreadable(archive: archiveName, message: String(cString: strerror(failure)))
        }
        return bytes
    }
}

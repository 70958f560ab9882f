import Foundation
// Temporary: replaced when the archive and install branches merge.
public enum Archives {
    public static func write(_ entries: [ArchiveEntry], format: ArchiveFormat, to url: URL) throws { fatalError("pending") }
    public static func data(_ entries: [ArchiveEntry], format: ArchiveFormat) throws -> Data { fatalError("pending") }
    public static func read(_ url: URL, limits: ExtractionLimits = .init()) throws -> ExtractedArchive { fatalError("pending") }
    public static func read(data: Data, format: ArchiveFormat?, name: String, limits: ExtractionLimits = .init()) throws -> ExtractedArchive { fatalError("pending") }
}
public enum LicenseHeader {
    public static func apply(to data: Data, holders: [String], year: Int) -> Data { fatalError("pending") }
    public static func strip(_ data: Data) -> Data { fatalError("pending") }
}

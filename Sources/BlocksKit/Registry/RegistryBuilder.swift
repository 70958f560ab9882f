#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Dispatch
#if canImport(Glibc)
import Glibc
#endif

/// Writes a static registry: per-block `.tar.gz` and `.zip` archives, a metadata file per
/// block, and `index.json` last, so a server never serves an index naming a missing file.
///
/// Published archives are immutable: a block whose version already has archives is left
/// untouched when its source is unchanged, and is an error when its source changed
/// without a version bump.
public struct RegistryBuilder: Sendable {
    public struct Report: Sendable, Equatable {
        public var written: [String] = []
        public var unchanged: [String] = []
    }

    public let output: URL
    public let packager: BlockPackager

    public init(output: URL, packager: BlockPackager) {
        self.output = output
        self.packager = packager
    }

    public static func archivePath(name: String, version: String, format: ArchiveFormat) -> String {
        "archives/\(name)-\(version).\(format.fileExtension)"
    }

    public func build(_ blocks: [BlockContent]) throws -> Report {
        let previous = (try? Data(contentsOf: output.appendingPathComponent("index.json")))
            .flatMap { try? RegistryIndex.decode($0, location: output.path) }
        try FileManager.default.createDirectory(at: output.appendingPathComponent("archives"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: output.appendingPathComponent("blocks"), withIntermediateDirectories: true)

        // Blocks are independent, so both cores can write archives at once.
        let results = ConcurrentMap.map(blocks) { block in
            Result { try self.publish(block, previous: previous?.entry(named: block.manifest.name)) }
        }
        var report = Report()
        var entries: [RegistryEntry] = []
        for result in results {
            let (entry, wrote) = try result.get()
            entries.append(entry)
            if wrote { report.written.append(entry.manifest.name) } else { report.unchanged.append(entry.manifest.name) }
        }
        try AtomicFile.write(try RegistryIndex(blocks: entries).encoded(), to: output.appendingPathComponent("index.json"))
        return report
    }

    /// Writes one block's archives and metadata unless they are already published.
    func publish(_ block: BlockContent, previous: RegistryEntry?) throws -> (RegistryEntry, Bool) {
        let manifest = block.manifest
        let manifestData = try BlockPackager.manifestData(manifest)
        let sourceHash = try BlockPackager.sourceHash(block, manifestData: manifestData)
        let metadataPath = "blocks/\(manifest.name).json"
        if let previous, previous.manifest.version == manifest.version, archivesIntact(previous) {
            guard previous.sourceSHA256 == sourceHash else {
                throw RegistryError.publishedVersionChanged(block: manifest.name, version: manifest.version)
            }
            return (previous, false)
        }
        let folder = "\(manifest.name)-\(manifest.version)"
        let entries = try packager.entries(for: block, folder: folder, manifestData: manifestData)
        var archives: [String: RegistryArchive] = [:]
        for format in ArchiveFormat.allCases {
            let path = Self.archivePath(name: manifest.name, version: manifest.version, format: format)
            let url = output.appendingPathComponent(path)
            let data = try Archives.data(entries, format: format)
            if access(url.path, F_OK) == 0, let existing = FileManager.default.contents(atPath: url.path) {
                // An archive of this version exists from an older build (perhaps from
                // another year): published bytes never change, whatever the headers say.
                if existing != data && !sameSource(existingArchive: url, as: block) {
                    throw RegistryError.publishedVersionChanged(block: manifest.name, version: manifest.version)
                }
                archives[format.rawValue] = RegistryArchive(path: path, sha256: SHA256.hex(existing), size: Int64(existing.count))
                continue
            }
            try AtomicFile.write(data, to: url)
            archives[format.rawValue] = RegistryArchive(path: path, sha256: SHA256.hex(data), size: Int64(data.count))
        }
        let entry = RegistryEntry(manifest: manifest, metadata: metadataPath, sourceSHA256: sourceHash, archives: archives)
        try AtomicFile.write(try StableJSON.data(entry), to: output.appendingPathComponent(metadataPath))
        return (entry, true)
    }

    func archivesIntact(_ entry: RegistryEntry) -> Bool {
        entry.archives.values.allSatisfy { archive in
            let url = output.appendingPathComponent(archive.path)
            return (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int64) == archive.size
        }
    }

    /// Whether an archive built earlier (perhaps in another year) holds this block's source.
    func sameSource(existingArchive url: URL, as block: BlockContent) -> Bool {
        guard let extracted = try? Archives.read(url) else { return false }
        guard let manifestData = extracted.files["block.json"],
              let manifest = try? JSONDecoder().decode(BlockManifest.self, from: manifestData),
              manifest == block.manifest else { return false }
        return block.manifest.files.allSatisfy { file in
            guard let shipped = extracted.files[file.path], let source = block.files[file.path] else { return false }
            return LicenseHeader.strip(shipped) == source
        }
    }
}

/// A parallel map over an array that keeps the order, for CPU-bound work.
enum ConcurrentMap {
    static func map<Input: Sendable, Output: Sendable>(_ items: [Input], _ transform: @escaping @Sendable (Input) -> Output) -> [Output] {
        // One item gains nothing from a second thread, and starting the pool costs more than `add` of one block.
        if items.count < 2 { return items.map(transform) }
        let workers = max(1, min(ProcessInfo.processInfo.activeProcessorCount, items.count))
        let chunk = (items.count + workers - 1) / workers
        let lock = Lock()
        nonisolated(unsafe) var results = [Output?](repeating: nil, count: items.count)
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            let start = worker * chunk
            let end = min(start + chunk, items.count)
            guard start < end else { return }
            let part = items[start..<end].map(transform)
            lock.lock()
            results.replaceSubrange(start..<end, with: part.map { Optional($0) })
            lock.unlock()
        }
        return results.compactMap { $0 }
    }
}

/// The blocks a build publishes, loaded a batch at a time: a catalog of 100,000 blocks
/// with their Swift files took over a gigabyte when read whole before the first archive
/// was written.
public struct BlockBatches {
    /// The blocks' names, in the order they are built.
    public let names: [String]
    let load: ([String]) throws -> [BlockContent]
    /// A fingerprint of a block's files from `stat` alone, taken before it is loaded
    /// (`SearchFingerprint.tree`), or nil when there is none: with one, a build records
    /// the block (`BuildRecord`) and the next build skips it unread while it holds.
    let fingerprint: @Sendable (String) -> String?
    /// How many blocks are in memory at once: enough to keep both cores busy.
    let batchSize: Int

    /// Blocks read by `load`, which is given a batch of `names` at a time.
    public init(
        names: [String], fingerprint: @escaping @Sendable (String) -> String? = { _ in nil }, load: @escaping ([String]) throws -> [BlockContent]
    ) {
        self.init(names: names, batchSize: 512, fingerprint: fingerprint, load: load)
    }

    init(names: [String], batchSize: Int, fingerprint: @escaping @Sendable (String) -> String? = { _ in nil }, load: @escaping ([String]) throws -> [BlockContent]) {
        self.names = names
        self.batchSize = batchSize
        self.fingerprint = fingerprint
        self.load = load
    }

    /// The blocks of a catalog folder, with their folders' fingerprints. A file changed in
    /// the two seconds before the build began leaves its block without one.
    public init(catalog: CatalogSource) throws {
        let names = try catalog.blockNames()
        guard case .folder(let root) = catalog.storage else {
            self.init(names: names, load: catalog.contents(of:))
            return
        }
        let cutoff = Int64((Date().timeIntervalSince1970 - 2) * 1_000_000_000)
        let path = root.path
        self.init(names: names, fingerprint: { SearchFingerprint.tree(at: path + "/" + $0, changedBefore: cutoff) }, load: catalog.contents(of:))
    }

    /// Blocks already in memory.
    public init(_ blocks: [BlockContent]) {
        let byName = Dictionary(blocks.map { ($0.manifest.name, $0) }, uniquingKeysWith: { first, _ in first })
        self.init(names: blocks.map(\.manifest.name)) { names in names.compactMap { byName[$0] } }
    }

    /// Calls `body` with each batch, loaded just before it.
    func forEachBatch(_ body: ([BlockContent]) throws -> Void) throws {
        try forEachBatchOfNames { try body(try load($0)) }
    }

    /// Calls `body` with each batch's names, which it loads (`load`) as it needs.
    func forEachBatchOfNames(_ body: ([String]) throws -> Void) throws {
        for start in stride(from: 0, to: names.count, by: batchSize) {
            try body(Array(names[start..<min(start + batchSize, names.count)]))
        }
    }
}

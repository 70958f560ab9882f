/// The blocks a build publishes, loaded a batch at a time: a catalog of 100,000 blocks
/// with their Swift files took over a gigabyte when read whole before the first archive
/// was written.
public struct BlockBatches {
    /// The blocks' names, in the order they are built.
    public let names: [String]
    private let load: ([String]) throws -> [BlockContent]
    /// How many blocks are in memory at once: enough to keep both cores busy.
    let batchSize: Int

    /// Blocks read by `load`, which is given a batch of `names` at a time.
    public init(names: [String], load: @escaping ([String]) throws -> [BlockContent]) {
        self.init(names: names, batchSize: 512, load: load)
    }

    init(names: [String], batchSize: Int, load: @escaping ([String]) throws -> [BlockContent]) {
        self.names = names
        self.batchSize = batchSize
        self.load = load
    }

    /// Blocks already in memory.
    public init(_ blocks: [BlockContent]) {
        let byName = Dictionary(blocks.map { ($0.manifest.name, $0) }, uniquingKeysWith: { first, _ in first })
        self.init(names: blocks.map(\.manifest.name)) { names in names.compactMap { byName[$0] } }
    }

    /// Calls `body` with each batch, loaded just before it.
    func forEachBatch(_ body: ([BlockContent]) throws -> Void) throws {
        for start in stride(from: 0, to: names.count, by: batchSize) {
            try body(try load(Array(names[start..<min(start + batchSize, names.count)])))
        }
    }
}

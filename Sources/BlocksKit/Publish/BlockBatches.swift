/// The blocks a build publishes, loaded a batch at a time: a catalog of 100,000 blocks
/// with their Swift files took over a gigabyte when read whole before the first archive
/// was written.
public struct BlockBatches {
    /// The blocks' names, in the order they are built.
    public let names: [String]
    private let load: ([String]) throws -> [BlockContent]
    private let check: ([String]) throws -> Void
    /// How many blocks are in memory at once: enough to keep both cores busy.
    static let batchSize = 512

    /// Blocks read by `load`, which is given a batch of `names` at a time. `check` throws
    /// what `load` would, more cheaply (`CatalogSource.check`); by default it loads.
    public init(names: [String], load: @escaping ([String]) throws -> [BlockContent], check: (([String]) throws -> Void)? = nil) {
        self.names = names
        self.load = load
        self.check = check ?? { _ = try load($0) }
    }

    /// Blocks already in memory.
    public init(_ blocks: [BlockContent]) {
        let byName = Dictionary(blocks.map { ($0.manifest.name, $0) }, uniquingKeysWith: { first, _ in first })
        self.init(names: blocks.map(\.manifest.name)) { names in names.compactMap { byName[$0] } }
    }

    /// Throws what loading any block would, a batch at a time, holding none of them.
    func checkAll() throws {
        for start in stride(from: 0, to: names.count, by: Self.batchSize) {
            try check(Array(names[start..<min(start + Self.batchSize, names.count)]))
        }
    }

    /// Calls `body` with each batch, loaded just before it.
    func forEachBatch(_ body: ([BlockContent]) throws -> Void) throws {
        for start in stride(from: 0, to: names.count, by: Self.batchSize) {
            try body(try load(Array(names[start..<min(start + Self.batchSize, names.count)])))
        }
    }
}

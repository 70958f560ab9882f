/// The sizes every blocks client refuses past (the index, a block's metadata file, an
/// archive), checked by `build` before it writes each file. A registry its own clients
/// cannot read is a build error with the reason and the way out, never a surprise for the
/// first person who searches it.
enum ClientCaps {
    /// The cap a client applies to the file at `path` in a registry, if any.
    static func limit(forPath path: String) -> Int64? {
        if path == "index.json" || SplitIndex.isPartPath(path) { return RegistryIndex.maximumBytes }
        if path.hasPrefix("blocks/"), path.hasSuffix(".json") { return BlockMetadata.maximumBytes }
        if ArchiveFormat.forFile(path) != nil { return TransferLimits.maximumArchiveBytes }
        return nil
    }

    /// Refuses `data` as the file at `path` when a client would refuse it.
    static func check(_ data: Data, path: String, blocks: Int) throws {
        guard let limit = limit(forPath: path), Int64(data.count) > limit else { return }
        throw RegistryError.tooLargeForClients(path: path, bytes: Int64(data.count), limit: limit, advice: advice(forPath: path, bytes: data.count, blocks: blocks))
    }

    /// The way out for each kind of file.
    static func advice(forPath path: String, bytes: Int, blocks: Int) -> String {
        if path == "index.json" {
            let perBlock = bytes / max(blocks, 1)
            let fitting = Int(RegistryIndex.maximumBytes) / max(perBlock, 1)
            return "the index holds \(blocks) blocks at about \(perBlock / 1024) KB each; build with --split-index (clients read it from this version on), "
                + "or split the catalog into registries of fewer than \(fitting) blocks and name them in blocks.json's \"registries\""
        }
        if SplitIndex.isPartPath(path) { return "the \(blocks) blocks it holds are too large for one part; split the catalog into registries and name them in blocks.json's \"registries\"" }
        if ArchiveFormat.forFile(path) != nil { return "make the block smaller: an archive holds its code, not assets" }
        return "it lists every published version of the block; publish it under a new name to start a new list"
    }
}

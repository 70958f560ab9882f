extension SearchableBlock {
    /// A block whose files are at hand.
    init(_ content: BlockContent) {
        self.init(manifest: content.manifest, codeNames: CodeNames.names(of: content))
    }
}

extension RegistrySource {
    /// A source that cannot read its blocks' code is searched by their manifests alone.
    public func searchableBlocks() throws -> [SearchableBlock] {
        try manifests().map { SearchableBlock(manifest: $0, codeNames: []) }
    }
}

extension CatalogSource {
    /// Every manifest with the names in its code files, read as `manifests()` reads the
    /// manifests: in order from the binary, on every core from a folder.
    public func searchableBlocks() throws -> [SearchableBlock] {
        let folders = try blockNames()
        if isEmbedded { return try folders.map(searchableBlock(inFolder:)) }
        return try ConcurrentMap.map(folders) { folder in Result { try self.searchableBlock(inFolder: folder) } }.map { try $0.get() }
    }

    func searchableBlock(inFolder folder: String) throws -> SearchableBlock {
        let manifest = try manifest(inFolder: folder)
        return SearchableBlock(manifest: manifest, codeNames: CodeNames.names(of: manifest) { file("\(folder)/\($0)") })
    }
}

extension BuiltRegistrySource {
    /// The names `blocks build` wrote into `index.json`; an index from before it did has none.
    public func searchableBlocks() throws -> [SearchableBlock] {
        try index().blocks.map { SearchableBlock(manifest: $0.manifest, codeNames: $0.codeNames) }
    }
}

extension ArchiveFileSource {
    /// An archive holds the files themselves.
    public func searchableBlocks() throws -> [SearchableBlock] {
        blocks.map(SearchableBlock.init)
    }
}

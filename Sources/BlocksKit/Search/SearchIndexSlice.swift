/// Blocks made ready for the search index without a manifest each: their names, their
/// rows, and their postings by word.
///
/// A split registry's ranges come this way (`SearchIndexSlice(_:order:)`), where each
/// string of a range is split into words once however many blocks use it
/// (`CodedSearchWords`). Making, reading and freeing a manifest per block, and splitting
/// its text anew, was most of a first search of 100,000 blocks.
struct SearchIndexSlice: Sendable {
    var names: [String]
    /// By block, aligned with `names`.
    var rows: [SearchIndexRow]
    /// The slice's words in the order first met, and their postings by word, the slice's
    /// first block numbered 0 (`OrderedPostings`).
    var words: PackedStrings
    var lists: PostingLists
    /// `rows` as the index stores them (`RowGroups`), encoded on the slice's core.
    var rowGroups: [[UInt8]]

    init(names: [String], rows: [SearchIndexRow], words: PackedStrings, lists: PostingLists) {
        self.names = names
        self.rows = rows
        self.words = words
        self.lists = lists
        rowGroups = RowGroups.encode(rows)
    }
}

/// A source that hands the search index its blocks as `SearchIndexSlice`s, and gives back
/// the manifests of the blocks a search shows: a split registry, whose index then stores
/// no manifest (`SearchIndexStore.manifestsInSource`).
protocol SearchIndexSliceSource: Sendable {
    /// Hands every block to `body`, a slice at a time in the order of `manifests()`.
    /// Returns false, having handed nothing, when this source has only manifests to give.
    func searchIndexSlices(_ body: (SearchIndexSlice) throws -> Void) throws -> Bool
    /// The manifests search shows for the named blocks, each handed to `body` with its
    /// place in `names`, in the order the source reads them.
    func forEachSearchManifest(named names: [String], _ body: (_ place: Int, BlockManifest) throws -> Void) throws
}

/// One block's row in the search index: the result table's columns and what the filters
/// read, folded once when the index is written.
struct SearchIndexRow: Sendable, Equatable {
    /// A platform table as a row stores it, made once for each distinct table.
    struct Platforms: Sendable, Equatable {
        /// As the result table shows it (`BlockSummary.platformText`).
        let text: String
        /// Platform and minimum, in platform order (`PackedStrings`).
        let packed: [UInt8]

        init(_ table: [String: String]) {
            text = BlockSummary.platformText(table)
            packed = PackedStrings(table.sorted { $0.key < $1.key }.flatMap { [$0.key, $0.value] }).encoded
        }
    }

    let name: String
    let platforms: Platforms
    let level: String
    /// The English title (`BlockManifest.localized`).
    let title: String
    let foldedCategory: String
    /// `BlockFilterRecord.foldedTags`, packed.
    let foldedTags: [UInt8]

    init(name: String, platforms: Platforms, level: String, title: String, foldedCategory: String, foldedTags: [String]) {
        self.name = name
        self.platforms = platforms
        self.level = level
        self.title = title
        self.foldedCategory = foldedCategory
        self.foldedTags = PackedStrings.encode(foldedTags)
    }

    init(_ manifest: BlockManifest) {
        self.init(
            name: manifest.name, platforms: Platforms(manifest.platforms), level: manifest.level, title: manifest.englishTitle,
            foldedCategory: TextNormalizer.fold(manifest.category), foldedTags: BlockFilterRecord.foldedTags(manifest.tags))
    }
}

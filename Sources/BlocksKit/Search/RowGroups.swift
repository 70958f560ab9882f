/// The search index's rows (`SearchIndexRow`), a group of neighbouring blocks to a row of
/// its `rows` table, keyed by the group's first block.
///
/// A row of the table for each block made a first search of 100,000 blocks insert 100,000
/// rows on the thread that joins the slices, which was then the last to finish. A group is
/// encoded on the core that made its slice (`SearchIndexSlice`), so that thread inserts
/// one row for each `size` blocks. A group is a `PackedStrings` of `fields` strings a block:
/// the name, the platforms as shown, the level, the title, the folded category, then the
/// platform table and the folded tags, each packed (`PackedStrings.encoded`).
enum RowGroups {
    /// Blocks a group holds at most: the 20 rows of a result table read about as many
    /// groups, each a few kilobytes.
    static let size = 64
    static let fields = 7

    /// The rows in groups of `size`, in order, each encoded.
    static func encode(_ rows: [SearchIndexRow]) -> [[UInt8]] {
        stride(from: 0, to: rows.count, by: size).map { start in
            var packed = PackedStrings()
            for row in rows[start..<min(start + size, rows.count)] {
                for text in [row.name, row.platforms.text, row.level, row.title, row.foldedCategory] { packed.append(text) }
                packed.append(bytes: row.platforms.packed)
                packed.append(bytes: row.foldedTags)
            }
            return packed.encoded
        }
    }

    /// How many blocks each of the groups of `count` rows holds.
    static func counts(of count: Int) -> [Int] {
        stride(from: 0, to: count, by: size).map { min(size, count - $0) }
    }

    /// A group read back.
    struct Group {
        private let packed: PackedStrings

        /// Nil for bytes that are not a group: a damaged index.
        init?(encoded: UnsafeRawBufferPointer) {
            guard let packed = PackedStrings(encoded: encoded), packed.count > 0, packed.count % fields == 0, packed.count / fields <= size else { return nil }
            self.packed = packed
        }

        var count: Int { packed.count / fields }

        /// The result table's columns of the group's `row`th block.
        func listing(_ row: Int) -> SearchListing {
            let base = row * fields
            return SearchListing(name: packed[base], platforms: packed[base + 1], level: packed[base + 2], title: packed[base + 3])
        }

        /// What the filters read of the group's `row`th block; nil when its packed platforms
        /// or tags are unreadable.
        func filterRecord(_ row: Int) -> BlockFilterRecord? {
            let base = row * fields
            guard let platforms = packed.withBytes(base + 5, PackedStrings.init(encoded:)), platforms.count % 2 == 0,
                let tags = packed.withBytes(base + 6, PackedStrings.init(encoded:))
            else { return nil }
            var table: [String: String] = [:]
            for pair in stride(from: 0, to: platforms.count, by: 2) { table[platforms[pair]] = platforms[pair + 1] }
            return BlockFilterRecord(platforms: table, level: packed[base + 2], foldedCategory: packed[base + 4], foldedTags: tags.strings)
        }
    }
}

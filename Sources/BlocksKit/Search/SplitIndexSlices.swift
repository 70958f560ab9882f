extension SearchIndexSlice {
    /// A range made ready for the search index, straight from its columns: the rows and
    /// postings its entries would give through a manifest each, for the rows `order`
    /// names (`RangeColumns.nameOrder`). Each string of the range is split into words
    /// once (`CodedSearchWords`), and each distinct platform table and category is made
    /// into its row's form once.
    init(_ columns: RangeColumns, order: [Int]) {
        // Each field's columns in language order, looked up once rather than once a row.
        func inLanguageOrder(_ column: [String: CodeLists]) -> [CodeLists] { column.keys.sorted().map { column[$0]! } }
        let (titles, summaries, tags) = (inLanguageOrder(columns.titles), inLanguageOrder(columns.summaries), inLanguageOrder(columns.tags))
        var words = CodedSearchWords(strings: columns.strings)
        var platforms: [ArraySlice<Int>: SearchIndexRow.Platforms] = [:]
        // By string, its fold once made: twelve tags a row were as many look-ups by hash.
        var folded = [String?](repeating: nil, count: columns.strings.count)
        func fold(_ string: Int) -> String {
            if let known = folded[string] { return known }
            let text = TextNormalizer.fold(columns.strings[string])
            folded[string] = text
            return text
        }
        // A row's folded tags, the languages in order, gathered in one array kept for every row.
        var tagScratch: [String] = []
        func rowTags(_ row: Int) -> [String] {
            tagScratch.removeAll(keepingCapacity: true)
            for column in tags { column[row]?.forEach { tagScratch.append(fold($0)) } }
            return tagScratch
        }
        var rows: [SearchIndexRow] = []
        rows.reserveCapacity(order.count)
        for (block, row) in order.enumerated() {
            // The fields in `SearchWords.forEachField`'s order.
            words.addName(columns.names[row], block: block)
            for column in titles {
                if let parts = column[row] { words.addText(parts, block: block, field: .title) }
            }
            for column in tags { column[row]?.forEach { words.addIdentifier($0, block: block, field: .tags) } }
            words.addWords(of: columns.categories[row], block: block, field: .category)
            for column in summaries {
                if let parts = column[row] { words.addText(parts, block: block, field: .summary) }
            }
            columns.codeNames[row]?.forEach { words.addIdentifier($0, block: block, field: .codeNames) }
            let platformCodes = columns.platforms[row] ?? []
            let platformRow: SearchIndexRow.Platforms
            if let known = platforms[platformCodes] {
                platformRow = known
            } else {
                platformRow = SearchIndexRow.Platforms(columns.platformTable(row))
                platforms[platformCodes] = platformRow
            }
            rows.append(
                SearchIndexRow(
                    name: columns.names[row], platforms: platformRow, level: columns.strings[columns.levels[row]],
                    title: columns.englishTitle(row), foldedCategory: fold(columns.categories[row]),
                    foldedTags: rowTags(row)))
        }
        self.init(names: order.map { columns.names[$0] }, rows: rows, words: words.postings.words, lists: words.postings.grouped)
    }
}

extension BuiltRegistrySource: SearchIndexSliceSource {
    /// A slice is a tenth of its range's entries in memory, so twice as many ranges as
    /// cores are made ahead while this thread writes rows.
    func searchIndexSlices(_ body: (SearchIndexSlice) throws -> Void) throws -> Bool {
        try forEachRange(ahead: 2 * ConcurrentMap.cores, columns: SearchIndexSlice.init, body)
    }

    func forEachSearchManifest(named names: [String], _ body: (_ place: Int, BlockManifest) throws -> Void) throws {
        try forEachRangeManifest(named: names, body)
    }
}

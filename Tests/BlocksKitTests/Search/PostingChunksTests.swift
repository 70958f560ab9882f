import Foundation
import Testing

@testable import BlocksKit

/// The search index stores posting lists a chunk of words at a time (`PostingChunks`):
/// every list must come back whole from its chunk, chunks must stay within their bounds,
/// and a damaged chunk must read as damaged, never as another list.
@Suite struct PostingChunksTests {
    /// Lists of random lengths, with a few long ones that fill a chunk on their own.
    static func lists(seed: UInt64, count: Int) -> [[SearchPosting]] {
        var generator = SeededGenerator(seed: seed)
        return (0..<count).map { word in
            let length = word % 97 == 5 ? Int.random(in: 4096...9000, using: &generator) : Int.random(in: 0...40, using: &generator)
            return (0..<length).map { _ in SearchPosting(rawValue: UInt32.random(in: 0...UInt32.max, using: &generator)) }
        }
    }

    @Test(arguments: [0, 1, 255, 256, 257, 1000])
    func everyListComesBackFromItsChunk(count: Int) throws {
        let lists = Self.lists(seed: UInt64(count) + 7, count: count)
        let packed = JoinedPostings(lists: lists)
        #expect(packed.lists == lists)
        let chunks = PostingChunks.bounds(of: packed)
        // In order, touching, covering every word.
        #expect(chunks.first?.lowerBound ?? 0 == 0 && chunks.last?.upperBound ?? 0 == count)
        #expect(zip(chunks, chunks.dropFirst()).allSatisfy { $0.upperBound == $1.lowerBound })
        for chunk in chunks {
            #expect(chunk.count >= 1 && chunk.count <= PostingChunks.words)
            // Only the last word of a chunk takes it past the postings bound.
            #expect(lists[chunk.dropLast()].reduce(0) { $0 + $1.count } < PostingChunks.postings)
            let bytes = PostingChunks.encode(packed, words: chunk)
            for word in chunk {
                #expect(bytes.withUnsafeBytes { PostingChunks.list(word - chunk.lowerBound, in: $0) } == lists[word])
            }
            #expect(bytes.withUnsafeBytes { PostingChunks.list(chunk.count, in: $0) } == nil)
            #expect(bytes.withUnsafeBytes { PostingChunks.list(-1, in: $0) } == nil)
        }
        if count == 1000 {
            #expect(chunks.count > count / PostingChunks.words + 1, "the long lists close chunks early")
        }
    }

    @Test func integersArePackedLittleEndianAndBack() {
        let values: [UInt32] = [0, 1, 0x0102_0304, .max, 0x8000_0000]
        let packed = PackedIntegers.encode(values)
        #expect(packed == [0, 0, 0, 0, 1, 0, 0, 0, 4, 3, 2, 1, 255, 255, 255, 255, 0, 0, 0, 128])
        #expect(packed.withUnsafeBytes(PackedIntegers.decode) == values)
        #expect(PackedIntegers.encode([]).isEmpty)
    }

    @Test func aDamagedChunkIsNoList() {
        let lists = Self.lists(seed: 3, count: 20)
        let bytes = PostingChunks.encode(JoinedPostings(lists: lists), words: 0..<20)
        func read(_ damaged: [UInt8], _ position: Int = 0) -> [SearchPosting]? {
            damaged.withUnsafeBytes { PostingChunks.list(position, in: $0) }
        }
        #expect(read(bytes, 19) == lists[19])
        #expect(read(Array(bytes.dropLast(4)), 19) == nil)  // a posting short
        #expect(read(bytes + [0, 0, 0, 0], 19) == nil)  // a posting more than the lengths say
        #expect(read(Array(bytes.dropLast())) == nil)  // not whole integers
        #expect(read([]) == nil)
        var counted = bytes
        counted[0] = 0xFF  // more lists than the chunk holds
        #expect(read(counted) == nil)
        var longer = bytes
        longer[4] &+= 1  // the first list one longer than the postings there are
        #expect(read(longer) == nil)
    }

    /// Slices joined in order: each word numbered where first met, its postings every
    /// slice's in slice order, each slice's blocks moved past the blocks before it, and a
    /// word a slice numbered without postings still a word.
    @Test func slicesJoinedGiveEachWordItsPostingsInBlockOrder() {
        var generator = SeededGenerator(seed: 11)
        let vocabulary = (0..<40).map { "word\($0)" }
        var joined = JoinedPostings()
        var expected: [String: [SearchPosting]] = [:]
        var order: [String] = []
        var blocksBefore = 0
        for _ in 0..<6 {
            let words = Array(vocabulary.shuffled(using: &generator).prefix(Int.random(in: 1...25, using: &generator)))
            let blocks = Int.random(in: 1...50, using: &generator)
            var lists: [[SearchPosting]] = []
            for word in words {
                let length = Int.random(in: 0...6, using: &generator)
                let list = (0..<length).map { _ in
                    SearchPosting(block: Int.random(in: 0..<blocks, using: &generator), field: .title)
                }.sorted { $0.rawValue < $1.rawValue }
                lists.append(list)
                if !order.contains(word) { order.append(word) }
                expected[word, default: []] += list.map { SearchPosting(block: $0.block + blocksBefore, field: .title) }
            }
            joined.append(words: PackedStrings(words), lists: PostingLists(lists), blocksBefore: blocksBefore)
            blocksBefore += blocks
        }
        #expect(joined.words == order)
        #expect(joined.lists == order.map { expected[$0]! })
        #expect(order.indices.allSatisfy { joined.count(of: $0) == expected[order[$0]]!.count })
        #expect(joined.lists.contains([]) == expected.values.contains([]))
    }
}

extension JoinedPostings {
    /// Lists with words made up for them (`w0`, `w1`, ...), for the tests of what reads them.
    init(lists: [[SearchPosting]]) {
        self.init()
        append(words: PackedStrings(lists.indices.map { "w\($0)" }), lists: PostingLists(lists))
    }
}

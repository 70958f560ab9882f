import Foundation
import Testing

@testable import BlocksKit

/// `build` refuses to write a file its own clients would refuse, with the reason and the
/// way out, at exactly the caps the clients apply.
@Suite struct ClientCapsTests {
    @Test func eachFileKindHasTheClientsCap() {
        #expect(ClientCaps.limit(forPath: "index.json") == RegistryIndex.maximumBytes)
        #expect(ClientCaps.limit(forPath: "blocks/pager.json") == BlockMetadata.maximumBytes)
        #expect(ClientCaps.limit(forPath: "archives/pager-1.0.0.tar.gz") == TransferLimits.maximumArchiveBytes)
        #expect(ClientCaps.limit(forPath: "archives/pager-1.0.0.zip") == TransferLimits.maximumArchiveBytes)
        #expect(ClientCaps.limit(forPath: "site/pager.html") == nil)
        #expect(HTTPMirrorUpstream.maximumMetadataBytes == BlockMetadata.maximumBytes)
    }

    @Test func anIndexOverTheCapIsRefusedWithTheWayOut() throws {
        let atTheCap = Data(count: Int(RegistryIndex.maximumBytes))
        try ClientCaps.check(atTheCap, path: "index.json", blocks: 30_000)
        let over = Data(count: Int(RegistryIndex.maximumBytes) + 1)
        do {
            try ClientCaps.check(over, path: "index.json", blocks: 30_000)
            Issue.record("an index one byte over the cap was accepted")
        } catch let error as RegistryError {
            guard case .tooLargeForClients(let path, let bytes, let limit, _) = error else { throw error }
            #expect(path == "index.json" && bytes == RegistryIndex.maximumBytes + 1 && limit == RegistryIndex.maximumBytes)
            #expect(error.description.contains("over the 64 MB every blocks client refuses to read, so index.json was not written"))
            // 64 MB over 30,000 blocks is 2,236 bytes a block: 30,012 of them fit.
            #expect(error.description.contains("fewer than 30012 blocks"), "\(error.description)")
        }
    }

    @Test func aMetadataFileOverTheCapIsRefused() throws {
        try ClientCaps.check(Data(count: Int(BlockMetadata.maximumBytes)), path: "blocks/pager.json", blocks: 1)
        #expect(throws: RegistryError.self) {
            try ClientCaps.check(Data(count: Int(BlockMetadata.maximumBytes) + 1), path: "blocks/pager.json", blocks: 1)
        }
    }
}

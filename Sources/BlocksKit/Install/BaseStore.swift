/// The exact bytes `add` (or the last `update`) wrote, kept in the cache by SHA-256 at
/// `bases/<sha256>`, so `update` and `diff` can find each file's base offline. A base is
/// used only when its bytes hash to what the lock records: a missing or damaged copy is
/// reported as missing, never guessed.
public struct BaseStore: Sendable {
    public let folder: URL

    public init(cacheDirectory: URL) {
        folder = cacheDirectory.appendingPathComponent("bases", isDirectory: true)
    }

    /// Keeps `data` under its hash (atomically). A cache that cannot be written costs the
    /// next update its three-way merge, not this run, so failures are returned, not thrown.
    /// - Parameter sha256: the bytes' hash when the caller has it already (the new lock's).
    @discardableResult
    public func store(_ data: Data, sha256: String? = nil) -> Bool {
        let url = folder.appendingPathComponent(sha256 ?? SHA256.hex(data))
        if let existing = FileManager.default.contents(atPath: url.path), existing == data { return true }
        return (try? AtomicFile.write(data, to: url)) != nil
    }

    /// The base with this hash, or nil when it is not kept or its bytes no longer match.
    public func load(sha256: String) -> Data? {
        guard SHA256.isDigest(sha256),
            let data = FileManager.default.contents(atPath: folder.appendingPathComponent(sha256.lowercased()).path),
            SHA256.hex(data) == sha256.lowercased()
        else { return nil }
        return data
    }

    /// Keeps the recorded bytes of every file the plan's lock names anew, under the hash
    /// `lock` (the plan's `lockAfter()`) records for it, so no file is hashed twice.
    /// Returns how many could not be kept.
    @discardableResult
    public func storeBases(of plan: InstallPlan, lock: Lockfile) -> Int {
        var failures = 0
        for block in plan.blocks {
            let recorded = lock.blocks[block.reference.description]
            for file in block.files where file.action != .keep && file.action != .conflict {
                if !store(file.recorded ?? file.content, sha256: recorded?.file(at: file.path)?.sha256) { failures += 1 }
            }
        }
        return failures
    }
}

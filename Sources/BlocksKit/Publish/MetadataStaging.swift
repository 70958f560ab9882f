/// Where a build into an existing registry writes the metadata files it changes until
/// every block is published. The build reads its catalog a batch at a time, so a broken
/// block can turn up after others were published: their metadata files must then stay as
/// they were, since the `index.json` that stays describes them (a signed one by their
/// hashes). Archives need no staging: each is a new file that nothing names yet.
///
/// The folder is named like a fresh build's (`FreshBuildFolder.stagingPrefix`), so one
/// left by a killed build is removed by the next.
final class MetadataStaging: @unchecked Sendable {
    let folder: String
    private let lock = Lock()
    /// Paths relative to the output, each metadata file after its `.gz`.
    private var staged: [String] = []

    init(output: URL) throws {
        folder = output.path + "/" + FreshBuildFolder.stagingPrefix + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder + "/blocks", withIntermediateDirectories: true)
    }

    /// Stages a metadata file and its `.gz`.
    func write(_ data: Data, gzip: Data, to path: String) throws {
        try AtomicFile.write(gzip, to: URL(fileURLWithPath: folder + "/" + path + ".gz"))
        try AtomicFile.write(data, to: URL(fileURLWithPath: folder + "/" + path))
        lock.withLock { staged += [path + ".gz", path] }
    }

    /// Moves every staged file into `output`, each `.gz` before its file, and removes the folder.
    func commit(into output: URL) throws {
        for path in lock.withLock({ staged }) {
            guard rename(folder + "/" + path, output.path + "/" + path) == 0 else {
                throw AtomicFile.Failure(path: output.path + "/" + path, reason: String(cString: strerror(errno)))
            }
        }
        discard()
    }

    /// Removes the folder and whatever it still holds.
    func discard() { try? FileManager.default.removeItem(atPath: folder) }
}

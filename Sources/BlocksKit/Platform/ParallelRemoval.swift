import Dispatch

/// Deletes many files at once from several threads. Freeing a file's blocks waits on the
/// disk (on a file system mounted with `discard`, a trim per file): here 150 replaced
/// files took 350–480 ms to delete one by one and 40–65 ms eight at a time, which was most
/// of what `update` of 50 blocks spent after its renames became exchanges.
enum ParallelRemoval {
    /// Threads deleting at once. Each waits on the disk, not the CPU, so there are more
    /// than cores; serial dispatch queues each get a thread of their own.
    static let width = 8

    /// Unlinks every path, waiting for all; failures are ignored (the caller removes what
    /// is left, or reports it).
    static func removeAll(_ paths: [String]) {
        guard paths.count > 1, Tuning.process.parallelRemoval else {
            paths.forEach { _ = unlink($0) }
            return
        }
        let group = DispatchGroup()
        let lanes = min(width, paths.count)
        for lane in 0..<lanes {
            let share = stride(from: lane, to: paths.count, by: lanes).map { paths[$0] }
            DispatchQueue(label: "blocks.remove.\(lane)").async(group: group) {
                for path in share { _ = unlink(path) }
            }
        }
        group.wait()
    }
}

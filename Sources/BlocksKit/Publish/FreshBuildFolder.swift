/// Where a build into an empty or missing output folder writes: a hidden staging folder
/// inside the output, whose `archives/` and `blocks/` are renamed into place at the end,
/// before `index.json` is written.
///
/// Why: a registry of 10,000 blocks is 30,000 files. Giving each its own temporary name
/// and rename doubled the directory work in two huge folders, when nothing is published
/// yet and so nothing can be half-replaced. Files in the staging folder are written
/// once, under their final names, and only two folder renames make them visible, so a
/// killed build still never leaves a half-written file under a final name: it leaves
/// `.blocks-staging-*` folders, which the next build removes.
///
/// Why it may use more than one staging folder: on ext4 without a journal, the kernel
/// skips inodes freed in the last minute or so when it allocates one, checking them one
/// by one from the start of a block group, for every new file, and falls back to the
/// last of them only when the group has nothing else. Right after `rm -rf` of the
/// previous output, a group full of such inodes made each file creation cost a
/// millisecond instead of 20 µs, and a 10,000-block build spent most of its time in
/// `find_inode_bit`. The output folder a build creates is therefore marked as the top of
/// unrelated trees (`chattr +T`), so each staging folder, with a random name, lands in a
/// block group ext4 picks afresh; and when file creation turns slow anyway, the rest of
/// the files go to a new staging folder, renamed into the first one before publishing.
/// Only placement changes, never what is written.
final class FreshBuildFolder: @unchecked Sendable {
    /// Named like a project's staging folders (`StagingArea.prefix`), which Publish does not use.
    static let stagingPrefix = ".blocks-staging-"
    /// At most this many staging folders; the last one takes whatever is left.
    static let maximumFolders = 4
    /// How far slow creations (over `slowCreation` of the thread's CPU time) must
    /// outnumber fast ones in `archives/` or in `blocks/`, counting from when they
    /// started to, before the build moves on to a new staging folder. The two folders
    /// may sit in different block groups, so each is counted on its own.
    static let slowLead = 32

    /// The output folder.
    let output: String
    /// CPU time in nanoseconds above which writing a file counts as slow. A file
    /// normally takes 20 to 60 µs; behind thousands of recently freed inodes, a
    /// millisecond or more.
    let slowCreation: Int
    private let lock = Lock()
    /// The staging folders in use; everything ends up in the first.
    private var folders: [String]
    private var slowScores: [Substring: Int] = [:]
    private let mayMove: Bool

    private init(output: String, first: String, mayMove: Bool, slowCreation: Int) {
        self.output = output
        folders = [first]
        self.mayMove = mayMove
        self.slowCreation = slowCreation
    }

    /// The staging folders used so far.
    var stagingFolders: [String] { lock.withLock { folders } }

    /// Starts a fresh build when `output` is empty; `created` says this build just made
    /// it. Staging folders left by killed builds are removed first, whatever else the
    /// output holds: the caller holds the build lock (`RegistryBuilder.lockOutput`), so no
    /// live build owns them. Returns nil when the output holds anything else: that build
    /// must check what is published.
    static func begin(in output: URL, created: Bool, tuning: Tuning = Tuning()) throws -> FreshBuildFolder? {
        let path = output.path
        guard PathKind(path) == .folder, let names = try? FileManager.default.contentsOfDirectory(atPath: path) else { return nil }
        let leftovers = names.filter { $0.hasPrefix(stagingPrefix) }
        for name in leftovers { try? FileManager.default.removeItem(atPath: "\(path)/\(name)") }
        guard leftovers.count == names.count else { return nil }
        // A new folder lands somewhere else only where the output spreads its subfolders.
        let mayMove = created && tuning.spreadSubfolders && Tuning.markTopOfTree(path)
        return FreshBuildFolder(output: path, first: try makeStaging(in: path), mayMove: mayMove, slowCreation: tuning.slowFileCreation)
    }

    /// Writes a new file under `relativePath` (such as `archives/x-1.0.0.zip`) in the
    /// current staging folder. The name must not exist yet.
    func write(_ data: Data, to relativePath: String) throws {
        let folder = lock.withLock { folders[folders.count - 1] }
        let path = "\(folder)/\(relativePath)"
        // A site page (`blocks/<name>/index.html`) has a folder of its own, made here in
        // the same staging folder as the file.
        if let slash = relativePath.lastIndex(of: "/"), relativePath[..<slash].contains("/") {
            mkdir("\(folder)/\(relativePath[..<slash])", 0o755)
        }
        let start = Self.threadTime()
        let failure = FileDescriptorIO.writeFile(data, to: path, flags: O_CREAT | O_EXCL, mode: 0o644)
        let spent = Self.threadTime() - start
        guard failure == 0 else {
            unlink(path)
            throw AtomicFile.Failure(path: "\(output)/\(relativePath)", reason: String(cString: strerror(failure)))
        }
        if mayMove { try note(spent, in: folder, subfolder: relativePath.prefix { $0 != "/" }) }
    }

    /// Weighs slow creations against fast ones, and moves on to a new staging folder when
    /// the slow ones lead by `slowLead`.
    private func note(_ spent: Int, in folder: String, subfolder: Substring) throws {
        try lock.withLock {
            guard folder == folders.last, folders.count < Self.maximumFolders else { return }
            let score = spent > slowCreation ? slowScores[subfolder, default: 0] + 1 : max(0, slowScores[subfolder, default: 0] - 1)
            slowScores[subfolder] = score
            guard score >= Self.slowLead else { return }
            slowScores = [:]
            folders.append(try Self.makeStaging(in: output))
        }
    }

    /// Gathers every file into the first staging folder, then moves its `archives/` and
    /// `blocks/` into the output and removes the staging folders.
    func publish() throws {
        let folders = stagingFolders
        let first = folders[0]
        for extra in folders.dropFirst() {
            for name in ["archives", "blocks"] {
                let files = (try? FileManager.default.contentsOfDirectory(atPath: "\(extra)/\(name)")) ?? []
                for file in files where rename("\(extra)/\(name)/\(file)", "\(first)/\(name)/\(file)") != 0 {
                    let reason = String(cString: strerror(errno))
                    throw AtomicFile.Failure(path: "\(output)/\(name)/\(file)", reason: "cannot gather the built file: \(reason)")
                }
                rmdir("\(extra)/\(name)")
            }
            rmdir(extra)
        }
        for name in ["archives", "blocks"] where rename("\(first)/\(name)", "\(output)/\(name)") != 0 {
            let reason = String(cString: strerror(errno))
            throw AtomicFile.Failure(path: "\(output)/\(name)", reason: "cannot move the built folder into place: \(reason)")
        }
        rmdir(first)
    }

    /// Removes the staging folders and whatever they hold, after a failed build.
    func discard() {
        for folder in stagingFolders { try? FileManager.default.removeItem(atPath: folder) }
    }

    /// A new staging folder with a random name, and its `archives/` and `blocks/`.
    private static func makeStaging(in output: String) throws -> String {
        let folder = "\(output)/\(stagingPrefix)\(UUID().uuidString)"
        // Ctrl-C removes it (`Interruption`); once published or discarded nothing is left to remove.
        _ = Interruption.removeOnInterrupt(folder)
        for made in [folder, "\(folder)/archives", "\(folder)/blocks"] where mkdir(made, 0o755) != 0 {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(atPath: folder)
            throw AtomicFile.Failure(path: made, reason: "cannot create the folder: \(reason)")
        }
        return folder
    }

    /// This thread's CPU time, user and system, in nanoseconds: unlike the clock, it does
    /// not count waiting for a core on a busy machine.
    private static func threadTime() -> Int {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return time.tv_sec * 1_000_000_000 + time.tv_nsec
    }
}

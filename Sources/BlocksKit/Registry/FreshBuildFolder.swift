import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Where a build into an empty or missing output folder writes: a hidden staging folder
/// inside the output, whose `archives/` and `blocks/` are renamed into place at the end,
/// before `index.json` is written.
///
/// Why: a registry of 10,000 blocks is 30,000 files. Giving each its own temporary name
/// and rename doubled the directory work in two huge folders, when nothing is published
/// yet and so nothing can be half-replaced. Files in the staging folder are written
/// once, under their final names, and only two folder renames make them visible, so a
/// killed build still never leaves a half-written file under a final name: it leaves a
/// `.blocks-staging-*` folder, which the next build removes.
struct FreshBuildFolder {
    static let stagingPrefix = ".blocks-staging-"

    /// The output folder.
    let output: String
    /// The staging folder inside it.
    let staging: String

    /// Starts a fresh build when `output` is missing or empty. Staging folders left by
    /// killed builds are removed first, whatever else the output holds. Returns nil when
    /// the output holds anything else: that build must check what is published.
    static func begin(in output: URL) throws -> FreshBuildFolder? {
        let path = output.path
        var created = false
        var info = stat()
        if stat(path, &info) != 0 {
            do {
                try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
            } catch {
                throw AtomicFile.Failure(path: path, reason: "cannot create the folder")
            }
            created = true
        } else {
            guard (info.st_mode & S_IFMT) == S_IFDIR,
                  let names = try? FileManager.default.contentsOfDirectory(atPath: path) else { return nil }
            let leftovers = names.filter { $0.hasPrefix(stagingPrefix) }
            for name in leftovers { try? FileManager.default.removeItem(atPath: "\(path)/\(name)") }
            guard leftovers.count == names.count else { return nil }
        }
        if created { spreadSubfolders(path) }
        let folder = FreshBuildFolder(output: path, staging: "\(path)/\(stagingPrefix)\(UUID().uuidString)")
        for made in [folder.staging, "\(folder.staging)/archives", "\(folder.staging)/blocks"] where mkdir(made, 0o755) != 0 {
            let reason = String(cString: strerror(errno))
            folder.discard()
            throw AtomicFile.Failure(path: made, reason: "cannot create the folder: \(reason)")
        }
        return folder
    }

    /// Writes a new file under `relativePath` (such as `archives/x-1.0.0.zip`) in the
    /// staging folder. The name must not exist yet.
    func write(_ data: Data, to relativePath: String) throws {
        let path = "\(staging)/\(relativePath)"
        let failure = FileDescriptorIO.writeFile(data, to: path, flags: O_CREAT | O_EXCL, mode: 0o644)
        guard failure == 0 else {
            unlink(path)
            throw AtomicFile.Failure(path: "\(output)/\(relativePath)", reason: String(cString: strerror(failure)))
        }
    }

    /// Moves `archives/` and `blocks/` into the output and removes the staging folder.
    func publish() throws {
        for name in ["archives", "blocks"] where rename("\(staging)/\(name)", "\(output)/\(name)") != 0 {
            let reason = String(cString: strerror(errno))
            throw AtomicFile.Failure(path: "\(output)/\(name)", reason: "cannot move the built folder into place: \(reason)")
        }
        rmdir(staging)
    }

    /// Removes the staging folder and whatever it holds, after a failed build.
    func discard() {
        try? FileManager.default.removeItem(atPath: staging)
    }

    /// Marks a folder this build created as the top of unrelated trees (`chattr +T`), so
    /// ext4 places the new staging folder, and the 30,000 files in it, in a block group
    /// chosen by its random name rather than next to its parent.
    ///
    /// Why: on ext4 without a journal, the kernel skips inodes freed in the last minutes
    /// when it allocates one, scanning them one by one. Right after `rm -rf` of the
    /// previous output, the parent's group is full of such inodes and every file
    /// creation scanned thousands: a 10,000-block build spent most of its time in
    /// `find_inode_bit`. Elsewhere the flag is only a placement hint, and file systems
    /// without it refuse the call, which is ignored.
    static func spreadSubfolders(_ path: String) {
        #if os(Linux)
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        let getFlags: UInt = 0x8008_6601  // FS_IOC_GETFLAGS
        let setFlags: UInt = 0x4008_6602  // FS_IOC_SETFLAGS
        let topDirectory: Int32 = 0x0002_0000  // FS_TOPDIR_FL
        var flags: Int32 = 0
        guard ioctl(descriptor, getFlags, &flags) == 0, flags & topDirectory == 0 else { return }
        flags |= topDirectory
        _ = ioctl(descriptor, setFlags, &flags)
        #endif
    }
}

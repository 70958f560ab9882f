#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// `Lockfile.read` on the bytes of a `blocks.lock` (committed and cloned, so untrusted).
/// The reader takes a project root, so each input is written as the lock of one scratch
/// project under `TMPDIR`. It never crashes, and a lock it reads is written (`encoded`)
/// into bytes it reads back as the same lock.
enum LockTarget {
    static let target = FuzzTarget(name: "lock", prepare: prepare, run: run)

    nonisolated(unsafe) private static var root: URL?

    static func prepare() {
        let base = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array("\(base)/blocks-fuzz-lock-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { FuzzCheck.fail("cannot make a scratch project under \(base)") }
        root = URL(fileURLWithPath: String(cString: made), isDirectory: true)
    }

    static func run(_ data: Data) {
        guard let root else { FuzzCheck.fail("prepare did not run") }
        guard let lock = read(data, root: root) else { return }
        checkPaths(lock)
        let written: Data
        do {
            written = try lock.encoded()
        } catch {
            FuzzCheck.fail("a lock that was read cannot be written: \(error)")
        }
        guard let reread = read(written, root: root) else {
            FuzzCheck.fail("the lock written for a lock that was read is refused: \(String(decoding: written, as: UTF8.self))")
        }
        FuzzCheck.expect(reread == lock, "a round trip through encoded() changed \(lock) into \(reread)")
    }

    /// `remove` deletes by these paths, so a lock that was read names none outside the
    /// project (the scratch project holds no links) and no file outside its block's folder.
    static func checkPaths(_ lock: Lockfile) {
        func staysInside(_ path: String) -> Bool {
            !path.isEmpty && !path.hasPrefix("/") && !path.contains("\\")
                && !path.split(separator: "/", omittingEmptySubsequences: false).contains { $0 == ".." || $0.isEmpty }
        }
        for (name, block) in lock.blocks {
            FuzzCheck.expect(ManifestValidator.isValidName(name), "a lock entry named \(name.debugDescription) was read")
            FuzzCheck.expect(staysInside(block.folder), "\(name): the folder \(block.folder.debugDescription) leaves the project")
            for file in block.files {
                FuzzCheck.expect(staysInside(file.path) && file.path.hasPrefix(block.folder + "/"),
                                 "\(name): the file \(file.path.debugDescription) leaves \(block.folder)")
            }
            for folder in block.createdFolders {
                FuzzCheck.expect(staysInside(folder), "\(name): the created folder \(folder.debugDescription) leaves the project")
            }
        }
    }

    private static func read(_ data: Data, root: URL) -> Lockfile? {
        let path = root.appendingPathComponent(Lockfile.fileName).path
        let failure = FileDescriptorIO.writeFile(data, to: path, flags: O_CREAT | O_TRUNC, mode: 0o644)
        FuzzCheck.expect(failure == 0, "cannot write the scratch lock \(path): \(String(cString: strerror(failure)))")
        return try? Lockfile.read(root: root)
    }
}

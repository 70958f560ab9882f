/// Replacing a file by swapping it with its staged copy (`renameat2` with
/// `RENAME_EXCHANGE`), which is as atomic as `rename` for a reader or a kill.
///
/// Why: ext4 (`auto_da_alloc`) makes a `rename` over an existing file allocate and start
/// writing the new file's blocks before it returns, a guard against power cuts that
/// `blocks` does not promise (see `StagingArea.stage`). Here 150 such renames cost
/// 66–360 ms against 2 ms of exchanges, most of `update`'s time. The exchange leaves the
/// old file at the staged path, which the staging folder's removal deletes.
enum FileExchange {
    private typealias RenameAt2 = @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32

    /// glibc's `renameat2`, looked up at run time: Swift's Glibc module does not declare it.
    private static let renameAt2: RenameAt2? = {
        #if os(Linux)
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "renameat2") else { return nil }
        return unsafeBitCast(symbol, to: RenameAt2.self)
        #else
        return nil
        #endif
    }()

    /// Swaps `staged` and an existing regular file at `target`. False when it did not
    /// (no such call, a file system without exchange, no file at `target`), and the caller
    /// renames instead. A folder found at `target` (put there since the plan looked) is
    /// swapped back, so it is never deleted with the staging folder.
    static func exchange(_ staged: String, with target: String) -> Bool {
        guard Tuning.process.exchangeFiles, let renameAt2 else { return false }
        let atWorkingDirectory: Int32 = -100
        let exchange: UInt32 = 1 << 1
        guard renameAt2(atWorkingDirectory, staged, atWorkingDirectory, target, exchange) == 0 else { return false }
        var info = stat()
        if lstat(staged, &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
            _ = renameAt2(atWorkingDirectory, staged, atWorkingDirectory, target, exchange)
            errno = EISDIR
            return false
        }
        return true
    }
}

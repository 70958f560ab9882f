/// Every performance knob that depends on the system rather than on what the tool does,
/// in one place, each with the measurement that justifies it and a way to turn it off.
///
/// Knobs like these are measured on one machine and one file system, and can quietly turn
/// into costs elsewhere. Keeping them here means a newcomer finds them all at once, and
/// `BLOCKS_TUNING=off` (or a comma-separated list of knob names to turn off, such as
/// `BLOCKS_TUNING=-keep-freed-memory`) runs the tool without them, to re-measure.
/// Turning a knob off never changes what is written, only how fast.
public struct Tuning: Sendable, Equatable {
    /// glibc keeps the memory a command frees (`mallopt`: trim threshold 64 MiB, mmap
    /// threshold 4 MiB) instead of giving it back to the kernel and faulting it in again.
    /// Measured with `perf stat -e task-clock,page-faults blocks build` of 1,000 blocks:
    /// 550–600 ms of CPU and 25,000–35,000 page faults with glibc's defaults, 416–444 ms
    /// and about 3,000 with the knob (docs/BENCHMARKS.md). Linux only; a no-op elsewhere.
    public var keepFreedMemory = true

    /// A build into a folder it creates marks that folder `chattr +T` and moves on to a new
    /// staging folder when file creation turns slow (see `FreshBuildFolder`). On ext4
    /// without a journal, right after `rm -rf` of the previous output, this took a
    /// 10,000-block build from minutes of `find_inode_bit` to seconds (docs/BENCHMARKS.md).
    /// Linux only: elsewhere the flag is refused and the build stays in one folder.
    public var spreadSubfolders = true

    /// CPU time, in nanoseconds, above which creating one file counts as slow for
    /// `spreadSubfolders`. A file normally takes 20 to 60 µs; behind thousands of recently
    /// freed inodes, a millisecond or more.
    public var slowFileCreation = 250_000

    /// A file `add` or `update` replaces is swapped with its staged copy (`renameat2`
    /// exchange, `FileExchange`) instead of renamed over: on ext4 a rename over a file
    /// starts writing the new file's blocks before it returns. `Scripts/benchmark
    /// --only-update`: 150 renames cost 66–360 ms against 2 ms of exchanges
    /// (docs/BENCHMARKS.md). Linux only; elsewhere, and where the file system refuses,
    /// the file is renamed.
    public var exchangeFiles = true

    /// The staging folder's leftovers are deleted eight at a time (`ParallelRemoval`):
    /// on a disk mounted with `discard` each delete waits for a trim. 150 files took
    /// 350–480 ms one by one and 40–65 ms eight at a time (docs/BENCHMARKS.md).
    public var parallelRemoval = true

    /// The knobs' names, as `BLOCKS_TUNING` spells them.
    public static let knobNames = ["keep-freed-memory", "spread-subfolders", "exchange-files", "parallel-removal"]

    /// The tuning of this process, set once at start-up by `applyToProcess`; in-process
    /// tests keep the defaults.
    nonisolated(unsafe) static var process = Tuning()

    public init() {}

    /// The tuning `BLOCKS_TUNING` asks for: unset or empty means every knob on; `off` means
    /// every knob off; otherwise `-name` turns one knob off. Unknown names are ignored, so
    /// an old setting does not break a newer tool.
    public init(environment: [String: String]) {
        let words = (environment["BLOCKS_TUNING"] ?? "").split(separator: ",").map { String($0.filter { $0 != " " }) }
        if words.contains("off") {
            keepFreedMemory = false
            spreadSubfolders = false
            exchangeFiles = false
            parallelRemoval = false
            return
        }
        if words.contains("-keep-freed-memory") { keepFreedMemory = false }
        if words.contains("-spread-subfolders") { spreadSubfolders = false }
        if words.contains("-exchange-files") { exchangeFiles = false }
        if words.contains("-parallel-removal") { parallelRemoval = false }
    }

    /// Applies the process-wide knobs; called once at start-up.
    func applyToProcess() {
        Self.process = self
        if keepFreedMemory { Self.keepFreedMemory() }
    }

    /// `mallopt` is not in Swift's Glibc module, so it is looked up by name; its option
    /// numbers are glibc's (`<malloc.h>`).
    private static func keepFreedMemory() {
        #if os(Linux)
        typealias SetMallocOption = @convention(c) (Int32, Int32) -> Int32
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "mallopt") else { return }
        let mallopt = unsafeBitCast(symbol, to: SetMallocOption.self)
        let trimThreshold: Int32 = -1
        let mmapThreshold: Int32 = -3
        _ = mallopt(trimThreshold, 64 << 20)
        // Setting the trim threshold stops glibc raising the mmap threshold as it goes, so it is
        // set too: blocks of up to 4 MiB come from the heap and are reused.
        _ = mallopt(mmapThreshold, 4 << 20)
        #endif
    }

    /// Marks a folder as the top of unrelated trees (`chattr +T`, the `FS_TOPDIR_FL` flag),
    /// so ext4's Orlov allocator places each new subfolder in a block group chosen from its
    /// name rather than next to its parent. Returns whether the file system took the flag;
    /// file systems without it refuse the call.
    static func markTopOfTree(_ path: String) -> Bool {
        #if os(Linux)
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        let getFlags: UInt = 0x8008_6601  // FS_IOC_GETFLAGS
        let setFlags: UInt = 0x4008_6602  // FS_IOC_SETFLAGS
        let topDirectory: Int32 = 0x0002_0000  // FS_TOPDIR_FL
        var flags: Int32 = 0
        guard ioctl(descriptor, getFlags, &flags) == 0 else { return false }
        if flags & topDirectory != 0 { return true }
        flags |= topDirectory
        return ioctl(descriptor, setFlags, &flags) == 0
        #else
        return false
        #endif
    }
}

/// Size and modification time (nanoseconds) of a file, or nil when it is missing: how a
/// mirror tells a verified file is unchanged (`MirrorState.stamp`), and how a folder
/// registry sizes its index before reading it.
enum FileStamp {
    static func of(path: String) -> (size: Int64, modified: Int64)? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        let modified = info.modificationTime
        return (Int64(info.st_size), Int64(modified.tv_sec) * 1_000_000_000 + Int64(modified.tv_nsec))
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a path names, from one `stat` that follows symbolic links. Foundation's
/// `fileExists(atPath:isDirectory:)` takes a different argument type in each Foundation,
/// and every caller here only wants one of these three answers.
enum PathKind: Equatable {
    case missing
    case folder
    case other

    init(_ path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else {
            self = .missing
            return
        }
        self = (info.st_mode & S_IFMT) == S_IFDIR ? .folder : .other
    }
}

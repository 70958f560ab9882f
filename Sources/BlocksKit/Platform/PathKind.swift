extension URL {
    /// The file or folder `name` inside this folder URL, joined as text.
    /// `appendingPathComponent` asks the file system whether the result is a folder (a
    /// `stat` per call), which added up to hundreds of calls in one `add` of fifty blocks.
    func joining(_ name: String, isDirectory: Bool = false) -> URL {
        let base = path.hasSuffix("/") ? path : path + "/"
        return URL(fileURLWithPath: base + name, isDirectory: isDirectory)
    }
}

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
        self.init(info)
    }

    /// What a `stat` result names.
    init(_ info: stat) {
        self = (info.st_mode & S_IFMT) == S_IFDIR ? .folder : .other
    }

    /// Creates the folder at `path` and its parents where missing. True when a folder is
    /// there afterwards, whoever made it: another thread may create it at the same time.
    static func makeFolder(_ path: String) -> Bool {
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return PathKind(path) == .folder
    }
}

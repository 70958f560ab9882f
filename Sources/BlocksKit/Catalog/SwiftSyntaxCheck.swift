/// `swiftc -parse` over a catalog's Swift files, many files per compiler run and runs on
/// every core, with each error traced back to its file.
///
/// Why: one run per file cost a compiler start per file (2 min 35 s for 500 blocks), and
/// plain `swiftc -parse a.swift b.swift …` is worse, since the driver starts a frontend per
/// file that parses every file. `-wmo` makes it one frontend that parses each file once.
/// Whole-module mode refuses two files with the same name, so files that share a name go
/// to different runs.
struct SwiftSyntaxCheck {
    let compiler: URL

    /// At most this many files per compiler run, which keeps a command line of absolute
    /// paths far below the system's limit.
    static let filesPerRun = 256
    /// Fewer files than this are parsed in one run: a second compiler start would cost
    /// more than it saves.
    static let filesWorthASecondRun = 16

    /// The first error of each file that does not parse, in the order of `files`. The
    /// error is the compiler's line, as in `/path/A.swift:3:1: error: expected '}'`.
    func firstErrors(in files: [String]) throws -> [(file: String, error: String)] {
        let runs = Self.runs(of: files, cores: ProcessInfo.processInfo.activeProcessorCount)
        let outcomes = ConcurrentMap.map(runs) { run in Result { try self.check(run) } }
        var errors: [String: String] = [:]
        for outcome in outcomes { errors.merge(try outcome.get()) { first, _ in first } }
        return files.compactMap { file in errors[file].map { (file, $0) } }
    }

    /// The files split into compiler runs: no two files of one name in a run, at most
    /// `filesPerRun` in each, and at least one run per core when there are enough files.
    static func runs(of files: [String], cores: Int) -> [[String]] {
        // The k-th file of a name goes to group k, so no group holds a name twice.
        var groups: [[String]] = []
        var seen: [Substring: Int] = [:]
        for file in files {
            let name = file.split(separator: "/").last ?? Substring(file)
            let group = seen[name, default: 0]
            seen[name] = group + 1
            if group == groups.count { groups.append([]) }
            groups[group].append(file)
        }
        return groups.flatMap { group -> [[String]] in
            let wanted = group.count >= filesWorthASecondRun ? max(1, cores) : 1
            let count = min(group.count, max(wanted, (group.count + filesPerRun - 1) / filesPerRun))
            let size = (group.count + count - 1) / count
            return stride(from: 0, to: group.count, by: size).map { Array(group[$0..<min($0 + size, group.count)]) }
        }
    }

    /// Parses one run's files; the first error line of each file that fails. A failing
    /// run whose errors name none of its files (the compiler itself failed) is parsed
    /// again one file at a time, so every file still gets its own verdict.
    func check(_ files: [String]) throws -> [String: String] {
        let outcome = try ChildProcess.run(
            compiler.path, arguments: ["-parse", "-wmo", "-module-name", "BlocksLint"] + files,
            discardOutput: true, captureErrors: true)
        guard outcome.exitCode != 0 else { return [:] }
        let found = Self.firstErrors(in: outcome.standardError, files: Set(files))
        if !found.isEmpty { return found }
        guard files.count > 1 else {
            let line = outcome.standardError.split(separator: "\n").first { $0.contains("error:") }
            return [files[0]: line.map(String.init) ?? "swiftc -parse failed"]
        }
        var errors: [String: String] = [:]
        for file in files { errors.merge(try check([file])) { first, _ in first } }
        return errors
    }

    /// The first `FILE:LINE:COLUMN: error: …` line for each of `files` in the compiler's
    /// output. Lines naming no such file (notes, the source excerpts under each error) are skipped.
    static func firstErrors(in output: String, files: Set<String>) -> [String: String] {
        var errors: [String: String] = [:]
        for line in output.split(separator: "\n") {
            guard let marker = line.firstRange(of: ": error: ") else { continue }
            var location = line[..<marker.lowerBound]
            // Drop ":COLUMN" and ":LINE".
            for _ in 0..<2 {
                guard let colon = location.lastIndex(of: ":"),
                    !location[location.index(after: colon)...].isEmpty,
                    location[location.index(after: colon)...].allSatisfy(\.isNumber)
                else { break }
                location = location[..<colon]
            }
            let file = String(location)
            if files.contains(file), errors[file] == nil { errors[file] = String(line) }
        }
        return errors
    }
}

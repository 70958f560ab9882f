/// The text of any error for one line of output. The tool's own errors describe
/// themselves; FileManager's `CocoaError`s have no readable description without full
/// Foundation (which the tool does not link), so they are spelled out here.
enum ErrorText {
    static func line(for error: Error) -> String {
        switch error {
        case let fileSystem as CocoaError: return line(for: fileSystem)
        case let described as CustomStringConvertible: return described.description
        default: return String(describing: error)
        }
    }

    /// What could not be done to which path, and the system's reason.
    static func line(for error: CocoaError) -> String {
        let verb = (256..<512).contains(error.code.rawValue) ? "read" : "write"
        let path = error.filePath ?? error.url?.path ?? "a file"
        let reason =
            (error.underlying as? POSIXError).map { String(cString: strerror($0.code.rawValue)) }
            ?? "the file system refused (Cocoa error \(error.code.rawValue))"
        return "could not \(verb) \(path): \(reason)"
    }
}

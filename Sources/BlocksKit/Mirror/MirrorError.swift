/// What can stop a mirror run. Each message says what happened to DEST and what to do.
public enum MirrorError: Error, Equatable, Sendable, CustomStringConvertible {
    case locked(destination: String, holder: String)
    case notAMirror(destination: String)
    case fetchFailed(failures: [String])
    case verifyFailed(problems: [String])
    case unreadableSource(String)

    public var description: String {
        switch self {
        case .locked(let destination, let holder):
            return "another blocks mirror (\(holder)) is writing \(destination); wait for it to finish"
        case .notAMirror(let destination):
            return "\(destination) has no index.json; run 'blocks mirror SOURCE \(destination)' first"
        case .fetchFailed(let failures):
            return "\(failures.count) archive\(failures.count == 1 ? "" : "s") could not be mirrored; the mirror still holds the previous consistent snapshot:\n  "
                + failures.joined(separator: "\n  ")
        case .verifyFailed(let problems):
            return "verification found \(problems.count) bad archive\(problems.count == 1 ? "" : "s"); run the mirror again to repair:\n  "
                + problems.joined(separator: "\n  ")
        case .unreadableSource(let source):
            return "\(source) is neither an http(s) URL nor a folder with index.json"
        }
    }
}

/// What can stop a mirror run. Each message says what happened to DEST and what to do.
public enum MirrorError: Error, Equatable, Sendable, CustomStringConvertible {
    case locked(destination: String, holder: String)
    case notAMirror(destination: String)
    /// DEST (or its lock file) cannot be written: the reason names the step and the system's word.
    case unwritable(destination: String, reason: String)
    /// A part of DEST the mirror writes into is a symbolic link, which it never follows.
    case linkedFolder(path: String)
    case fetchFailed(FetchFailures)
    case verifyFailed(problems: [String])
    case unreadableSource(String)
    /// The index is a split index (`build --split-index`): `MirrorIndexReader` reads only
    /// whole ones, and the mirror takes this as the sign to read it by its parts instead.
    case splitIndex(location: String)

    /// Archives that could not be fetched, summed up: a dead server fails every one of
    /// thousands for the same reason, and a line each would bury what DEST now holds.
    public struct FetchFailures: Equatable, Sendable {
        /// The first few failures, in order, each "path: reason".
        public var shown: [String]
        /// How many failed in all.
        public var count: Int
        /// How many archives this run wanted.
        public var wanted: Int
        /// How many of them were fetched and verified, and are kept for the next run.
        public var fetched: Int
        /// Whether DEST holds a previous snapshot (an `index.json`) that is still in place.
        public var hasSnapshot: Bool
        /// What failed to come: archives, or the metadata files listing every version.
        public var noun = "archive"

        /// At most this many failures are spelled out.
        static let shownLimit = 3

        /// No failure yet, in a run that will add what it wants and what fails.
        static func none(hasSnapshot: Bool, noun: String = "archive") -> FetchFailures {
            FetchFailures(shown: [], count: 0, wanted: 0, fetched: 0, hasSnapshot: hasSnapshot, noun: noun)
        }
    }

    public var description: String {
        switch self {
        case .splitIndex(let location):
            return "\(location) is a split index (schemaVersion 3, from 'blocks build --split-index'), which this step of blocks mirror does not read"
        case .locked(let destination, let holder):
            return "another blocks mirror (\(holder)) is writing \(destination); wait for it to finish"
        case .notAMirror(let destination):
            return "\(destination) has no index.json; run 'blocks mirror SOURCE \(destination)' first"
        case .unwritable(let destination, let reason):
            return "cannot write the mirror \(destination): \(reason); check that it is writable and the disk has room"
        case .linkedFolder(let path):
            return "\(path) is a symbolic link; the mirror writes and deletes only inside its folder, so it does not follow it. Replace the link with a folder"
        case .fetchFailed(let failures):
            return failures.description
        case .verifyFailed(let problems):
            return "verification found \(problems.count) bad archive\(problems.count == 1 ? "" : "s"); run the mirror again to repair:\n  "
                + problems.joined(separator: "\n  ")
        case .unreadableSource(let source):
            return "\(source) is neither an http(s) URL nor a folder with index.json"
        }
    }
}

extension MirrorError.FetchFailures: CustomStringConvertible {
    public var description: String {
        var lines = ["\(count) of \(wanted) \(noun)\(wanted == 1 ? "" : "s") could not be mirrored:"]
        lines += shown.map { "  " + $0 }
        if count > shown.count { lines.append("  … and \(count - shown.count) more") }
        let kept =
            fetched == 0 || noun != "archive"
            ? ""
            : " The \(fetched) archive\(fetched == 1 ? "" : "s") fetched and verified in this run \(fetched == 1 ? "is" : "are") kept, so the next run fetches only the rest."
        if hasSnapshot {
            lines.append(
                "The mirror still holds its previous consistent snapshot: its index.json was not changed and names only verified archives.\(kept) Run the mirror again when the source is back."
            )
        } else {
            lines.append(
                "The mirror has no snapshot yet: this was its first run, so it has no index.json and is not a registry until a run completes.\(kept) Run the mirror again when the source is back."
            )
        }
        return lines.joined(separator: "\n")
    }
}

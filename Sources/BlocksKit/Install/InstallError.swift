/// Everything that can stop `add`, `status`, `remove` or `init`. Each case says what
/// happened and what to do; `BlocksCLI` prints it and exits non-zero.
public enum InstallError: Error, Equatable, Sendable, CustomStringConvertible {
    case severalTargets([String])
    /// `add` in a folder that `ProjectLocator.isInsideProject` finds outside any project.
    case notAProject(folder: String)
    case folderBlocked(path: String, blocker: String)
    case notARegularFile(path: String)
    case pathEscapesProject(path: String, root: String)
    case conflicts([String])
    case writeFailed(path: String, reason: String)
    case unreadableLock(path: String, reason: String)
    case unreadableConfig(path: String, reason: String)
    case notAdded(String, suggestions: [String])
    case addedElsewhere(block: String, folder: String)
    case unsafeBlockFile(block: String, path: String)
    case unsafeBlockName(String)
    case unexpectedBlock(requested: String, received: String)
    case projectBusy(root: String)
    case unsafeLockEntry(block: String, kind: String, path: String, folder: String)
    case deleteFailed(failures: [String], blocks: [String])
    /// A block's `dependencies.packages` holds a value that breaks its grammar
    /// (`PackageValueGrammar`), such as a product named `--package-path=/victim`.
    case unsafePackage(block: String, field: String, problem: String)
    /// blocks.json's `"transforms"` differ from the chain the block's files went through.
    case transformsChanged(block: String, recorded: String?, configured: String?)

    public var description: String {
        switch self {
        case .notAProject(let folder):
            return "\(folder) is not inside a project (\(ProjectLocator.projectDefinition)), so blocks has nowhere to add to; "
                + "run it in your project's folder, run 'blocks init' to make this folder a project, or give --path DIR to add here anyway"
        case .severalTargets(let names):
            return "this package has several targets; choose where blocks go:\n"
                + names.map { "  \($0)" }.joined(separator: "\n")
                + "\nRun again with --path Sources/<Target>/Blocks, or save the choice with 'blocks init --path DIR'."
        case .folderBlocked(let path, let blocker):
            return "cannot create the folder \(path): \(blocker) is a file, not a folder; move it away or choose another folder with --path"
        case .notARegularFile(let path):
            return "\(path) is not a regular file (a folder or a link); blocks only replaces regular files, so move it away first"
        case .pathEscapesProject(let path, let root):
            return "\(path) leads outside the project root \(root); blocks writes and deletes only inside the project, "
                + "so nothing was changed: choose a folder inside it, or replace the symbolic link on the way with a folder"
        case .conflicts(let paths):
            return
                "\(paths.count == 1 ? "a file differs" : "\(paths.count) files differ") from what blocks would write, and blocks never overwrites your changes silently:\n"
                + paths.map { "  \($0)" }.joined(separator: "\n")
                + "\nRun again with --overwrite to replace them, or with --dry-run to see a unified diff."
        case .writeFailed(let path, let reason):
            return "cannot write \(path): \(reason); nothing in the project was changed"
        case .unreadableLock(let path, let reason):
            return "cannot read \(path): \(reason); fix or delete it (blocks writes a new one)"
        case .unreadableConfig(let path, let reason):
            return "cannot read \(path): \(reason); fix it or write a new one with 'blocks init'"
        case .transformsChanged(let block, let recorded, let configured):
            return "\(block) was added through the transforms \(recorded ?? "(none)"), and blocks.json now gives \(configured ?? "none"); "
                + "run 'blocks update --retransform \(block)' to apply the new chain (your edits are merged, as in any update), or restore blocks.json's \"transforms\""
        case .notAdded(let name, let suggestions):
            let hint =
                suggestions.isEmpty
                ? "run 'blocks status' to see what was added"
                : "did you mean " + suggestions.map { "'\($0)'" }.joined(separator: ", ") + "?"
            return "'\(name)' was never added to this project; \(hint)"
        case .addedElsewhere(let block, let folder):
            return "\(block) is already added in \(folder); run 'blocks remove \(block)' first to add it somewhere else"
        case .unsafeBlockFile(let block, let path):
            return "block '\(block)' lists the file '\(path)', which would land outside its folder; the registry is broken"
        case .unsafeBlockName(let name):
            return
                "a block named '\(name)' cannot be added: a name is lowercase letters, digits and dashes, and it names the block's folder; the source is broken"
        case .unexpectedBlock(let requested, let received):
            return "asked the registry for '\(requested)' but it sent '\(received)'; the registry is broken"
        case .projectBusy(let root):
            return "another blocks command is changing \(root); wait for it to finish and try again"
        case .unsafeLockEntry(let block, let kind, let path, let folder):
            return Self.unsafeLockEntryDescription(block: block, kind: kind, path: path, folder: folder)
        case .unsafePackage(let block, let field, let problem):
            return "block '\(block)' needs a Swift package that cannot be added: \(field): \(problem); "
                + "the registry is broken, so nothing was added and swift package was not run"
        case .deleteFailed(let failures, let blocks):
            return Self.deleteFailedDescription(failures: failures, blocks: blocks)
        }
    }

    /// A lock entry that would make blocks write or delete outside where it may: a name
    /// that is not a block name, or a path outside the project or the block's folder.
    static func unsafeLockEntryDescription(block: String, kind: String, path: String, folder: String) -> String {
        let problem =
            kind == "name"
            ? "names a block '\(block)', which is not a block name (lowercase letters, digits and dashes)"
            : "gives block '\(block)' the \(kind) '\(path)', which is not a path inside "
                + (kind == "folder" ? "the project" : "the block's folder \(folder)")
        return "\(Lockfile.fileName) is not safe to use: it \(problem); nothing was changed. "
            + "A lock comes with the project from whoever committed it: fix or delete that entry"
    }

    /// What `remove` could not delete: one path inline, several as a list.
    static func deleteFailedDescription(failures: [String], blocks: [String]) -> String {
        let list = failures.count == 1 ? failures[0] + "; " : "\(failures.count) paths:\n" + failures.map { "  \($0)\n" }.joined()
        return "could not delete \(list)what is still on disk stays in \(Lockfile.fileName); "
            + "make it deletable and run 'blocks remove \(blocks.joined(separator: " "))' again"
    }
}

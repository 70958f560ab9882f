/// The tools over one project: `project_status`, `plan_add`, `add_blocks`, `diff_block`
/// and `update_blocks`, each the command of the same name run in the project folder.
/// They write through the commands' own code, so the lock, the atomic transaction and the
/// rule that a changed file is never overwritten without consent hold as on the command
/// line. A cancelled call stops before its first write.
enum MCPProjectTools {
    static let all = [status, planAdd, add, diff, update]

    static let projectPathArgument = MCPSchema.string(
        "The absolute path of the project folder (or a folder inside it): where Package.swift, an .xcodeproj, blocks.json or .git is.", minLength: 1)
    static let namesArgument = MCPSchema.array(
        of: MCPSchema.string(minLength: 1), "Block names, e.g. [\"scrolling-strip\"], or NAME@VERSION.", minItems: 1, maxItems: 100)
    static let pathArgument = MCPSchema.string(
        "The folder to add blocks to, relative to projectPath and inside the project (default: blocks.json's, else Sources/<Target>/Blocks or Blocks/).")

    static let status = MCPTool(
        name: "project_status", title: "Project status",
        description:
            "Show the blocks a project has added, whether each file is unchanged, modified or missing, and which blocks have updates, as `blocks status` does.",
        inputSchema: MCPSchema.object(["projectPath": projectPathArgument], required: ["projectPath"]),
        outputSchema: MCPSchema.object(
            [
                "root": MCPSchema.string(),
                "blocks": MCPSchema.array(
                    of: MCPSchema.object(
                        [
                            "name": MCPSchema.string(), "version": MCPSchema.string(), "registry": MCPSchema.string(),
                            "updateAvailable": MCPSchema.boolean(), "latestVersion": MCPSchema.nullableString,
                            "files": fileStates,
                            // `status` lists the names of the blocks each block depends on.
                            "dependencies": MCPSchema.array(of: MCPSchema.string()),
                            // In a classic Xcode project: the block's Swift files its target no longer lists.
                            "notInXcodeTarget": MCPSchema.array(of: MCPSchema.string()),
                        ].merging(MCPSchema.teamFields) { old, _ in old },
                        required: ["name", "version", "registry", "updateAvailable", "latestVersion", "files"])),
                "registries": MCPSchema.array(
                    of: MCPSchema.object(
                        [
                            "location": MCPSchema.string(),
                            "signature": MCPSchema.string("'signed by KEYID' when a pinned key verified the registry, 'unsigned', or 'built in'."),
                        ], required: ["location", "signature"])),
            ], required: ["root", "blocks"]),
        readOnly: true
    ) { call in
        .success(try call.runJSON(StatusCommand.self, ParsedArguments(), workingDirectory: try projectFolder(call)))
    }

    static let planAdd = MCPTool(
        name: "plan_add", title: "Plan adding blocks",
        description: "Show what add_blocks would do, file by file, with a unified diff for every file that exists, writing nothing (`blocks add --dry-run`).",
        inputSchema: MCPSchema.object(
            [
                "projectPath": projectPathArgument, "names": namesArgument, "path": pathArgument,
            ], required: ["projectPath", "names"]),
        outputSchema: addReport(extra: [
            "diffs": MCPSchema.array(
                of: MCPSchema.object(
                    [
                        "path": MCPSchema.string(), "diff": MCPSchema.string(),
                    ], required: ["path", "diff"]), "What would change in files that exist, as unified diffs.")
        ]),
        readOnly: true
    ) { call in
        let result = try performAdd(call, dryRun: true)
        var object = AddCommand.json(
            result.plan, outcome: result.transaction, target: result.target, warnings: result.warnings, dryRun: true, recommended: result.recommendedTransforms)
        object["diffs"] = .array(
            result.plan.allFiles.filter { $0.existing != nil && $0.action != .skip }.map { file in
                .object(["path": .string(file.path), "diff": .string(AddCommand.diff(file))])
            })
        return .success(object)
    }

    static let add = MCPTool(
        name: "add_blocks", title: "Add blocks",
        description:
            "Copy blocks into the project with the MIT header and record them in blocks.lock (`blocks add`); a file the user changed is never replaced unless overwrite is true: that is an error listing the files.",
        inputSchema: MCPSchema.object(
            [
                "projectPath": projectPathArgument, "names": namesArgument, "path": pathArgument,
                "overwrite": MCPSchema.boolean("Replace files the user changed with the block's version (default false). Ask the user first."),
            ], required: ["projectPath", "names"]),
        outputSchema: addReport(),
        readOnly: false, destructive: true, idempotent: true
    ) { call in
        do {
            let result = try performAdd(call, dryRun: false)
            let report = AddCommand.json(
                result.plan, outcome: result.transaction, target: result.target, warnings: result.warnings, dryRun: false,
                recommended: result.recommendedTransforms)
            return .success(report)
        } catch InstallError.conflicts(let paths) {
            throw MCPToolError(
                message: "\(paths.count == 1 ? "1 file differs" : "\(paths.count) files differ") from what blocks would write because the user changed "
                    + "\(paths.count == 1 ? "it" : "them"), so nothing was written: \(paths.joined(separator: ", ")). Call plan_add to see the diffs, "
                    + "then either leave the files as they are or, if the user agrees, call add_blocks again with overwrite: true.",
                details: [
                    "conflicts": .array(paths.map { .string($0) }),
                    "choices": .array([
                        .string("plan_add: see the unified diff of each file"),
                        .string("add_blocks with overwrite: true: replace the user's changes with the block's version"),
                        .string("leave the files as they are"),
                    ]),
                ])
        }
    }

    static let diff = MCPTool(
        name: "diff_block", title: "Diff added blocks",
        description:
            "Show, as unified diffs, what the user changed in added blocks since add or update wrote them, or with upstream what the registry's newest version changed (`blocks diff`).",
        inputSchema: MCPSchema.object(
            [
                "projectPath": projectPathArgument,
                "names": MCPSchema.array(of: MCPSchema.string(minLength: 1), "The added blocks to compare (default: all).", maxItems: 100),
                "upstream": MCPSchema.boolean("Compare the added version with the registry's newest instead of with the user's files."),
            ], required: ["projectPath"]),
        outputSchema: MCPSchema.object(
            [
                "upstream": MCPSchema.boolean(),
                "files": MCPSchema.array(
                    of: MCPSchema.object(
                        [
                            "path": MCPSchema.string(), "state": MCPSchema.string(), "diff": MCPSchema.string("Empty when there is nothing to show."),
                        ], required: ["path", "state", "diff"])),
                "different": MCPSchema.boolean("True when any file differs (blocks diff exits 1)."),
            ], required: ["upstream", "files", "different"]),
        readOnly: true
    ) { call in
        let (context, _) = call.commandContext(workingDirectory: try projectFolder(call))
        let project = context.project()
        let root = project.root
        let lock = try project.readLock()
        let names = try UpdateOperation.chosenNames(call.strings("names"), all: false, lock: lock)
        let bases = BaseStore(cacheDirectory: context.cacheDirectory)
        let upstream = call.flag("upstream")
        let entries =
            upstream
            ? try DiffCommand.upstreamEntries(names: names, lock: lock, root: root, bases: bases, context: context)
            : DiffCommand.localEntries(names: names, lock: lock, root: root, bases: bases)
        try call.cancellation.check()
        return .success([
            "upstream": .bool(upstream),
            "files": .array(entries.map { .object(["path": .string($0.path), "state": .string($0.state), "diff": .string($0.diff)]) }),
            "different": .bool(entries.contains { $0.state != "unchanged" }),
        ])
    }

    static let update = MCPTool(
        name: "update_blocks", title: "Update blocks",
        description:
            "Bring added blocks to the registry's newest version, merging in the user's changes (`blocks update`); a conflict is written with git markers and returned as an error listing the files.",
        inputSchema: MCPSchema.object(
            [
                "projectPath": projectPathArgument,
                "names": MCPSchema.array(of: MCPSchema.string(minLength: 1), "The added blocks to update (default: all).", maxItems: 100),
                "settle": MCPSchema.string(
                    "Settle conflicts by taking the new version's lines (theirs) or keeping the user's (ours). Ask the user first.", oneOf: ["theirs", "ours"]),
            ], required: ["projectPath"]),
        outputSchema: MCPSchema.object(
            [
                "dryRun": MCPSchema.boolean(),
                "blocks": MCPSchema.array(
                    of: MCPSchema.object(
                        [
                            "name": MCPSchema.string(), "version": MCPSchema.string(), "namespace": MCPSchema.nullableString,
                            "added": MCPSchema.boolean(), "requiredBy": MCPSchema.array(of: MCPSchema.string()),
                        ], required: ["name", "version"])),
                "files": MCPSchema.array(of: MCPSchema.object(["path": MCPSchema.string(), "change": MCPSchema.string()], required: ["path", "change"])),
                "conflicts": MCPSchema.array(of: MCPSchema.object(["path": MCPSchema.string(), "kind": MCPSchema.string()], required: ["path", "kind"])),
                "removed": MCPSchema.array(of: MCPSchema.string()),
                "packageCommands": MCPSchema.array(of: MCPSchema.string()),
                "packagesToAddByHand": MCPSchema.array(of: MCPSchema.string()),
            ], required: ["dryRun", "blocks", "files", "conflicts", "removed"]),
        readOnly: false, destructive: false, idempotent: true
    ) { call in
        let (context, _) = call.commandContext(workingDirectory: try projectFolder(call))
        var request = UpdateOperation.Request(
            project: context.project(), names: call.strings("names"), registryOption: context.registry, access: context.registryAccess)
        request.settle = call.string("settle") == "theirs" ? .theirs : call.string("settle") == "ours" ? .ours : nil
        let outcome = try UpdateOperation.perform(request, beforeWriting: { try call.cancellation.check() })
        let object = UpdateCommand.json(outcome, dryRun: false)
        let plan = outcome.plan
        guard plan.conflicts.isEmpty else {
            var result = MCPToolResult.failure(
                "\(plan.conflicts.count == 1 ? "1 file needs" : "\(plan.conflicts.count) files need") the user: "
                    + plan.conflicts.map(\.path).joined(separator: ", ")
                    + ". Changes on both sides were written with git's conflict markers; edit them out, or call update_blocks again with settle: theirs or ours.",
                details: object)
            result.structured["choices"] = .array([
                .string("edit the files to remove the conflict markers"),
                .string("update_blocks with settle: theirs: take the new version's lines"),
                .string("update_blocks with settle: ours: keep the user's lines"),
            ])
            return result
        }
        return .success(object)
    }

    static let fileStates = MCPSchema.array(of: MCPSchema.object(["path": MCPSchema.string(), "state": MCPSchema.string()], required: ["path", "state"]))

    /// `blocks add --json`'s shape.
    static func addReport(extra: [String: JSONValue] = [:]) -> JSONValue {
        var properties: [String: JSONValue] = [
            "dryRun": MCPSchema.boolean(),
            "folder": MCPSchema.nullableString,
            "blocks": MCPSchema.array(
                of: MCPSchema.object(
                    [
                        "name": MCPSchema.string(), "version": MCPSchema.string(), "folder": MCPSchema.string(), "registry": MCPSchema.string(),
                        "files": MCPSchema.array(
                            of: MCPSchema.object(["path": MCPSchema.string(), "action": MCPSchema.string()], required: ["path", "action"])),
                        // Transforms the block's manifest recommends and blocks.json does not run: named, never run.
                        "recommendedTransforms": MCPSchema.array(of: MCPSchema.string()),
                    ].merging(MCPSchema.teamFields) { old, _ in old }, required: ["name", "version", "folder", "files"])),
            "warnings": MCPSchema.array(of: MCPSchema.string()),
            "deletedStaleFiles": MCPSchema.array(of: MCPSchema.string()),
            "keptStaleFiles": MCPSchema.array(of: MCPSchema.string()),
            "packageCommands": MCPSchema.array(of: MCPSchema.string()),
            "packagesToAddByHand": MCPSchema.array(of: MCPSchema.string()),
            // In an Xcode project: the target the blocks joined, and whether project.pbxproj changed.
            "xcode": MCPSchema.nullable(
                MCPSchema.object(
                    [
                        "project": MCPSchema.string(), "target": MCPSchema.string(), "synchronized": MCPSchema.boolean(),
                        "projectFileEdited": MCPSchema.boolean(),
                    ], required: ["project", "target", "synchronized", "projectFileEdited"])),
        ]
        properties.merge(extra) { _, new in new }
        return MCPSchema.object(properties, required: ["dryRun", "folder", "blocks", "warnings", "deletedStaleFiles", "keptStaleFiles"] + extra.keys.sorted())
    }

    /// `blocks add NAMES [--path P] [--overwrite] [--dry-run]` in the project, as a typed
    /// request. Names are checked first, so an argument is never taken for an archive path
    /// or a URL. Nobody is asked anything: a conflict fails unless `overwrite`.
    static func performAdd(_ call: MCPToolCall, dryRun: Bool) throws -> AddOperation.Outcome {
        let requests = try AddCommand.validatedRequests(call.strings("names"))
        let (context, _) = call.commandContext(workingDirectory: try projectFolder(call))
        var request = AddOperation.Request(
            project: context.project(), blocks: .registry(requests), registryOption: context.registry, access: context.registryAccess)
        request.pathOption = call.string("path")
        request.dryRun = dryRun
        request.overwrite = call.flag("overwrite")
        return try AddOperation.perform(
            request, questions: AddCommand.questions(all: false, interactive: false, context: context),
            events: { AddCommand.show($0, dryRun: dryRun, context: context) }, beforeWriting: { try call.cancellation.check() })
    }

    /// The folder `projectPath` names, once it is sure to be in a project: an absolute
    /// path to an existing folder, with links and `..` resolved, at or inside a folder
    /// that holds a project marker, and never `/` itself. The commands then find the root
    /// from it as they do from the working folder.
    static func projectFolder(_ call: MCPToolCall) throws -> URL {
        let given = call.string("projectPath") ?? ""
        guard given.hasPrefix("/") else {
            throw MCPToolError(message: "projectPath must be an absolute path, such as /Users/me/MyApp; got '\(given)'")
        }
        guard let resolved = realpath(given, nil) else {
            throw MCPToolError(message: "projectPath \(given) does not exist")
        }
        let path = String(cString: resolved)
        free(resolved)
        guard PathKind(path) == .folder else { throw MCPToolError(message: "projectPath \(given) is not a folder") }
        let folder = URL(fileURLWithPath: path, isDirectory: true)
        let project = Project.locate(from: folder)
        guard project.root.path != "/", isMarked(project.root) else {
            throw MCPToolError(
                message: "projectPath \(given) is not in a project: neither it nor a folder above it has "
                    + ProjectLocator.markers.joined(separator: ", ") + " or an .xcodeproj; run 'blocks init' there first if it is one")
        }
        return folder
    }

    static func isMarked(_ root: URL) -> Bool {
        if ProjectLocator.markers.contains(where: { access(root.appendingPathComponent($0).path, F_OK) == 0 }) { return true }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        return names.contains { $0.hasSuffix(".xcodeproj") }
    }
}

import Foundation
import Testing

@testable import BlocksKit

/// Issue 35, "the newcomer's first hour": items 1, 8, 10, 13 and 15, each as a new user
/// meets it.
@Suite struct NewcomerTests {
    // MARK: Item 1: add outside a project

    @Test func addOutsideAProjectRefusesAndSaysTheWaysForward() throws {
        let folder = try TestProject.makeEmpty()
        defer { folder.delete() }
        try folder.write("notes.txt", "mine\n")
        let before = try folder.treeHash()
        let refused = folder.run(["add", "pager"])
        #expect(refused.code == 1, "\(refused.output)\(refused.errors)")
        #expect(refused.errors.split(separator: "\n").count == 1, "\(refused.errors)")
        #expect(refused.errors.contains("is not inside a project"), "\(refused.errors)")
        #expect(refused.errors.contains("Package.swift"), "\(refused.errors)")
        #expect(refused.errors.contains("blocks init"), "\(refused.errors)")
        #expect(refused.errors.contains("--path DIR"), "\(refused.errors)")
        #expect(try folder.treeHash() == before)
        // A dry run is refused the same way: its plan would name a folder that is no project's.
        #expect(folder.run(["add", "pager", "--dry-run"]).code == 1)
    }

    @Test func addOutsideAProjectWithPathProceeds() throws {
        let folder = try TestProject.makeEmpty()
        defer { folder.delete() }
        let added = folder.run(["add", "pager", "--path", "UI"])
        #expect(added.code == 0, "\(added.errors)")
        #expect(folder.exists("UI/pager/Pager.swift"))
        #expect(folder.exists("blocks.lock"))
        // The lock now marks the root, so a later add needs no --path.
        let again = folder.run(["add", "top-tabs", "--path", "UI"])
        #expect(again.code == 0, "\(again.errors)")
    }

    @Test func initOutsideAProjectWarnsAndProceeds() throws {
        let folder = try TestProject.makeEmpty()
        defer { folder.delete() }
        let initialized = folder.run(["init"])
        #expect(initialized.code == 0, "\(initialized.errors)")
        #expect(initialized.errors.contains("warning:") && initialized.errors.contains("is not inside a project"), "\(initialized.errors)")
        #expect(folder.exists(ProjectConfig.fileName))
        // blocks.json now marks the root: add proceeds, into the folder init chose.
        let added = folder.run(["add", "pager"])
        #expect(added.code == 0, "\(added.errors)")
        #expect(folder.exists("Blocks/pager/Pager.swift"))
        // Inside a project, init says nothing of the kind.
        let project = try TestProject.make()
        defer { project.delete() }
        let quiet = project.run(["init"])
        #expect(quiet.code == 0 && !quiet.errors.contains("not inside a project"), "\(quiet.errors)")
    }

    // MARK: Item 8: names in any case, one NAME@VERSION rule

    @Test func blockNamesAreCaseInsensitive() throws {
        let project = try TestProject.make()
        defer { project.delete() }
        let info = project.run(["info", "PAGER"])
        #expect(info.code == 0, "\(info.errors)")
        #expect(info.output.contains("pager 1.0.0"), "\(info.output)")
        let added = project.run(["add", "Pager"])
        #expect(added.code == 0, "\(added.errors)")
        #expect(try project.lock().blocks["pager"] != nil)
        #expect(project.exists("Sources/App/Blocks/pager/Pager.swift"))
    }

    @Test func infoAndAddReadNameAtVersionAlike() throws {
        let project = try TestProject.make()
        defer { project.delete() }
        let info = project.run(["info", "pager@1.0.0"])
        #expect(info.code == 0, "\(info.errors)")
        #expect(info.output.contains("pager 1.0.0"), "\(info.output)")
        for command in ["info", "add"] {
            let missing = project.run([command, "pager@9.9.9"])
            #expect(missing.code == 1, "\(command): \(missing.errors)")
            #expect(missing.errors.contains("pager has no version 9.9.9; this registry has 1.0.0"), "\(command): \(missing.errors)")
        }
        for command in ["info", "add"] {
            let bad = project.run([command, "pager@"])
            #expect(bad.code == 64, "\(command): \(bad.errors)")
            #expect(bad.errors.contains("expected NAME or NAME@VERSION"), "\(command): \(bad.errors)")
        }
    }

    // MARK: Item 10: silent successes and next steps

    @Test func diffWithNoChangesSaysSo() throws {
        let project = try TestProject.make()
        defer { project.delete() }
        #expect(project.run(["add", "pager"]).code == 0)
        let diff = project.run(["diff"])
        #expect(diff.code == 0, "\(diff.errors)")
        #expect(diff.output == "No changes: your files match what blocks added.\n", "\(diff.output)")
        let upstream = project.run(["diff", "--upstream"])
        #expect(upstream.code == 0, "\(upstream.errors)")
        #expect(upstream.output == "No changes upstream: the registry's newest version matches what blocks added.\n", "\(upstream.output)")
        let json = project.run(["diff", "--json"])
        #expect(!json.output.contains("No changes"), "\(json.output)")
    }

    @Test func updateWithNothingToDoSaysSo() throws {
        let project = try TestProject.make()
        defer { project.delete() }
        let empty = project.run(["update"])
        #expect(empty.code == 0, "\(empty.errors)")
        #expect(empty.output.contains("Nothing to update: no blocks have been added here yet"), "\(empty.output)")
        #expect(project.run(["add", "pager"]).code == 0)
        let current = project.run(["update"])
        #expect(current.code == 0, "\(current.errors)")
        #expect(current.output.contains("Everything is up to date."), "\(current.output)")
    }

    @Test func statusNamesTheCommandForAnUpdate() throws {
        let project = try TestProject.make()
        let catalog = try TestCatalog.make([.standard("strip", type: "Strip")])
        defer {
            project.delete()
            catalog.delete()
        }
        #expect(project.run(["--registry", catalog.root.path, "add", "strip"]).code == 0)
        try catalog.put(.standard("strip", type: "Strip", version: "1.2.0"))
        let status = project.run(["status"])
        #expect(status.output.contains("update available: 1.2.0; run 'blocks update strip'"), "\(status.output)")
    }

    @Test func mcpOnATerminalSaysWhatItIs() throws {
        let project = try TestProject.make()
        defer { project.delete() }
        let served = project.run(["mcp"], interactive: true, answers: [])
        #expect(served.code == 0, "\(served.errors)")
        #expect(served.errors.contains("speaks the Model Context Protocol on standard input"), "\(served.errors)")
        #expect(served.errors.contains("blocks mcp config --client"), "\(served.errors)")
        #expect(served.output.isEmpty, "\(served.output)")
        // Piped, as a client starts it, nothing but the protocol.
        let piped = project.run(["mcp"], answers: [])
        #expect(piped.errors.isEmpty, "\(piped.errors)")
    }

    // MARK: Item 13: exit codes and formats

    @Test func aBadNamespaceIsAUsageError() throws {
        let project = try TestProject.make()
        defer { project.delete() }
        for arguments in [["registry", "add", "acme", "https://acme.test"], ["registry", "add", "@new", "https://new.test", "--header", "NoColon"]] {
            let result = project.run(arguments)
            #expect(result.code == 64, "\(arguments): \(result.errors)")
        }
    }

    @Test func versionWithJSONIsAnObject() throws {
        let project = try TestProject.makeEmpty()
        defer { project.delete() }
        for arguments in [["--version", "--json"], ["--json", "--version"], ["list", "--version", "--json"]] {
            let result = try project.runBinary(arguments)
            #expect(result.code == 0, "\(arguments): \(result.errors)")
            #expect(CommandLineContractTests.json(result.output)?["version"] as? String == BlocksCLI.version, "\(arguments): \(result.output)")
        }
    }

    @Test func decliningExportsReplaceIsANoteNotAnError() throws {
        let project = try TestProject.makeEmpty()
        defer { project.delete() }
        try project.write("tabs.zip", "keep me\n")
        let declined = project.run(["export", "pager", "-o", "tabs.zip"], interactive: true, answers: ["n"])
        #expect(declined.code == 1)
        #expect(!declined.errors.contains("error:"), "\(declined.errors)")
        #expect(declined.errors.contains("was kept; nothing was exported"), "\(declined.errors)")
        #expect(project.read("tabs.zip") == "keep me\n")
        // Not asked (no terminal): still an error that says how to replace it.
        let refused = project.run(["export", "pager", "-o", "tabs.zip"])
        #expect(refused.code == 1 && refused.errors.contains("error:"), "\(refused.errors)")
    }

    @Test func quietAddPrintsNoFileLines() throws {
        let project = try TestProject.make()
        defer { project.delete() }
        let quiet = project.run(["add", "pager", "-q"])
        #expect(quiet.code == 0, "\(quiet.errors)")
        #expect(!quiet.output.contains("create"), "\(quiet.output)")
        #expect(!quiet.output.contains("Target folder"), "\(quiet.output)")
        #expect(project.exists("Sources/App/Blocks/pager/Pager.swift"))
        // Errors stay.
        try project.write("Sources/App/Blocks/pager/Pager.swift", "// mine\n")
        let conflict = project.run(["add", "pager", "-q"])
        #expect(conflict.code != 0 && conflict.errors.contains("error:"), "\(conflict.errors)")
    }

    // MARK: Item 15: lint refuses the scaffold's placeholders

    @Test func lintRefusesTheScaffoldsPlaceholders() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        #expect(runBlocks(["new", "segmented-tabs"], in: folder.url).code == 0)
        let lint = runBlocks(["lint", "Catalog", "--no-parse"], in: folder.url)
        #expect(lint.code == 1, "\(lint.out)\(lint.err)")
        let file = "Catalog/segmented-tabs/block.json"
        for field in ["summary.en", "summary.es", "authors[0]", "accessibility.voiceOver", "accessibility.dynamicType", "accessibility.reduceMotion"] {
            #expect(lint.out.contains("\(file): \(field): still holds the scaffold's placeholder"), "\(field): \(lint.out)")
        }
        #expect(lint.out.contains("Describe what the block does."), "\(lint.out)")
    }
}

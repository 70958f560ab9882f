import Foundation
import Testing

@testable import BlocksKit

/// `blocks registry add|list|remove` edit blocks.json in place, atomically, in one stable layout.
@Suite struct RegistryCommandTests {
    @Test func addCreatesBlocksJSONAndRemoveTakesItBack() throws {
        let project = try TestProject.make()
        defer { project.delete() }
        let added = project.run([
            "registry", "add", "@acme", "https://blocks.acme.test/r", "--header", "Authorization: Bearer ${ACME_TOKEN}", "--header", "X-Team: blocks",
        ])
        #expect(added.code == 0, "\(added.errors)")
        #expect(added.output == "Added @acme: https://blocks.acme.test/r (headers: Authorization, X-Team).\n")
        #expect(added.errors.contains("keeps the header X-Team as written"), "a literal value is worth a warning")
        #expect(
            project.read("blocks.json") == """
                {
                  "registries" : {
                    "@acme" : {
                      "headers" : {
                        "Authorization" : "Bearer ${ACME_TOKEN}",
                        "X-Team" : "blocks"
                      },
                      "url" : "https://blocks.acme.test/r"
                    }
                  }
                }

                """)
        let second = project.run(["registry", "add", "@pub", "https://pub.test"])
        #expect(second.code == 0)
        #expect(project.read("blocks.json")?.contains(#""@pub" : "https://pub.test""#) == true, "no headers: a plain string")

        let listed = project.run(["registry", "list"])
        #expect(
            listed.output == """
                (default)  embedded
                @acme      https://blocks.acme.test/r  Authorization (${ACME_TOKEN}), X-Team
                @pub       https://pub.test

                """, "\(listed.output)")
        let json = project.run(["registry", "list", "--json"])
        #expect(json.output.contains(#""variables" : ["#) && !json.output.contains("blocks\""), "header values are never listed: \(json.output)")

        #expect(project.run(["registry", "remove", "@pub"]).output == "Removed @pub.\n")
        #expect(project.run(["registry", "remove", "@acme"]).code == 0)
        #expect(project.read("blocks.json") == "{\n\n}\n")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: project.root.path).filter { $0.hasPrefix(".blocks") }
        #expect(leftovers.isEmpty, "no staging files: \(leftovers)")
    }

    @Test func otherSettingsSurviveAnEdit() throws {
        let project = try TestProject.make()
        defer { project.delete() }
        try project.write("blocks.json", #"{"path": "Sources/App/UI", "registry": "https://main.test"}"#)
        #expect(project.run(["registry", "add", "@acme", "https://acme.test"]).code == 0)
        let config = try #require(try ProjectConfig.read(root: project.root))
        #expect(config.path == "Sources/App/UI")
        #expect(config.registry == "https://main.test")
        #expect(config.registries == ["@acme": .init(url: "https://acme.test")])
    }

    @Test func badInputIsOneErrorAndChangesNothing() throws {
        let project = try TestProject.make()
        defer { project.delete() }
        #expect(project.run(["registry", "add", "@acme", "https://acme.test"]).code == 0)
        let before = project.read("blocks.json")
        let cases: [([String], String)] = [
            (["registry", "add", "@acme", "https://other.test"], "@acme is already a registry of this project"),
            (["registry", "add", "acme", "https://acme.test"], "'acme' is not a namespace"),
            (["registry", "add", "@Acme", "https://acme.test"], "'@Acme' is not a namespace"),
            (["registry", "add", "@new", "https://new.test", "--header", "NoColon"], "'NoColon' is not a header"),
            (["registry", "add", "@new", "https://new.test", "--header", "Bad Name: x"], "is not a header"),
            (["registry", "add", "@new", "https://new.test", "--header", "X: ${UNCLOSED"], "is not a header"),
            (["registry", "add", "@new", "gopher://new.test"], "gopher:// is not supported"),
            (["registry", "remove", "@nothere"], "no registry named @nothere to remove: blocks.json has @acme"),
            (["registry", "add", "@new"], "missing argument <url>"),
            (["registry", "rename", "@acme"], "expected add, list or remove"),
            (["registry", "list", "--header", "X: y"], "--header does not apply here"),
        ]
        for (arguments, message) in cases {
            let result = project.run(arguments)
            #expect(result.code != 0, "\(arguments)")
            #expect(result.errors.contains(message), "\(arguments): \(result.errors)")
            #expect(result.errors.split(separator: "\n").count == 1, "\(result.errors)")
            #expect(project.read("blocks.json") == before, "\(arguments)")
        }
    }

    @Test func aBrokenRegistriesEntryNamesItself() throws {
        let project = try TestProject.make()
        defer { project.delete() }
        try project.write("blocks.json", #"{"registries": {"@acme": {"url": "https://acme.test", "headers": {"Authorization": "Bearer ${ACME"}}}}"#)
        let result = project.run(["list"])
        #expect(result.code == 1)
        #expect(result.errors.contains("registries.@acme header Authorization has a malformed ${...}"), "\(result.errors)")
        try project.write("blocks.json", #"{"registries": {"acme": "https://acme.test"}}"#)
        #expect(project.run(["list"]).errors.contains("registries.acme is not a namespace"))
    }

    @Test func headerValuesExpandFromTheEnvironmentOnly() throws {
        let header = HeaderTemplate(name: "Authorization", value: "Bearer ${A_TOKEN}-${B}$C")
        #expect(header.variables == ["A_TOKEN", "B"])
        #expect(try header.expand(environment: ["A_TOKEN": "x", "B": ""]) == "Bearer x-$C")
        #expect(throws: HeaderTemplate.TemplateProblem.unset("B")) { try header.expand(environment: ["A_TOKEN": "x"]) }
        #expect(throws: HeaderTemplate.TemplateProblem.malformed("${1X}")) { try HeaderTemplate(name: "X", value: "${1X}").expand(environment: [:]) }
        #expect(HTTPOrigin("https://Host.test/a") == HTTPOrigin("https://host.test:443/b"))
        #expect(HTTPOrigin("http://host.test/a") != HTTPOrigin("https://host.test/a"))
        #expect(HTTPOrigin("http://host.test:8080/") != HTTPOrigin("http://host.test/"))
        #expect(HTTPOrigin("http://user@evil.test@host.test/")?.host == "host.test")
        #expect(BlockReference("@acme/pager")?.folderPath == "acme/pager")
        #expect(BlockReference("@acme/") == nil && BlockReference("@/x") == nil && BlockReference("Pager") == nil)
    }

    @Test func aVersionOneLockStillReads() throws {
        let project = try TestProject.make()
        defer { project.delete() }
        try project.write(
            "blocks.lock",
            """
            {"lockVersion": 1, "blocks": {"pager": {"registry": "embedded", "version": "1.0.0", "folder": "Sources/App/Blocks/pager", "createdFolders": [], "files": []}}}
            """)
        let lock = try project.lock()
        #expect(lock.blocks["pager"]?.requested == true && lock.blocks["pager"]?.requiredBy == [] && lock.blocks["pager"]?.namespace == nil)
        try project.write("blocks.lock", #"{"lockVersion": 3, "blocks": {}}"#)
        #expect(throws: InstallError.self) { try project.lock() }
    }
}

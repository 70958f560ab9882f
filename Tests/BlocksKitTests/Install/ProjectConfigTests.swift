import Foundation
import Testing

@testable import BlocksKit

/// `blocks.json` as `ProjectConfig.read` takes it from disk: every field, absent and null
/// fields, keys it does not know, and each field of the wrong type refused with the one
/// error; what `encoded()` writes reads back the same.
@Suite struct ProjectConfigTests {
    func read(_ text: String) throws -> ProjectConfig? {
        let folder = try TemporaryFolder("config")
        defer { folder.cleanUp() }
        try folder.write(ProjectConfig.fileName, text)
        return try ProjectConfig.read(root: folder.url)
    }

    @Test func everyFieldIsRead() throws {
        let config = try read(
            """
            { "path": "Sources/App/UI", "registry": "https://blocks.example.com", "keys": ["RWkey"],
              "registries": { "@pub": "https://pub.example.com",
                              "@acme": { "url": "https://acme.example.com", "headers": { "Authorization": "Bearer ${TOKEN}" }, "keys": ["RWacme"] } },
              "comment": "kept by nobody" }
            """)
        #expect(
            config
                == ProjectConfig(
                    path: "Sources/App/UI", registry: "https://blocks.example.com",
                    registries: [
                        "@pub": .init(url: "https://pub.example.com"),
                        "@acme": .init(url: "https://acme.example.com", headers: ["Authorization": "Bearer ${TOKEN}"], keys: ["RWacme"]),
                    ], keys: ["RWkey"]))
        #expect(try read("{}") == ProjectConfig())
        #expect(try read(#"{ "path": null, "registry": null, "registries": null, "keys": null }"#) == ProjectConfig())
        #expect(try read(#"{ "registries": { "@a": { "url": "u", "headers": null, "keys": null } } }"#) == ProjectConfig(registries: ["@a": .init(url: "u")]))
    }

    @Test(arguments: [
        #"{ "path": 5 }"#, #"{ "registry": [] }"#, #"{ "registries": [] }"#, #"{ "registries": { "@a": 5 } }"#,
        #"{ "registries": { "@a": {} } }"#, #"{ "registries": { "@a": { "url": "u", "headers": { "X": 1 } } } }"#,
        #"{ "registries": { "@a": { "url": "u", "keys": "k" } } }"#, #"{ "keys": "RWkey" }"#, #"{ "keys": [1] }"#,
        "[]", "\"path\"", "{ \"path\": ", "",
    ])
    func aFieldOfTheWrongTypeIsRefused(text: String) throws {
        #expect {
            try read(text)
        } throws: { error in
            guard case InstallError.unreadableConfig(path: "blocks.json", let reason)? = error as? InstallError else { return false }
            return reason.contains("not valid JSON")
        }
    }

    @Test func whatIsWrittenReadsBack() throws {
        let config = ProjectConfig(
            path: "Sources/Blocks", registry: "./registry",
            registries: ["@acme": .init(url: "https://acme.example.com", headers: ["X-Token": "${T}"]), "@pub": .init(url: "https://p.example.com")],
            keys: ["RWone", "RWtwo"])
        #expect(try read(String(decoding: config.encoded(), as: UTF8.self)) == config)
        #expect(try ProjectConfig.read(root: URL(fileURLWithPath: "/nonexistent-\(UUID().uuidString)")) == nil)
    }
}

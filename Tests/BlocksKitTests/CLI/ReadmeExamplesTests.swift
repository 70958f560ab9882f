import Foundation
import Testing

@testable import BlocksKit

/// Every `console` block in README.md runs here with the real binary, in one fresh
/// folder, in the order the README gives, and must print what the README shows. So the
/// README cannot drift from the tool.
///
/// The README sets up each step with a hidden HTML comment, `<!-- readme-test: SHELL -->`,
/// run with bash in the folder before the next command. Output is stdout and stderr
/// together, as a terminal shows them. Before comparing, the folder's real path reads as
/// `/tmp/demo`, the test's nginx as `https://registry.example/`, and durations as `0.00 s`.
@Suite(.serialized) struct ReadmeExamplesTests {
    struct Step {
        var setup: [String]
        var command: String
        var expected: String
        var line: Int
    }

    /// The README's commands, each with the hidden setup before it and the output after it.
    static func steps(in text: String) -> [Step] {
        var steps: [Step] = []
        var pendingSetup: [String] = []
        var inConsole = false
        var current: Step?
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).enumerated() {
            if !inConsole {
                if line.hasPrefix("<!-- readme-test: "), line.hasSuffix(" -->") {
                    pendingSetup.append(String(line.dropFirst("<!-- readme-test: ".count).dropLast(" -->".count)))
                } else if line == "```console" {
                    inConsole = true
                }
                continue
            }
            if line == "```" {
                if let finished = current { steps.append(finished) }
                current = nil
                inConsole = false
            } else if line.hasPrefix("$ ") {
                if let finished = current { steps.append(finished) }
                current = Step(setup: pendingSetup, command: String(line.dropFirst(2)), expected: "", line: number + 1)
                pendingSetup = []
            } else if current != nil {
                current?.expected += line + "\n"
            }
        }
        return steps
    }

    static func normalized(_ text: String, folder: String, registry: String) -> String {
        var result = text.replacingOccurrences(of: registry, with: "https://registry.example/")
        result = result.replacingOccurrences(of: folder, with: "/tmp/demo")
        result = result.replacingOccurrences(of: #"[0-9]+\.[0-9]+ s\b"#, with: "0.00 s", options: .regularExpression)
        let lines = result.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            String(line.reversed().drop { $0 == " " }.reversed())
        }
        return lines.joined(separator: "\n").trimmingCharacters(in: .newlines)
    }

    @Test func everyConsoleBlockPrintsWhatTheReadmeShows() throws {
        let readme = try String(contentsOf: repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let steps = Self.steps(in: readme)
        #expect(steps.count >= 15, "the README has \(steps.count) console commands")
        let folder = try TemporaryFolder("readme")
        defer { folder.cleanUp() }
        let demo = folder.path("demo")
        let served = folder.path("served")
        try FileManager.default.createDirectory(at: demo, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: served, withIntermediateDirectories: true)
        let nginx = try Nginx(root: served)
        defer { nginx.stop() }
        let registry = nginx.baseURL + "/"
        let environment = [
            "PATH": blocksBinary.deletingLastPathComponent().path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
            "HOME": folder.path("home").path, "XDG_CACHE_HOME": folder.path("cache").path,
            "NO_COLOR": "1", "LANG": "C.UTF-8",
            "REPOSITORY": repositoryRoot.path, "SERVED": served.path,
        ]
        for step in steps {
            for setup in step.setup {
                let result = try runProcess(URL(fileURLWithPath: "/bin/bash"), ["-c", setup], in: demo, environment: environment)
                #expect(result.code == 0, "README.md:\(step.line): the setup '\(setup)' failed: \(result.err)")
            }
            let command = step.command.replacingOccurrences(of: "https://registry.example/", with: registry)
            let result = try runProcess(URL(fileURLWithPath: "/bin/bash"), ["-c", command + " 2>&1"], in: demo, environment: environment)
            let actual = Self.normalized(result.out, folder: demo.path, registry: registry)
            let expected = Self.normalized(step.expected, folder: demo.path, registry: registry)
            if actual != expected {
                Issue.record("README.md:\(step.line): '$ \(step.command)' printed:\n\(actual)\n--- but the README shows:\n\(expected)")
            }
        }
    }
}

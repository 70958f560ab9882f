import Foundation
import Testing

@testable import BlocksKit

/// `blocks mcp` driven by a client no one here wrote: the official MCP Python SDK from
/// PyPI (pinned in Scripts/install-deps), through Tests/MCPOracle/mcp_oracle.py, against the
/// real binary over stdio, once in the legacy era (initialize, 2025-11-25) and once in the
/// SDK's auto mode, which probes server/discover and must settle on 2026-07-28. The script
/// calls every tool and holds the results to `blocks … --json`.
///
/// Without the SDK the test is skipped, saying how to install it, except under CI=true,
/// where a missing SDK is a failure: CI installs it, so its absence is a broken setup.
@Suite struct MCPOracleTests {
    static let script = repositoryRoot.appendingPathComponent("Tests/MCPOracle/mcp_oracle.py")
    static let onCI = ProcessInfo.processInfo.environment["CI"] == "true"
    static let sdkAvailable = (try? runTool("python3", ["-c", "import mcp.client.stdio"]))?.code == 0
    static let skipMessage = "the MCP Python SDK is not installed: run Scripts/install-deps (python3 -m pip install mcp==\(pinnedVersion))"
    static let pinnedVersion = "2.3.0"

    @Test(.enabled(if: sdkAvailable || onCI, Comment(rawValue: skipMessage)), arguments: ["legacy", "auto"])
    func theOfficialPythonSDKUsesEveryTool(mode: String) throws {
        #expect(Self.sdkAvailable, "CI=true but \(Self.skipMessage)")
        guard Self.sdkAvailable else { return }
        let run = try runTool("python3", [Self.script.path, try TestProject.binary().path, mode])
        #expect(run.code == 0, "mcp_oracle.py \(mode) failed:\n\(run.out)\n\(run.err)")
        #expect(run.out.contains(" passed, 0 failed"), "\(run.out)")
    }

    @Test func theInstallScriptPinsTheSDKVersionThisTestNames() throws {
        let script = try String(contentsOf: repositoryRoot.appendingPathComponent("Scripts/install-deps"), encoding: .utf8)
        #expect(script.contains("mcp_version=\(Self.pinnedVersion)") && script.contains("\"mcp==$mcp_version\""))
    }
}

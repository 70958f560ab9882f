import Foundation

@testable import BlocksKit

/// Headless Chromium (Debian's `chromium`), driven through the DevTools protocol by
/// `cdp_driver.py` over a pipe: the tests hand it a list of steps (open, type, click,
/// read the clipboard, evaluate) and get back the values, every URL the page requested,
/// and every script error. The driver bounds its own run and kills the browser.
enum Chromium {
    static let driver = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("cdp_driver.py")

    static var executable: String? {
        ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Browser tests run when Chromium is installed, and always under CI, where a missing
    /// browser is a failure rather than a skip.
    static var shouldRun: Bool { executable != nil || ProcessInfo.processInfo.environment["CI"] == "true" }

    struct Outcome {
        var values: [String: JSONValue]
        var requests: [String]
        var exceptions: [String]
        var consoleErrors: [String]
        var failure: String?

        func value(_ name: String) -> JSONValue? { values[name] ?? nil }
        func strings(_ name: String) -> [String] { values[name]?.strings ?? [] }
        func string(_ name: String) -> String? { values[name]?.string }
        func int(_ name: String) -> Int? {
            switch values[name] {
            case .int(let value)?: return value
            case .double(let value)?: return Int(value)
            default: return nil
            }
        }
    }

    /// Runs the steps in one tab. Each step is one JSON object (see `cdp_driver.py`).
    static func run(_ steps: [[String: Any]]) throws -> Outcome {
        guard let executable else { throw HarnessError("chromium is not installed; run Scripts/install-deps (apt-get install chromium)") }
        let plan = FileManager.default.temporaryDirectory.appendingPathComponent("blocks-cdp-plan-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: plan) }
        try JSONSerialization.data(withJSONObject: steps).write(to: plan)
        let result = try runTool("python3", [driver.path, executable, plan.path])
        guard result.code == 0, let data = result.out.data(using: .utf8),
            let value = try? JSONDecoder().decode(JSONValue.self, from: data), let object = value.object
        else {
            throw HarnessError("the DevTools driver failed (exit \(result.code)): \(result.err.suffix(2000))")
        }
        return Outcome(
            values: object["values"]?.object ?? [:], requests: object["requests"]?.strings ?? [],
            exceptions: object["exceptions"]?.strings ?? [], consoleErrors: object["consoleErrors"]?.strings ?? [],
            failure: object["failure"]?.string)
    }
}

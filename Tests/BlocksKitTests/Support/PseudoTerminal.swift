import Foundation

/// The real binary at a terminal: `pty_run.py` runs it under a pseudo-terminal of a given
/// width, with a bounded timeout, and can press Ctrl-C (or send SIGTERM) once some text
/// appeared or some time passed. One harness for every test of what a person sees.
struct PseudoTerminalRun {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("pty_run.py")

    /// The exit status (128 + the signal when one killed it), whether the timeout struck,
    /// everything written to the terminal (stdout and stderr together), and when each
    /// watched text first appeared, in seconds after the start.
    var code: Int32
    var timedOut: Bool
    var transcript: String
    var seen: [String: Double]

    /// Every line drawn at some moment: each `\r`-separated frame of every line, without
    /// escape sequences. A spinner's frames are found here even after it was cleared.
    var drawnFrames: [String] {
        transcript.replacingOccurrences(of: "\r\n", with: "\n").split(separator: "\n").flatMap { $0.components(separatedBy: "\r") }
            .map { $0.replacingOccurrences(of: "\u{1B}[K", with: "") }.filter { !$0.isEmpty }
    }

    init(
        _ arguments: [String], columns: Int = 100, timeout: Double = 30, in directory: URL, environment: [String: String] = [:],
        watch: [String] = [], signalOn: String? = nil, signalAfter: Double? = nil, signal: String = "INT"
    ) throws {
        var options = ["-u", Self.script.path, "--columns", String(columns), "--timeout", String(timeout), "--cwd", directory.path, "--signal", signal]
        for text in watch { options += ["--watch", text] }
        if let signalOn { options += ["--signal-on", signalOn] }
        if let signalAfter { options += ["--signal-after", String(signalAfter)] }
        var env = ProcessInfo.processInfo.environment
        env["BLOCKS_REGISTRY"] = ""
        env["NO_COLOR"] = "1"
        env.removeValue(forKey: "BLOCKS_TOKEN")
        for (name, value) in environment { env[name] = value }
        let result = try runProcess(
            URL(fileURLWithPath: "/usr/bin/env"), ["python3"] + options + ["--", blocksBinary.path] + arguments, environment: env)
        guard result.code == 0, let data = result.out.data(using: .utf8),
            let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { throw HarnessError("pty_run.py failed (\(result.code)): \(result.err)") }
        code = Int32(object["code"] as? Int ?? -1)
        timedOut = object["timedOut"] as? Bool ?? true
        transcript = object["transcript"] as? String ?? ""
        seen = (object["seen"] as? [String: Any])?.compactMapValues { ($0 as? NSNumber)?.doubleValue } ?? [:]
    }
}

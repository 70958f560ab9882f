import Foundation
import Testing

@testable import BlocksKit

/// The one way the tests run a child process: the `blocks` binary, git, python3, bsdtar,
/// nginx and the rest. `start` launches it (stdin /dev/null unless given, as in CI;
/// stdout and stderr captured in pipes, or discarded), and the value then waits, kills
/// or collects. `runProcess` is `start` plus `finish`, for a program run to completion.
///
/// Foundation's `terminate()` can be ignored by a child started from a test thread (its
/// signal mask is inherited blocked), hence `kill()` sends SIGKILL.
final class TestProcess: @unchecked Sendable {
    /// What the child reads.
    enum Input {
        /// /dev/null.
        case none
        /// These bytes, then end of file.
        case data(Data)
        /// A pipe the test writes to (`input`).
        case pipe
    }

    let process: Process
    /// The pipes, when captured (nil when discarded).
    let output: Pipe?
    let errors: Pipe?
    /// The pipe to the child's stdin, with `Input.pipe`.
    let input: Pipe?
    let label: String

    private init(process: Process, output: Pipe?, errors: Pipe?, input: Pipe?, label: String) {
        self.process = process
        self.output = output
        self.errors = errors
        self.input = input
        self.label = label
    }

    /// Launches `executable` with `arguments` in `directory` (default: this process's),
    /// with `environment` (default: this process's), without waiting. stderr is captured
    /// or discarded as stdout is, unless `captureErrors` says otherwise.
    static func start(
        _ executable: URL, _ arguments: [String], in directory: URL? = nil, environment: [String: String]? = nil,
        input: Input = .none, captureOutput: Bool = true, captureErrors: Bool? = nil
    ) throws -> TestProcess {
        // A program copied a moment ago is "busy" while a process another test thread forked
        // in that moment still holds the copy's descriptor; Linux then refuses to run it.
        // Wait that moment out, boundedly, as the tool's own `ChildProcess` does.
        for attempt in 0..<8 {
            do {
                return try startOnce(executable, arguments, in: directory, environment: environment, input: input, captureOutput: captureOutput, captureErrors: captureErrors)
            } catch let error as NSError where (error.userInfo[NSUnderlyingErrorKey] as? NSError)?.code == Int(ETXTBSY) && attempt < 7 {
                usleep(UInt32(min(1 << attempt, 50)) * 1000)
            }
        }
        preconditionFailure("the last attempt returns or throws")
    }

    private static func startOnce(
        _ executable: URL, _ arguments: [String], in directory: URL?, environment: [String: String]?,
        input: Input, captureOutput: Bool, captureErrors: Bool?
    ) throws -> TestProcess {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        if let environment { process.environment = environment }
        let output = captureOutput ? Pipe() : nil
        let errors = (captureErrors ?? captureOutput) ? Pipe() : nil
        process.standardOutput = output ?? FileHandle.nullDevice
        process.standardError = errors ?? FileHandle.nullDevice
        var inputPipe: Pipe?
        switch input {
        case .none: process.standardInput = FileHandle.nullDevice
        case .data, .pipe:
            inputPipe = Pipe()
            process.standardInput = inputPipe
        }
        try process.run()
        if case .data(let bytes) = input, let inputPipe {
            // Written from another thread, so a child that answers before reading all of it
            // cannot block on a full pipe while this one waits to write.
            DispatchQueue.global().async {
                try? inputPipe.fileHandleForWriting.write(contentsOf: bytes)
                try? inputPipe.fileHandleForWriting.close()
            }
        }
        let label = ([executable.lastPathComponent] + arguments).joined(separator: " ")
        return TestProcess(
            process: process, output: output, errors: errors, input: input.isPipe ? inputPipe : nil, label: label)
    }

    var isRunning: Bool { process.isRunning }
    var processIdentifier: pid_t { process.processIdentifier }
    /// The exit status (after the child ended).
    var status: Int32 { process.terminationStatus }

    /// SIGKILL, at once.
    func kill() {
        guard process.processIdentifier > 0, process.isRunning else { return }
        HostTools.killProcess(process.processIdentifier)
    }

    /// SIGKILL, then waits (at most 2 s) for Foundation to see the exit: for servers.
    func stop() {
        guard process.processIdentifier > 0 else { return }
        HostTools.killProcess(process.processIdentifier)
        for _ in 0..<200 where process.isRunning { usleep(10_000) }
    }

    /// SIGTERM (which a child started from a test thread may ignore; see above).
    func terminate() { process.terminate() }

    func waitUntilExit() { process.waitUntilExit() }

    /// Waits at most `seconds` (in slices of `slice` microseconds) while `condition` holds
    /// and the child runs; returns whether it has exited.
    @discardableResult
    func wait(atMost seconds: TimeInterval, slice: UInt32 = 10_000, while condition: () -> Bool = { true }) -> Bool {
        let end = Date().addingTimeInterval(seconds)
        while process.isRunning && condition() && Date() < end { usleep(slice) }
        return !process.isRunning
    }

    /// Reads both pipes to their end (both at once, so a chatty child cannot block on a
    /// full pipe), then waits for the exit. With a `deadline` (seconds) the child is
    /// terminated past it, and the test fails.
    func finish(deadline: TimeInterval? = nil) -> (code: Int32, out: String, err: String) {
        let bytes = finishData(deadline: deadline)
        return (bytes.code, String(decoding: bytes.out, as: UTF8.self), String(decoding: bytes.err, as: UTF8.self))
    }

    /// `finish`, with the raw bytes.
    func finishData(deadline: TimeInterval? = nil) -> (code: Int32, out: Data, err: Data) {
        let process = self.process
        let expiry = Lock()
        nonisolated(unsafe) var expired = false
        let timer = DispatchWorkItem {
            expiry.withLock { expired = true }
            if process.isRunning { process.terminate() }
        }
        if let deadline { DispatchQueue.global().asyncAfter(deadline: .now() + deadline, execute: timer) }
        defer { timer.cancel() }
        let group = DispatchGroup()
        nonisolated(unsafe) var errorBytes = Data()
        if let errors {
            group.enter()
            DispatchQueue.global().async {
                errorBytes = errors.fileHandleForReading.readDataToEndOfFile()
                group.leave()
            }
        }
        let outBytes = output?.fileHandleForReading.readDataToEndOfFile() ?? Data()
        group.wait()
        process.waitUntilExit()
        if let deadline {
            #expect(!expiry.withLock { expired }, "\(label) ran past \(Int(deadline)) s")
        }
        return (process.terminationStatus, outBytes, errorBytes)
    }
}

extension TestProcess.Input {
    fileprivate var isPipe: Bool {
        if case .pipe = self { return true }
        return false
    }
}

/// Runs a program to completion and collects its output (`TestProcess`): stdin is
/// /dev/null unless `input` is given. With a `deadline` (seconds) the program is
/// terminated past it, and the test fails.
func runProcess(
    _ executable: URL, _ arguments: [String], in directory: URL? = nil, environment: [String: String]? = nil,
    input: Data? = nil, deadline: TimeInterval? = nil
) throws -> (code: Int32, out: String, err: String) {
    try TestProcess.start(executable, arguments, in: directory, environment: environment, input: input.map { .data($0) } ?? .none)
        .finish(deadline: deadline)
}

/// Runs a program found on PATH (through /usr/bin/env), as `runProcess` does.
func runTool(
    _ program: String, _ arguments: [String], in directory: URL? = nil, environment: [String: String]? = nil,
    input: Data? = nil, deadline: TimeInterval? = nil
) throws -> (code: Int32, out: String, err: String) {
    try runProcess(
        URL(fileURLWithPath: "/usr/bin/env"), [program] + arguments, in: directory, environment: environment, input: input,
        deadline: deadline)
}

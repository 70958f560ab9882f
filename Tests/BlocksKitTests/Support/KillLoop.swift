import Foundation
import Testing

/// The kill-loop harness: runs a command again and again, kills each run with SIGKILL at
/// a moment chosen per run, and lets the test check its invariants after every run. The
/// loop is bounded in count (`iterations`, then at most `extraIterations` more, made only
/// until `enough` holds) and in time (`timeLimit`; a loop cut short of its `iterations`
/// records an issue, so running out of time never passes for a complete loop). Each wait
/// inside a run is bounded too.
enum KillLoop {
    /// When to kill one run.
    enum Moment {
        /// At a random moment in `range` (microseconds) after the start.
        case randomly(in: ClosedRange<UInt32>)
        /// Once `ready` holds (waiting at most `waitingAtMost` seconds, in slices of a
        /// millisecond), at a random moment in the `window` microseconds after that.
        case after(ready: () -> Bool, waitingAtMost: TimeInterval, window: UInt32)
        /// Not on purpose: the run may finish, within `waitingAtMost` seconds; past that it is killed.
        case never(waitingAtMost: TimeInterval)
    }

    /// What happened to one run.
    struct Run {
        /// Whether the run was still going when its moment came, and was killed.
        let killed: Bool
        /// From the start until the exit was seen (a finished run's length, to within a
        /// millisecond), or until the kill.
        let elapsed: TimeInterval
        /// The exit status (meaningful when not killed).
        let status: Int32
    }

    /// Runs `body(iteration)` for iterations 0, 1, …: always the first `iterations`, then
    /// at most `extraIterations` more while `enough()` is false, all within `timeLimit`
    /// seconds. Returns how many iterations ran.
    @discardableResult
    static func loop(
        iterations: Int, extraIterations: Int = 0, timeLimit: TimeInterval = 600, until enough: () -> Bool = { true },
        _ body: (Int) throws -> Void
    ) rethrows -> Int {
        let end = Date().addingTimeInterval(timeLimit)
        var ran = 0
        for iteration in 0..<(iterations + extraIterations) {
            if iteration >= iterations && enough() { break }
            if Date() >= end {
                if iteration < iterations {
                    Issue.record("the kill loop ran out of time (\(Int(timeLimit)) s) after \(iteration) of \(iterations) runs")
                }
                break
            }
            try body(iteration)
            ran += 1
        }
        return ran
    }

    /// Starts one run (`start`), kills it with SIGKILL at `moment` if it is still going,
    /// and waits for its end. The random moments come from `generator`.
    static func run(
        _ start: () throws -> TestProcess, killAt moment: Moment, generator: inout some RandomNumberGenerator
    ) throws -> Run {
        let started = Date()
        let process = try start()
        let killAt: Date
        switch moment {
        case .randomly(let range):
            killAt = started.addingTimeInterval(Double(UInt32.random(in: range, using: &generator)) / 1_000_000)
        case .after(let ready, let waitingAtMost, let window):
            process.wait(atMost: waitingAtMost, slice: 1_000, while: { !ready() })
            killAt = Date().addingTimeInterval(Double(UInt32.random(in: 0...window, using: &generator)) / 1_000_000)
        case .never(let waitingAtMost):
            killAt = started.addingTimeInterval(waitingAtMost)
        }
        // Waits in slices of a millisecond, so a run that ends first is seen ending.
        while process.isRunning && Date() < killAt { usleep(1_000) }
        var killed = false
        if process.isRunning {
            process.kill()
            killed = true
        }
        process.waitUntilExit()
        return Run(killed: killed, elapsed: Date().timeIntervalSince(started), status: process.status)
    }
}

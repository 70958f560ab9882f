import Foundation
import Testing

@testable import BlocksKit

/// Issue 35, item 4: a network wait on a terminal shows what it waits for, the ETA waits
/// until it means something, and a server that never answers fails in our words.
@Suite struct TerminalWaitTests {
    @Test(arguments: [12, 20, 30, 50, 100])
    func theSpinnerLineFitsEveryWidth(columns: Int) {
        let label = "Waiting for a-very-long-registry-host-name.example.com:8443 (index.json)"
        for frame in 0..<12 {
            let line = Spinner.line(frame: frame, label: label, elapsed: 12.7, columns: columns)
            #expect(line.count <= columns - 1, "\(columns): \(line)")
            #expect(!line.contains("\n"))
        }
        let wide = Spinner.line(frame: 0, label: "Waiting for registry.example.com (index.json)", elapsed: 3.2, columns: 100)
        #expect(wide == "⠋ Waiting for registry.example.com (index.json)… 3s")
        // Too narrow for the whole label: the middle goes, the seconds stay.
        let narrow = Spinner.line(frame: 1, label: label, elapsed: 3, columns: 50)
        #expect(narrow.hasPrefix("⠙ Waiting for"), "\(narrow)")
        #expect(narrow.hasSuffix("… 3s"), "\(narrow)")
        #expect(narrow.count == 49)
    }

    @Test func theSpinnersLabelNamesTheServerAndTheFile() {
        #expect(SpinningTransport.label(for: ["https://registry.example.com/v1/index.json"]) == "Waiting for registry.example.com (index.json)")
        #expect(SpinningTransport.label(for: ["http://127.0.0.1:8080/a/index.json?x=1"]) == "Waiting for 127.0.0.1:8080 (index.json)")
        #expect(SpinningTransport.label(for: ["https://h.example/a", "https://h.example/b"]) == "Waiting for h.example (2 files)")
        #expect(SpinningTransport.label(for: ["https://user:secret@h.example/a"]).contains("secret") == false)
    }

    /// The issue's case: one slow first file made the first ETA 206 s for a run that ended
    /// 13 s later. No ETA before 3 s and a tenth of the files (or three of them).
    @Test func theETAWaitsUntilItMeansSomething() {
        func line(_ done: Int, _ total: Int, _ elapsed: TimeInterval) -> String {
            ProgressBar.line(label: "mirror", progress: TransferProgress(filesDone: done, filesTotal: total, bytesDone: 1000), totalBytes: nil, elapsed: elapsed, columns: 120)
        }
        #expect(!line(1, 30, 7).contains("ETA"), "\(line(1, 30, 7))")
        #expect(!line(0, 30, 20).contains("ETA"))
        #expect(!line(5, 10, 2).contains("ETA"))
        #expect(line(3, 30, 6).contains("ETA 54s"), "\(line(3, 30, 6))")
        #expect(line(5, 10, 4).contains("ETA 4s"))
        #expect(!line(10, 10, 9).contains("ETA"))
    }

    /// The bar and the spinner are one transient line: any other write clears it first.
    @Test func theStatusLineIsClearedBeforeAnyOtherOutput() {
        let terminal = BufferSink(isTerminal: true, columns: 50)
        let line = StatusLine(terminal)
        line.draw("⠋ Waiting")
        line.write("note: something\n")
        line.write("more\n")
        line.draw("bar")
        line.clear()
        line.clear()
        #expect(terminal.text == "\r\u{1B}[K⠋ Waiting\r\u{1B}[Knote: something\nmore\n\r\u{1B}[Kbar\r\u{1B}[K")
        line.abandon()
        line.draw("never")
        #expect(!terminal.text.contains("never"))
    }

    /// A spinner that is stopped before its delay draws nothing; one that ran is cleared.
    @Test func aFastAnswerShowsNoSpinner() {
        let terminal = BufferSink(isTerminal: true, columns: 60)
        let quick = Spinner(sink: terminal, label: "Waiting for x (index.json)", delay: 0.3)
        quick.start()
        quick.stop()
        usleep(500_000)
        #expect(terminal.text.isEmpty, "\(terminal.text.debugDescription)")
        let slow = Spinner(sink: terminal, label: "Waiting for x (index.json)", delay: 0.05, interval: 0.05)
        let started = Date()
        slow.start()
        // It draws after 0.05 s; a loaded machine (the whole suite on 2 cores) may take longer
        // to run its thread, so wait for the frame, up to 5 s, rather than a fixed 0.3 s. The
        // frame then shows the seconds that had passed when it was drawn: 0 unless the
        // machine held its thread back past a second, as it once did.
        for _ in 0..<500 where !terminal.text.contains("⠋") { usleep(10_000) }
        let waited = Int(Date().timeIntervalSince(started))
        slow.stop()
        let drawn = terminal.text
        #expect((0...waited).contains { drawn.contains("⠋ Waiting for x (index.json)… \($0)s") }, "\(drawn.debugDescription)")
        #expect(drawn.hasSuffix("\r\u{1B}[K"))
        usleep(200_000)
        #expect(terminal.text == drawn)
    }

    /// The real binary at 100 and 50 columns: `list` against a server that never answers
    /// shows, within about a second, a spinner naming the server and the file, in the width.
    @Test(arguments: [100, 50])
    func listShowsASpinnerWhileTheRegistryWaits(columns: Int) throws {
        let server = try FaultServer()
        defer { server.stop() }
        let folder = try TemporaryFolder("spinner")
        defer { folder.cleanUp() }
        let host = "127.0.0.1:\(server.port)"
        let run = try PseudoTerminalRun(
            ["--registry", server.url("/silent/spin\(columns)/"), "list"], columns: columns, timeout: 20, in: folder.url,
            environment: ["XDG_CACHE_HOME": folder.path("cache").path], watch: ["Waiting for \(host) (index.json)"], signalAfter: 2.5)
        #expect(!run.timedOut)
        let shownAt = try #require(run.seen["Waiting for \(host) (index.json)"], "\(run.transcript.debugDescription)")
        #expect(shownAt < 1.6, "the spinner came after \(shownAt) s")
        let frames = run.drawnFrames.filter { $0.contains("Waiting for") }
        #expect(frames.contains { $0.hasSuffix("… 1s") || $0.hasSuffix("… 2s") }, "\(frames)")
        for frame in run.drawnFrames { #expect(frame.count <= columns - 1, "\(frame)") }
    }

    /// A server that accepts and never answers: two attempts (not the four of the retry
    /// budget), then our words naming the server and the time waited, not libcurl's.
    @Test func aServerThatNeverAnswersFailsSoonerInOurWords() throws {
        let server = try FaultServer()
        defer { server.stop() }
        let transport = fastTransport(log: LogLines())
        let url = server.url("/silent/never?seconds=20")
        let started = Date()
        let error = try #require(throws: HTTPError.self) { try transport.get(HTTPRequest(url: url)) }
        let elapsed = Date().timeIntervalSince(started)
        guard case .noAnswer(_, let named, let seconds, let attempts) = error else {
            Issue.record("not ours: \(error)")
            return
        }
        #expect(named == "127.0.0.1:\(server.port)")
        #expect(seconds == fastTransferSettings.lowSpeedTime)
        #expect(attempts == CurlTransport.silentAttempts)
        #expect(elapsed < 6, "\(elapsed)")
        #expect(error.description == "127.0.0.1:\(server.port) did not answer within 1 s (2 attempts) for GET \(url); check the address, or try again later")
        #expect(!error.description.contains("Operation too slow") && !error.description.contains("Timeout was reached"))
    }
}

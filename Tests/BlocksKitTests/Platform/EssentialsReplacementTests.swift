import Dispatch
import Foundation
import Testing

@testable import BlocksKit

/// The small pieces that stand in for the parts of Foundation the binary no longer links
/// (see `docs/ARCHITECTURE.md`), each checked against the Foundation call it replaced.
@Suite struct EssentialsReplacementTests {
    @Test func joiningMatchesAppendingPathComponentWithoutAskingTheFileSystem() {
        let folder = URL(fileURLWithPath: "/tmp/some/where", isDirectory: true)
        #expect(folder.joining("a/b.swift") == folder.appendingPathComponent("a/b.swift", isDirectory: false))
        #expect(folder.joining("Blocks", isDirectory: true) == folder.appendingPathComponent("Blocks", isDirectory: true))
        #expect(URL(fileURLWithPath: "/", isDirectory: true).joining("x").path == "/x")
    }

    @Test func fixedPointPrintsWhatStringFormatPrinted() {
        let values: [Double] = [0, 0.004, 0.005, 0.125, 0.5, 1, 1.5, 2.345, 9.999, 10.05, 123.456, 4096.75, -0.25, -3.14159]
        for value in values {
            #expect(value.fixedPoint(places: 2) == String(format: "%.2f", value), "\(value)")
            #expect(value.fixedPoint(places: 1) == String(format: "%.1f", value), "\(value)")
            #expect(value.fixedPoint(places: 0) == String(format: "%.0f", value), "\(value)")
        }
    }

    @Test func trimmingAndPadding() {
        #expect("  1.2.0 \n".trimmingWhitespace() == "1.2.0")
        #expect("\t\u{3000}pid 42\r\n".trimmingWhitespace() == "pid 42")
        #expect(" \n ".trimmingWhitespace() == "")
        #expect("a b".trimmingWhitespace() == "a b")
        #expect("create".paddedToWidth(10) == "create    ")
        #expect("overwrite-all".paddedToWidth(10) == "overwrite-all")
    }

    @Test func httpDatesParseAsDateFormatterDid() throws {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        for text in ["Wed, 21 Oct 2015 07:28:00 GMT", "Sun, 06 Nov 1994 08:49:37 GMT", "Tue, 29 Feb 2028 23:59:59 GMT", "Fri, 01 Jan 2100 00:00:00 GMT"] {
            let expected = try #require(formatter.date(from: text))
            #expect(RetryPolicy.httpDate(text) == expected, "\(text)")
        }
        for text in [
            "Wed, 21 Oct 2015 07:28:00", "21 Oct 2015 07:28:00 GMT", "Wed, 31 Feb 2015 07:28:00 GMT",
            "Wed, 21 Okt 2015 07:28:00 GMT", "Wed, 21 Oct 2015 24:00:00 GMT", "Wed, 21 Oct 15 07:28:00 GMT", "",
        ] {
            #expect(RetryPolicy.httpDate(text) == nil, "\(text)")
        }
    }

    @Test func namesAndVersionsMatchTheSchemaPatterns() throws {
        let name = try NSRegularExpression(pattern: "^[a-z0-9]+(-[a-z0-9]+)*$")
        let semver = try NSRegularExpression(pattern: #"^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$"#)
        func matches(_ pattern: NSRegularExpression, _ text: String) -> Bool {
            pattern.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
        }
        let texts = [
            "", "a", "tabs", "top-tabs", "top--tabs", "-tabs", "tabs-", "Tabs", "tab_s", "tab s", "9", "a-1-b", "ñ", "../x",
            "1.0.0", "0.1.2", "01.0.0", "1.0", "1.0.0-beta.1", "1.0.0+build.7", "1.0.0-rc.1+b", "1.0.0-", "v1.0.0", "1.0.0 ", "10.20.30",
        ]
        for text in texts {
            #expect(ManifestValidator.isValidName(text) == matches(name, text), "\(text.debugDescription)")
            #expect(ManifestValidator.isSemanticVersion(text) == matches(semver, text), "\(text.debugDescription)")
        }
        #expect(ManifestValidator.isOSVersion("18") && ManifestValidator.isOSVersion("18.0.1") && !ManifestValidator.isOSVersion("18.0.1.2"))
    }

    @Test func pathKinds() throws {
        let folder = try TemporaryFolder("path-kind")
        defer { folder.cleanUp() }
        let file = folder.url.appendingPathComponent("file")
        try Data("x".utf8).write(to: file)
        let link = folder.url.appendingPathComponent("link")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: folder.url.path)
        #expect(PathKind(folder.url.path) == .folder)
        #expect(PathKind(file.path) == .other)
        #expect(PathKind(link.path) == .folder)
        #expect(PathKind(folder.url.appendingPathComponent("missing").path) == .missing)
    }

    /// The last bytes of a file, the whole file when it is shorter, nil for a folder or
    /// a missing path: how a mirror tells a signed index without reading it whole.
    @Test func readTailReadsOnlyTheEnd() throws {
        let folder = try TemporaryFolder("tail")
        defer { folder.cleanUp() }
        let file = folder.url.appendingPathComponent("file")
        let bytes = Data((0..<100_000).map { UInt8(truncatingIfNeeded: $0) })
        try bytes.write(to: file)
        #expect(FileDescriptorIO.readTail(file.path, count: 64) == bytes.suffix(64))
        #expect(FileDescriptorIO.readTail(file.path, count: 200_000) == bytes)
        try Data("short".utf8).write(to: file)
        #expect(FileDescriptorIO.readTail(file.path, count: 64) == Data("short".utf8))
        #expect(FileDescriptorIO.readTail(folder.url.path, count: 64) == nil)
        #expect(FileDescriptorIO.readTail(folder.url.appendingPathComponent("missing").path, count: 64) == nil)
    }

    @Test func childProcessReportsExitCodesSignalsAndErrors() throws {
        let shell = "/bin/sh"
        #expect(try ChildProcess.run(shell, arguments: ["-c", "exit 3"]).exitCode == 3)
        #expect(try ChildProcess.run(shell, arguments: ["-c", "kill -9 $$"]).exitCode == 137)
        let captured = try ChildProcess.run(shell, arguments: ["-c", "echo out; echo err >&2; exit 1"], discardOutput: true, captureErrors: true)
        #expect(captured == ChildProcess.Outcome(exitCode: 1, standardError: "err\n"))
        #expect(throws: LaunchError.self) { try ChildProcess.run("/nonexistent/program", arguments: []) }
    }

    @Test func childProcessRunsInItsFolderWithItsEnvironment() throws {
        let folder = try TemporaryFolder("child-process")
        defer { folder.cleanUp() }
        let script = folder.url.appendingPathComponent("probe")
        try Data("#!/bin/sh\n[ \"$(pwd -P)\" = \"$EXPECTED\" ] && [ -z \"$HOME\" ] || exit 9\nexit 0\n".utf8).write(to: script)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
        // TemporaryFolder is already resolved by realpath, as `pwd -P` resolves it (Foundation's
        // resolvingSymlinksInPath would turn macOS's /private/var back into /var).
        let resolved = folder.url.path
        let before = FileManager.default.currentDirectoryPath
        let outcome = try ChildProcess.run(script.path, arguments: [], environment: ["EXPECTED": resolved], workingDirectory: folder.url.path)
        #expect(outcome.exitCode == 0)
        #expect(FileManager.default.currentDirectoryPath == before, "the parent's folder is restored")
    }

    /// A program still open for writing somewhere (here by this process, as a child forked
    /// by another thread at the wrong moment would hold it) is refused with "Text file
    /// busy"; the spawn waits until it is closed instead of failing.
    @Test func childProcessWaitsOutABusyProgramFile() throws {
        let folder = try TemporaryFolder("busy-program")
        defer { folder.cleanUp() }
        let script = folder.url.appendingPathComponent("busy").path
        let writer = open(script, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
        #expect(writer >= 0)
        let body = Array("#!/bin/sh\nexit 4\n".utf8)
        #expect(write(writer, body, body.count) == body.count)
        let closing = DispatchSemaphore(value: 0)
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(100)) {
            close(writer)
            closing.signal()
        }
        #expect(try ChildProcess.run(script, arguments: []).exitCode == 4)
        closing.wait()
    }

    @Test func lockKeepsCountsExact() {
        final class Counter: @unchecked Sendable {
            let lock = Lock()
            var value = 0
        }
        let counter = Counter()
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<10_000 { counter.lock.withLock { counter.value += 1 } }
        }
        #expect(counter.value == 80_000)
    }

    /// The release binary stays free of Foundation's ICU-linked half only while every
    /// library file imports FoundationEssentials where it exists: then a Foundation-only
    /// API fails to compile instead of quietly adding 50 MB and milliseconds to every start.
    @Test func libraryImportsOnlyFoundationEssentials() throws {
        let sources = repositoryRoot.appendingPathComponent("Sources/BlocksKit")
        let files = try FileManager.default.subpathsOfDirectory(atPath: sources.path).filter { $0.hasSuffix(".swift") }
        #expect(files.count > 50)
        for file in files {
            let lines = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
            for (number, line) in lines.enumerated() where line == "import Foundation" {
                let guarded =
                    number >= 3 && lines[number - 3] == "#if canImport(FoundationEssentials)"
                    && lines[number - 2] == "import FoundationEssentials" && lines[number - 1] == "#else"
                #expect(guarded, "\(file):\(number + 1) imports Foundation outside '#if canImport(FoundationEssentials) … #else'")
            }
        }
    }
}

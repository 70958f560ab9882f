#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

// The libFuzzer entry points. `Scripts/fuzz` compiles these files and every BlocksKit
// source into ONE module, so the targets reach internal API without `@testable`, and
// links one binary; `.build/fuzz/bin/<target>` are links to it, and the name it is run
// under picks the target (so a crash reproduces with `.build/fuzz/bin/<target> FILE`).

/// One reader under fuzzing. `run` must return for every input; it traps (through
/// `FuzzCheck.fail`) when a reader breaks one of its promises, which libFuzzer reports
/// as a crash and saves the input.
struct FuzzTarget: Sendable {
    let name: String
    /// Runs once before the first input, for checks that the target can work at all.
    var prepare: @Sendable () -> Void = {}
    let run: @Sendable (Data) -> Void
}

enum FuzzTargets {
    static let all: [FuzzTarget] = [JSONTarget.target, ManifestTarget.target, LockTarget.target, IndexTarget.target, ArchiveTarget.target, SignatureTarget.target, PbxprojTarget.target]
}

/// How a target reports a broken promise: the reason on stderr, then a trap.
enum FuzzCheck {
    static func fail(_ reason: String, file: StaticString = #fileID, line: UInt = #line) -> Never {
        FileDescriptorSink.standardError.write("fuzz check failed: \(reason)\n")
        fatalError(reason, file: file, line: line)
    }

    static func expect(_ condition: Bool, _ reason: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line) {
        if !condition { fail(reason(), file: file, line: line) }
    }
}

nonisolated(unsafe) private var selectedTarget: FuzzTarget?

@_cdecl("LLVMFuzzerInitialize")
public func fuzzerInitialize(
    _ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>
) -> Int32 {
    let program = argv.pointee?.pointee.map { String(cString: $0) } ?? ""
    let name = program.split(separator: "/").last.map(String.init) ?? program
    guard let target = FuzzTargets.all.first(where: { $0.name == name }) else {
        FileDescriptorSink.standardError.write("blocks-fuzz: run me as one of \(FuzzTargets.all.map(\.name).joined(separator: ", ")) (a link named after the target), not '\(name)'\n")
        exit(2)
    }
    target.prepare()
    selectedTarget = target
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let data = bytes.map { Data(bytes: $0, count: count) } ?? Data()
    selectedTarget?.run(data)
    return 0
}

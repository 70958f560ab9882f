import Foundation
import Testing

#if canImport(Darwin)
import Darwin
#else
import Glibc
#endif

/// What the machine running the tests has. The suite is written on Debian 12, where
/// Scripts/install-deps installs every tool; the macOS CI job (.github/workflows/ci.yml)
/// lacks a few Debian-only ones, and the tests that need them are skipped there with one
/// of the reasons below, so a skip always says why. On Linux every condition holds, so
/// nothing is skipped on the machines the suite was written on.
enum HostTools {
    /// True on Linux, whose glibc, dynamic loader and util-linux some tests inspect.
    static let isLinux: Bool = {
        #if os(Linux)
        return true
        #else
        return false
        #endif
    }()

    /// util-linux's `flock` command, which holds a lock the way a second process would.
    /// macOS has no such command.
    static let flock = "/usr/bin/flock"
    static let hasFlock = FileManager.default.isExecutableFile(atPath: flock)
    static let needsFlock: Comment = "needs util-linux's flock command (Debian); macOS has none"

    /// Archive bytes pinned from Debian 12's libarchive 3.6.2 and zlib: another system's
    /// versions may encode the same entries differently (the reproducibility tests still run).
    static let needsDebianLibarchive: Comment = "pinned to the bytes of Debian 12's libarchive and zlib"

    /// glibc's loader prints the libraries it opens with LD_DEBUG=files; dyld has no such log.
    static let hasLoaderLog = isLinux

    /// nginx: Debian's package, else Homebrew's (Apple silicon, then Intel).
    static let nginx =
        ["/usr/sbin/nginx", "/opt/homebrew/bin/nginx", "/usr/local/bin/nginx"]
        .first { FileManager.default.isExecutableFile(atPath: $0) } ?? "/usr/sbin/nginx"

    /// A locale name with UTF-8 characters for the tools tests run (bsdtar, unzip): glibc's
    /// "C.UTF-8"; macOS has "en_US.UTF-8" on every install.
    static let utf8Locale: String = {
        #if os(Linux)
        return "C.UTF-8"
        #else
        return "en_US.UTF-8"
        #endif
    }()

    /// `SOCK_STREAM` as `socket` takes it: glibc's is an enum case, Darwin's an Int32.
    static let streamSocket: Int32 = {
        #if canImport(Darwin)
        return SOCK_STREAM
        #else
        return Int32(SOCK_STREAM.rawValue)
        #endif
    }()

    /// Sends SIGKILL to a process (the C function, which `Loopback.kill` and others shadow).
    @discardableResult
    static func killProcess(_ pid: pid_t) -> Int32 {
        #if canImport(Darwin)
        return Darwin.kill(pid, SIGKILL)
        #else
        return Glibc.kill(pid, SIGKILL)
        #endif
    }

    /// The system temporary folder with symbolic links resolved by the kernel's own rule
    /// (`realpath`): on macOS it lies under /var, a link to /private/var, and the tool
    /// reports resolved paths. On Linux /tmp is already real, so nothing changes there.
    static let temporaryDirectory: URL = {
        let path = FileManager.default.temporaryDirectory.path
        guard let resolved = realpath(path, nil) else { return FileManager.default.temporaryDirectory }
        defer { free(resolved) }
        return URL(fileURLWithPath: String(cString: resolved), isDirectory: true)
    }()
}

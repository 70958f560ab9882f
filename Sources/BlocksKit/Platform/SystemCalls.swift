#if canImport(Darwin)
// `_NSGetEnviron` (below) is declared in crt_externs.h, an explicit submodule of Darwin:
// neither `import Darwin` nor `import Foundation` makes it visible.
import Darwin.crt_externs
#endif

// C functions whose names Foundation or the standard library also use (`read`, `write`,
// `rename` are methods on many types), under names that cannot be mistaken for those.
#if canImport(Glibc)
let systemWrite = Glibc.write
let systemRead = Glibc.read
let systemRename = Glibc.rename
#elseif canImport(Darwin)
let systemWrite = Darwin.write
let systemRead = Darwin.read
let systemRename = Darwin.rename
#endif

extension stat {
    /// When the file's contents last changed. The field is `st_mtim` in glibc and
    /// `st_mtimespec` in Darwin.
    var modificationTime: timespec {
        #if canImport(Darwin)
        st_mtimespec
        #else
        st_mtim
        #endif
    }

    /// When the file's inode last changed (contents, mode, links or name).
    var statusChangeTime: timespec {
        #if canImport(Darwin)
        st_ctimespec
        #else
        st_ctim
        #endif
    }
}

/// The terminal's size as the kernel reports it.
enum TerminalSize {
    /// The width of the terminal on a file descriptor (the `TIOCGWINSZ` ioctl), or nil
    /// when it is not a terminal or does not say.
    static func columns(descriptor: Int32) -> Int? {
        var size = winsize()
        guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }
}

/// The process's environment block, as `environ` holds it: "NAME=value" strings up to a
/// null pointer. Darwin does not export `environ` to Swift; `_NSGetEnviron()` is its
/// accessor there (crt_externs.h).
var processEnvironmentBlock: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? {
    #if canImport(Darwin)
    _NSGetEnviron().pointee
    #else
    environ
    #endif
}

/// The locale whose character type is UTF-8 and which is otherwise "C": what C libraries
/// consult to convert file names. glibc names it "C.UTF-8"; macOS names its UTF-8
/// character type "UTF-8" (the `LC_CTYPE` its Terminal sets).
enum UTF8Locale {
    #if canImport(Darwin)
    static let characterTypeName = "UTF-8"
    #else
    static let characterTypeName = "C.UTF-8"
    #endif
}

/// Ends the process at once with `code` (POSIX `_exit(2)`): the loaded C libraries' exit
/// handlers (OpenSSL, brought in by libcurl, frees all its state there) are skipped, which
/// the kernel makes moot; half a millisecond of each `add`. Call it only once every file
/// is closed and every temporary removed.
func exitSkippingHandlers(_ code: Int32) -> Never {
    _exit(code)
}

/// Free space on file systems (`statvfs`, the same call on Linux and macOS).
enum FileSystemSpace {
    /// The bytes an unprivileged process may still write on the file system holding
    /// `path`, or nil when the system does not say.
    static func availableBytes(atPath path: String) -> Int64? {
        var info = statvfs()
        guard statvfs(path, &info) == 0 else { return nil }
        return Int64(info.f_bavail) * Int64(info.f_frsize)
    }
}

/// Facts about the system the tool runs on that the library asks about.
enum HostSystem {
    /// True where no SwiftUI exists (Linux): a module of that name built from a stub is then
    /// the only one a compiler finds, so `lint --typecheck` can use it.
    static var hasNoSwiftUI: Bool {
        #if canImport(Darwin)
        return false
        #else
        return true
        #endif
    }
}

/// Why another program could not be started.
public enum LaunchError: Error, Equatable, Sendable, CustomStringConvertible {
    case cannotStart(path: String, reason: String)

    public var description: String {
        switch self {
        case .cannotStart(let path, let reason): return "could not run \(path): \(reason)"
        }
    }
}

/// Runs another program and waits for it, through `posix_spawn`. Plugins and
/// `lint`'s `swiftc -parse` need this; Foundation's `Process` would do it too, but it
/// lives in the part of Foundation that links ICU into the binary and slows every start.
enum ChildProcess {
    /// How it ended: the exit code (128 + the signal's number when a signal killed it)
    /// and, when asked for, what it wrote to standard error.
    struct Outcome: Equatable {
        var exitCode: Int32
        var standardError: String
    }

    /// Runs `executable` with `arguments` and waits. Standard input and output are the
    /// caller's, unless `discardOutput`; standard error is the caller's, unless
    /// `captureErrors`. `environment` nil keeps the caller's environment.
    static func run(
        _ executable: String, arguments: [String], environment: [String: String]? = nil,
        workingDirectory: String? = nil, discardOutput: Bool = false, captureErrors: Bool = false
    ) throws -> Outcome {
        // A relative path would be looked up after the child's chdir: pin it first.
        var executable = executable
        if !executable.hasPrefix("/"), let cwd = getcwd(nil, 0) {
            executable = String(cString: cwd) + "/" + executable
            free(cwd)
        }
        // glibc's file actions are a struct; Darwin's are a pointer that init allocates.
        #if canImport(Darwin)
        var actions: posix_spawn_file_actions_t?
        #else
        var actions = posix_spawn_file_actions_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if discardOutput { posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0) }
        var errorPipe: [Int32] = [-1, -1]
        if captureErrors {
            guard pipe(&errorPipe) == 0 else { throw failure(executable, errno) }
            posix_spawn_file_actions_adddup2(&actions, errorPipe[1], 2)
            posix_spawn_file_actions_addclose(&actions, errorPipe[0])
            posix_spawn_file_actions_addclose(&actions, errorPipe[1])
        }
        defer { for end in errorPipe where end >= 0 { close(end) } }

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { $0.map { strdup("\($0.key)=\($0.value)") } + [nil] }
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp ?? [] { free(pointer) }
        }
        // glibc's posix_spawn_file_actions_addchdir_np is not visible to Swift, so the
        // parent steps into the folder for the spawn and back out, which works the same on
        // Darwin; the CLI runs a child from its main thread only. No spawn attributes are
        // used, so their types (a struct in glibc, a pointer in Darwin) do not matter here.
        let savedDirectory = workingDirectory == nil ? -1 : open(".", O_RDONLY | O_CLOEXEC)
        if let workingDirectory, chdir(workingDirectory) != 0 {
            if savedDirectory >= 0 { close(savedDirectory) }
            throw failure(workingDirectory, errno)
        }
        var child: pid_t = 0
        var status: Int32 = 0
        // A program written a moment ago is "busy" while any process forked in that moment
        // still holds the writer's descriptor, until its exec closes it: another thread's
        // spawn is enough. Linux then refuses to run it, so wait that moment out, boundedly.
        for attempt in 0..<Self.busyRetries {
            status =
                envp.map { posix_spawn(&child, executable, &actions, nil, argv, $0) }
                ?? posix_spawn(&child, executable, &actions, nil, argv, processEnvironmentBlock)
            guard status == ETXTBSY, attempt + 1 < Self.busyRetries else { break }
            usleep(UInt32(min(1 << attempt, 50)) * 1000)
        }
        if savedDirectory >= 0 {
            _ = fchdir(savedDirectory)
            close(savedDirectory)
        }
        guard status == 0 else { throw failure(executable, status) }

        var captured: [UInt8] = []
        if captureErrors {
            close(errorPipe[1])
            errorPipe[1] = -1
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = read(errorPipe[0], &buffer, buffer.count)
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { break }
                captured += buffer[0..<count]
            }
        }
        var waitStatus: Int32 = 0
        while waitpid(child, &waitStatus, 0) < 0 {
            guard errno == EINTR else { throw failure(executable, errno) }
        }
        let signal = waitStatus & 0x7f
        let exitCode = signal == 0 ? (waitStatus >> 8) & 0xff : 128 + signal
        return Outcome(exitCode: exitCode, standardError: String(decoding: captured, as: UTF8.self))
    }

    /// How often a spawn is tried while the program file is busy: about two seconds in all.
    static let busyRetries = 45

    private static func failure(_ executable: String, _ code: Int32) -> LaunchError {
        .cannotStart(path: executable, reason: String(cString: strerror(code)))
    }
}

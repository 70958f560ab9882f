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
        var actions = newSpawnActions()
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

        let child = try spawn(executable, arguments: arguments, environment: environment, workingDirectory: workingDirectory, actions: &actions)

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

    /// What a program answered through `exchange`.
    struct Exchange: Equatable {
        var exitCode: Int32
        var output: [UInt8]
        var errors: [UInt8]
        /// Why it was killed before it finished, if it was.
        var stopped: StopReason?

        enum StopReason: Equatable { case timedOut, outputTooLarge }
    }

    /// Runs `executable` with `input` on its standard input and reads its standard output
    /// and error while it runs: a plugin's one request and one answer. It is killed
    /// (SIGKILL) past `timeout` seconds or once it wrote more than `outputLimit` bytes, so a
    /// plugin that never answers or floods cannot hang or exhaust the tool; standard error
    /// is kept up to `errorLimit` bytes and the rest read and dropped. A plugin that exits
    /// without reading its input is no failure of ours: SIGPIPE is ignored and the write ends.
    static func exchange(
        _ executable: String, arguments: [String], input: [UInt8], environment: [String: String], workingDirectory: String?,
        timeout: Double, outputLimit: Int, errorLimit: Int
    ) throws -> Exchange {
        signal(SIGPIPE, SIG_IGN)
        var pipes: [[Int32]] = [[-1, -1], [-1, -1], [-1, -1]]
        for index in pipes.indices {
            guard pipe(&pipes[index]) == 0 else { throw failure(executable, errno) }
        }
        defer { for end in pipes.joined() where end >= 0 { close(end) } }
        for end in pipes.joined() { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        var actions = newSpawnActions()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pipes[0][0], 0)
        posix_spawn_file_actions_adddup2(&actions, pipes[1][1], 1)
        posix_spawn_file_actions_adddup2(&actions, pipes[2][1], 2)
        let child = try spawn(executable, arguments: arguments, environment: environment, workingDirectory: workingDirectory, actions: &actions)
        // The child's ends belong to the child now.
        for (index, side) in [(0, 0), (1, 1), (2, 1)] {
            close(pipes[index][side])
            pipes[index][side] = -1
        }
        for end in [pipes[0][1], pipes[1][0], pipes[2][0]] { _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK) }
        var result = Exchange(exitCode: 0, output: [], errors: [], stopped: nil)
        result.stopped = pump(
            input: input, to: &pipes[0][1], output: pipes[1][0], errors: pipes[2][0], into: &result,
            deadline: Date().addingTimeInterval(timeout), outputLimit: outputLimit, errorLimit: errorLimit)
        if result.stopped != nil { kill(child, SIGKILL) }
        var waitStatus: Int32 = 0
        while waitpid(child, &waitStatus, 0) < 0 {
            guard errno == EINTR else { throw failure(executable, errno) }
        }
        let signal = waitStatus & 0x7f
        result.exitCode = signal == 0 ? (waitStatus >> 8) & 0xff : 128 + signal
        return result
    }

    /// Moves bytes until both output pipes end, or the deadline or the output limit is
    /// passed (the reason is returned).
    private static func pump(
        input: [UInt8], to inputEnd: inout Int32, output: Int32, errors: Int32, into result: inout Exchange,
        deadline: Date, outputLimit: Int, errorLimit: Int
    ) -> Exchange.StopReason? {
        var written = 0
        var open: Set<Int32> = [output, errors]
        if input.isEmpty {
            close(inputEnd)
            inputEnd = -1
        }
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while !open.isEmpty {
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else { return .timedOut }
            var watched = open.sorted().map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            if inputEnd >= 0 { watched.append(pollfd(fd: inputEnd, events: Int16(POLLOUT), revents: 0)) }
            let ready = poll(&watched, nfds_t(watched.count), Int32(min(remaining * 1000, 1000).rounded(.up)))
            if ready < 0 && errno != EINTR { return .timedOut }
            for entry in watched where entry.revents != 0 {
                if entry.fd == inputEnd {
                    let count = input[written...].withUnsafeBytes { write(inputEnd, $0.baseAddress, $0.count) }
                    if count > 0 { written += count }
                    if count < 0 && errno != EAGAIN && errno != EINTR || written == input.count {
                        close(inputEnd)
                        inputEnd = -1
                    }
                    continue
                }
                let count = read(entry.fd, &buffer, buffer.count)
                if count < 0 && (errno == EAGAIN || errno == EINTR) { continue }
                if count <= 0 {
                    open.remove(entry.fd)
                    continue
                }
                if entry.fd == output {
                    result.output += buffer[0..<count]
                    if result.output.count > outputLimit { return .outputTooLarge }
                } else if result.errors.count < errorLimit {
                    result.errors += buffer[0..<min(count, errorLimit - result.errors.count)]
                }
            }
        }
        return nil
    }

    /// glibc's file actions are a struct; Darwin's are a pointer that init allocates.
    #if canImport(Darwin)
    typealias SpawnActions = posix_spawn_file_actions_t?
    static func newSpawnActions() -> SpawnActions { nil }
    #else
    typealias SpawnActions = posix_spawn_file_actions_t
    static func newSpawnActions() -> SpawnActions { posix_spawn_file_actions_t() }
    #endif

    /// Starts `executable` (an absolute path) with `actions` applied to its descriptors,
    /// in `workingDirectory`, and returns its process id.
    private static func spawn(
        _ executable: String, arguments: [String], environment: [String: String]?, workingDirectory: String?, actions: inout SpawnActions
    ) throws -> pid_t {
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { $0.map { strdup("\($0.key)=\($0.value)") } + [nil] }
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp ?? [] { free(pointer) }
        }
        // glibc's posix_spawn_file_actions_addchdir_np is not visible to Swift, so the
        // parent steps into the folder for the spawn and back out, which works the same on
        // Darwin. One spawn at a time: two threads stepping in and out at once could leave
        // the process in the other's folder (a plugin's request folder, deleted a moment
        // later), and a spawn between the steps would start in the wrong folder. No spawn
        // attributes are used, so their types (a struct in glibc, a pointer in Darwin) do
        // not matter here.
        spawnLock.lock()
        defer { spawnLock.unlock() }
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
        return child
    }

    /// How often a spawn is tried while the program file is busy: about two seconds in all.
    static let busyRetries = 45

    /// Held from stepping into a child's working folder until stepping back (`spawn`).
    private static let spawnLock = Lock()

    private static func failure(_ executable: String, _ code: Int32) -> LaunchError {
        .cannotStart(path: executable, reason: String(cString: strerror(code)))
    }
}

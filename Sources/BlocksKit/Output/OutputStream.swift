/// Where a command writes. Injected so tests can run commands in-process and read
/// exactly what a user would have seen.
public protocol TextSink: AnyObject, Sendable {
    func write(_ text: String)
    /// True when the sink is an interactive terminal, which turns on color and progress.
    var isTerminal: Bool { get }
    /// The terminal's width in columns, when the sink is a terminal that says.
    var columns: Int? { get }
}

extension TextSink {
    public var columns: Int? { nil }
}

/// A sink over a file descriptor such as standard output or standard error.
public final class FileDescriptorSink: TextSink, @unchecked Sendable {
    private let descriptor: Int32
    public let isTerminal: Bool
    private let lock = Lock()

    public init(descriptor: Int32) {
        self.descriptor = descriptor
        self.isTerminal = isatty(descriptor) == 1
    }

    public func write(_ text: String) {
        lock.lock()
        defer { lock.unlock() }
        // A closed pipe or full disk on stdout is not worth failing the command for.
        _ = Array(text.utf8).withUnsafeBytes { FileDescriptorIO.writeAll(descriptor, $0) }
    }

    /// Asked each time, so a bar redrawn after the window was resized fits the new width.
    public var columns: Int? { isTerminal ? TerminalWidth.columns(descriptor: descriptor) : nil }

    public static let standardOutput = FileDescriptorSink(descriptor: STDOUT_FILENO)
    public static let standardError = FileDescriptorSink(descriptor: STDERR_FILENO)
}

/// A sink that keeps everything written, for tests.
public final class BufferSink: TextSink, @unchecked Sendable {
    private let lock = Lock()
    private var storage = ""
    public let isTerminal: Bool
    public let columns: Int?

    public init(isTerminal: Bool = false, columns: Int? = nil) {
        self.isTerminal = isTerminal
        self.columns = columns
    }

    public func write(_ text: String) {
        lock.lock()
        storage += text
        lock.unlock()
    }

    public var text: String {
        lock.lock()
        defer { lock.unlock() }
        return storage
    }
}

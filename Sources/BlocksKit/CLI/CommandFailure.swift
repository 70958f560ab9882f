/// An error from a command whose exit code 1 already means something else: `blocks
/// diff` exits 1 when there are differences, as `diff` does, so its failures exit 2.
/// `BlocksCLI.report` prints the underlying error and exits with `exitCode`.
public struct CommandFailure: Error, CustomStringConvertible {
    public var underlying: Error
    public var exitCode: Int32

    public init(_ underlying: Error, exitCode: Int32) {
        self.underlying = underlying
        self.exitCode = exitCode
    }

    public var description: String { ErrorText.line(for: underlying) }

    /// Runs `body`, turning any failure but a usage error (64 already) into this one.
    public static func exiting<Value>(with exitCode: Int32, _ body: () throws -> Value) throws -> Value {
        do {
            return try body()
        } catch let usage as UsageError {
            throw usage
        } catch {
            throw CommandFailure(error, exitCode: exitCode)
        }
    }
}

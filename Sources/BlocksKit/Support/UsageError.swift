/// A mistake in how the command was called. Always exit code 64, with a suggestion where one fits.
public enum UsageError: Error, Equatable, Sendable, CustomStringConvertible {
    case unknownCommand(String, suggestion: String?)
    case unknownOption(String, suggestion: String?)
    case missingValue(option: String)
    /// An option this use of the command cannot do without, and why.
    case missingOption(String, because: String)
    /// An option given where it means nothing, and why.
    case inapplicableOption(String, because: String)
    case unexpectedValue(option: String)
    /// A positional argument not given, with an example of the command to copy and where
    /// to find the values it takes.
    case missingArgument(String, example: String? = nil, hint: String? = nil)
    case unexpectedArgument(String)
    case invalidValue(option: String, value: String, expected: String)

    public var description: String {
        switch self {
        case .unknownCommand(let name, let suggestion):
            // "unknown command 'serch'; did you mean 'search'? See 'blocks --help' for every command"
            return "unknown command '\(name)'" + (suggestion.map { "; did you mean '\($0)'? See" } ?? "; see")
                + " 'blocks --help' for every command"
        case .unknownOption(let name, let suggestion):
            return "unknown option '\(name)'" + Self.didYouMean(suggestion)
        case .missingValue(let option):
            return "option '\(option)' needs a value"
        case .missingOption(let option, let reason):
            return "\(option) is required here: \(reason)"
        case .inapplicableOption(let option, let reason):
            return "\(option) does not apply here: \(reason)"
        case .unexpectedValue(let option):
            return "flag '\(option)' does not take a value"
        case .missingArgument(let name, let example, let hint):
            return "missing argument <\(name)>" + (example.map { "; for example '\($0)'" } ?? "") + (hint.map { " (\($0))" } ?? "")
        case .unexpectedArgument(let value):
            return "unexpected argument '\(value)'"
        case .invalidValue(let option, let value, let expected):
            return "'\(value)' is not a valid value for '\(option)': expected \(expected)"
        }
    }

    private static func didYouMean(_ suggestion: String?) -> String {
        suggestion.map { "; did you mean '\($0)'?" } ?? ""
    }
}

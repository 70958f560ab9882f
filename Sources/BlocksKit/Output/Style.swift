/// ANSI styling that turns itself off when output is not a terminal or `NO_COLOR` is set.
public struct Style: Sendable {
    public enum Color: String, Sendable {
        case bold = "1"
        case dim = "2"
        case red = "31"
        case green = "32"
        case yellow = "33"
        case blue = "34"
        case magenta = "35"
        case cyan = "36"
    }

    public let enabled: Bool

    public init(enabled: Bool) { self.enabled = enabled }

    public func apply(_ color: Color, _ text: String) -> String {
        enabled ? "\u{1B}[\(color.rawValue)m\(text)\u{1B}[0m" : text
    }

    /// Whether to color a stream: a terminal, no `NO_COLOR`, no `--no-color`, not `TERM=dumb`.
    public static func shouldColor(isTerminal: Bool, environment: [String: String], noColorFlag: Bool) -> Bool {
        guard isTerminal, !noColorFlag else { return false }
        if let value = environment["NO_COLOR"], !value.isEmpty { return false }
        return environment["TERM"] != "dumb"
    }
}

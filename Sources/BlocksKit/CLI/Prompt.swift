/// Questions asked on a terminal. They are written to standard error, so standard
/// output stays clean, and read through the context, so tests can answer them.
/// Every question gives up after a few unreadable answers or at end of input.
public enum Prompt {
    static let attempts = 5

    /// One of several answers by letter, e.g. `[y/N/d]`: returns the chosen letter,
    /// or `defaultLetter` on an empty line, at end of input, or after too many tries.
    public static func letter(_ question: String, letters: [Character], defaultLetter: Character, context: CommandContext) -> Character {
        let hint = "[" + letters.map { $0 == defaultLetter ? String($0).uppercased() : String($0) }.joined(separator: "/") + "]"
        for _ in 0..<attempts {
            context.standardError.write("\(question) \(hint) ")
            guard let line = context.readLine() else { return defaultLetter }
            let answer = line.trimmingWhitespace().lowercased()
            if answer.isEmpty { return defaultLetter }
            if let first = answer.first, answer.count == 1 || answer == "yes" || answer == "no", letters.contains(first) {
                return first
            }
            context.standardError.write("Please answer one of \(hint).\n")
        }
        return defaultLetter
    }

    /// A numbered choice. Returns the index, or nil when no valid answer came.
    public static func choose(_ question: String, options: [String], context: CommandContext) -> Int? {
        context.standardError.write(question + "\n")
        for (index, option) in options.enumerated() {
            context.standardError.write("  \(index + 1)) \(option)\n")
        }
        for _ in 0..<attempts {
            context.standardError.write("Number (1-\(options.count)): ")
            guard let line = context.readLine() else { return nil }
            if let number = Int(line.trimmingWhitespace()), (1...options.count).contains(number) {
                return number - 1
            }
            context.standardError.write("Please type a number from 1 to \(options.count).\n")
        }
        return nil
    }
}

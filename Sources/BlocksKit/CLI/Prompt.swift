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
            guard let line = context.readLine() else {
                // The prompt's line ends before whatever follows.
                context.standardError.write("\n")
                return defaultLetter
            }
            let answer = line.trimmingWhitespace().lowercased()
            if answer.isEmpty { return defaultLetter }
            if let first = answer.first, answer.count == 1 || answer == "yes" || answer == "no", letters.contains(first) {
                return first
            }
            context.standardError.write("Please answer one of \(hint).\n")
        }
        return defaultLetter
    }

    /// A choice among `options`, answered by number or by name: the option's name exactly,
    /// else the one name equal to the answer ignoring case. An option's name is `names`'
    /// entry, else its label up to ` (` (`Widgets (Sources/Widgets/Blocks)` is `Widgets`).
    /// Returns the index, or nil when no valid answer came. At end of input the prompt's
    /// line is ended first, so what follows (an error) starts a line of its own.
    public static func choose(_ question: String, options: [String], names: [String]? = nil, context: CommandContext) -> Int? {
        let names = names ?? options.map(name(ofLabel:))
        context.standardError.write(question + "\n")
        for (index, option) in options.enumerated() {
            context.standardError.write("  \(index + 1)) \(option)\n")
        }
        for _ in 0..<attempts {
            context.standardError.write("Number or name (1-\(options.count)): ")
            guard let line = context.readLine() else {
                context.standardError.write("\n")
                return nil
            }
            let answer = line.trimmingWhitespace()
            if let index = match(answer, names: names) { return index }
            if answer.isEmpty || Int(answer) != nil {
                context.standardError.write("Please type a number from 1 to \(options.count), or a name.\n")
            } else {
                let matching = names.filter { $0.lowercased() == answer.lowercased() }
                let reason = matching.count > 1 ? "matches \(matching.joined(separator: " and ")); type it exactly" : "is none of them"
                context.standardError.write(TerminalText.escaped("'\(answer)' \(reason).") + " Please type a number from 1 to \(options.count), or a name.\n")
            }
        }
        return nil
    }

    /// The index `answer` picks: a number from 1, a name, or the only name equal to it
    /// ignoring case.
    static func match(_ answer: String, names: [String]) -> Int? {
        if let number = Int(answer) { return names.indices.contains(number - 1) ? number - 1 : nil }
        if let exact = names.firstIndex(of: answer) { return exact }
        let folded = names.indices.filter { names[$0].lowercased() == answer.lowercased() }
        return folded.count == 1 ? folded[0] : nil
    }

    /// The name an option's label starts with: the text before ` (`, or all of it.
    static func name(ofLabel label: String) -> String {
        let characters = Array(label)
        for index in characters.indices.dropLast() where characters[index] == " " && characters[index + 1] == "(" {
            return String(characters[..<index])
        }
        return label
    }
}

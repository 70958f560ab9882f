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
            context.standardError.write(context.diagnostic(prefix: "", "\(question) \(hint)") + " ")
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
            context.standardError.write(context.diagnostic(prefix: "", "Please answer one of \(hint).") + "\n")
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
        context.standardError.write(context.diagnostic(prefix: "", question) + "\n")
        for (index, option) in options.enumerated() {
            context.standardError.write(context.diagnostic(prefix: "  \(index + 1)) ", option) + "\n")
        }
        for _ in 0..<attempts {
            context.standardError.write(context.diagnostic(prefix: "", "Number or name (1-\(options.count)); Ctrl-D to quit:") + " ")
            guard let line = context.readLine() else {
                context.standardError.write("\n")
                return nil
            }
            let answer = line.trimmingWhitespace()
            if let index = match(answer, names: names) { return index }
            if answer.isEmpty || Int(answer) != nil {
                context.standardError.write(context.diagnostic(prefix: "", "Please type a number from 1 to \(options.count), or a name.") + "\n")
            } else {
                let matching = names.filter { $0.lowercased() == answer.lowercased() }
                let reason = matching.count > 1 ? "matches \(matching.joined(separator: " and ")); type it exactly" : "is none of them"
                context.standardError.write(
                    context.diagnostic(prefix: "", TerminalText.escaped("'\(answer)' \(reason).") + " Please type a number from 1 to \(options.count), or a name.") + "\n")
            }
        }
        return nil
    }

    /// The most options a list shows; past it, the person types names (found with search).
    static let longestList = 30

    /// Several of `options`, answered by numbers or names separated by spaces or commas:
    /// `add` with no names on a terminal, as shadcn's picker. Returns the chosen names in the
    /// order typed, or nil on an empty answer, at end of input, or after too many tries.
    /// A long list shows its first `longestList` entries; any name of it may still be typed.
    public static func chooseSeveral(_ question: String, options: [String], names: [String], context: CommandContext) -> [String]? {
        context.standardError.write(context.diagnostic(prefix: "", question) + "\n")
        for (index, option) in options.prefix(longestList).enumerated() {
            context.standardError.write(context.diagnostic(prefix: "  \(index + 1)) ", TerminalText.escaped(option)) + "\n")
        }
        if options.count > longestList {
            context.standardError.write(
                context.diagnostic(prefix: "  ", "… and \(options.count - longestList) more ('blocks search WORDS' finds them; type their names)") + "\n")
        }
        let shown = min(options.count, longestList)
        for _ in 0..<attempts {
            context.standardError.write(context.diagnostic(prefix: "", "Numbers or names, separated by spaces (1-\(shown)); Enter for none:") + " ")
            guard let line = context.readLine() else {
                context.standardError.write("\n")
                return nil
            }
            let answers = line.split { $0 == " " || $0 == "," || $0 == "\t" }.map(String.init)
            if answers.isEmpty { return nil }
            let picked = answers.map { answer -> Int? in
                if let number = Int(answer) { return number >= 1 && number <= shown ? number - 1 : nil }
                return match(answer, names: names)
            }
            if let unknown = zip(answers, picked).first(where: { $0.1 == nil })?.0 {
                context.standardError.write(
                    context.diagnostic(prefix: "", TerminalText.escaped("'\(unknown)' is not one of them.") + " Please type numbers from 1 to \(shown), or names.") + "\n")
                continue
            }
            var chosen: [String] = []
            for index in picked.compactMap({ $0 }) where !chosen.contains(names[index]) { chosen.append(names[index]) }
            return chosen
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

    /// Every block of `registries` as a list shows it: the name to type, and a label with the title.
    static func blockChoices(in registries: RegistrySet) throws -> [(name: String, label: String)] {
        try registries.members.flatMap { member in
            try member.source.manifests().map { manifest in
                let name = member.reference(manifest.name).description
                return (name: name, label: "\(name) (\(manifest.englishTitle))")
            }
        }
    }

    /// The one block a person picks when a command that needs a name got none (`info`,
    /// `view`); without a terminal, or with `--json`, a usage error with `example`.
    static func pickBlock(in registries: RegistrySet, example: String?, context: CommandContext) throws -> String {
        let missing = UsageError.missingArgument("name", example: example, hint: "'blocks list' shows every name")
        guard context.isInteractive, !context.json else { throw missing }
        let listed = try blockChoices(in: registries)
        guard let index = choose("Which block?", options: listed.map(\.label), names: listed.map(\.name), context: context) else { throw missing }
        return listed[index].name
    }
}

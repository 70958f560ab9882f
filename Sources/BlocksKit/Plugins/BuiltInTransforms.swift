/// A transform shipped inside the binary. It speaks the same protocol as any plugin
/// (`answer` takes the request and returns the response, in-process), so the chain, the
/// rules it checks and `blocks plugin list` treat it like any other.
protocol BuiltInTransform: Sendable {
    var name: String { get }
    /// The files after the transform, or `PluginError.refused` with the reason.
    func transform(
        _ files: [TransformFile], targetKind: TransformInput.TargetKind, options: [String: JSONValue], place: PluginPlace
    ) throws(PluginError) -> [TransformFile]
}

/// Where a plugin runs: the tool's environment (a plugin gets only part of it) and the
/// project's root, its working folder.
struct PluginPlace: Sendable {
    var environment: [String: String]
    var workingDirectory: URL
}

extension BuiltInTransform {
    /// The protocol's answer to `request`.
    func answer(_ request: JSONValue, place: PluginPlace) -> JSONValue {
        let members = request.object ?? [:]
        guard members["request"]?.string == "transform" else {
            return .object(["protocolVersion": .int(PluginProtocol.version), "capabilities": .array([.string(PluginProtocol.Capability.transform.rawValue)])])
        }
        do throws(PluginError) {
            let files = try PluginProtocol.files(in: members, plugin: name)
            let kind = members["target"]?.object?["kind"]?.string.flatMap(TransformInput.TargetKind.init(rawValue:)) ?? .app
            let result = try transform(files, targetKind: kind, options: members["options"]?.object ?? [:], place: place)
            return .object(["protocolVersion": .int(PluginProtocol.version), "files": .array(result.map(\.jsonValue))])
        } catch {
            let message: String
            if case .refused(_, let reason) = error { message = reason } else { message = error.description }
            return .object(["protocolVersion": .int(PluginProtocol.version), "error": .object(["message": .string(message)])])
        }
    }
}

/// Swift text as the lexer's tokens, with edits by byte range applied at once.
struct SwiftSourceEdit {
    let bytes: [UInt8]
    /// The source's own code (no interpolations), comments and line ends left out, in order.
    let code: [SwiftLexer.Token]
    private var replacements: [(range: Range<Int>, text: String)] = []

    init(_ text: Data) {
        bytes = Array(text)
        code = SwiftLexer.tokens(bytes).filter { token in
            token.depth == 0 && token.kind != .lineComment && token.kind != .blockComment && token.kind != .newline
        }.sorted { $0.range.lowerBound < $1.range.lowerBound }
    }

    func text(_ token: SwiftLexer.Token) -> String { String(decoding: bytes[token.range], as: UTF8.self) }

    func isPunctuation(_ index: Int, _ character: Character) -> Bool {
        code[index].kind == .punctuation && text(code[index]) == String(character)
    }

    mutating func replace(_ range: Range<Int>, with text: String) { replacements.append((range, text)) }

    /// The text with every replacement made.
    func result() -> Data {
        var output: [UInt8] = []
        var position = 0
        for replacement in replacements.sorted(by: { $0.range.lowerBound < $1.range.lowerBound }) {
            output += bytes[position..<replacement.range.lowerBound]
            output += Array(replacement.text.utf8)
            position = replacement.range.upperBound
        }
        output += bytes[position...]
        return Data(output)
    }
}

/// `access-level`: the block's declarations made `public` for a library or package
/// target, or `internal` (no modifier) for an app. It changes top-level declarations and
/// the members of top-level types (a public `View` needs a public `body` and `init`),
/// never `private` or `fileprivate` ones, never protocol requirements, and never anything
/// in a comment or a string: it reads tokens from `SwiftLexer`. Option `"level"`
/// (`public` or `internal`) overrides the target's kind.
struct AccessLevelTransform: BuiltInTransform {
    let name = "access-level"

    static let typeKeywords: Set<String> = ["struct", "class", "enum", "actor", "extension", "protocol"]
    static let memberKeywords: Set<String> = ["func", "var", "let", "init", "typealias", "subscript", "struct", "class", "enum", "actor", "protocol"]
    static let accessWords: Set<String> = ["public", "open", "internal", "package", "fileprivate", "private"]
    static let modifierWords: Set<String> = [
        "final", "static", "nonisolated", "override", "mutating", "nonmutating", "indirect", "lazy", "weak", "unowned", "convenience",
        "required", "dynamic", "optional", "isolated", "consuming", "borrowing", "distributed",
    ]

    func transform(
        _ files: [TransformFile], targetKind: TransformInput.TargetKind, options: [String: JSONValue], place: PluginPlace
    ) throws(PluginError) -> [TransformFile] {
        let makePublic: Bool
        switch options["level"]?.string {
        case "public"?: makePublic = true
        case "internal"?: makePublic = false
        case nil: makePublic = targetKind != .app
        case let other?: throw .refused(plugin: name, message: "option \"level\" is \(other); it takes public or internal")
        }
        return files.map { file in
            guard file.path.hasSuffix(".swift") else { return file }
            var changed = file
            changed.content = Self.apply(file.content, makePublic: makePublic)
            return changed
        }
    }

    /// The text with its eligible declarations' access changed.
    static func apply(_ content: Data, makePublic: Bool) -> Data {
        var edit = SwiftSourceEdit(content)
        var braces: [Bool] = []  // for each open `{`: does it open the body of a top-level type (not a protocol)?
        var pendingType: String?  // the type keyword whose body's `{` comes next
        for index in edit.code.indices {
            let token = edit.code[index]
            if edit.isPunctuation(index, "{") {
                braces.append(braces.isEmpty && pendingType != nil && pendingType != "protocol")
                pendingType = nil
                continue
            }
            if edit.isPunctuation(index, "}") {
                _ = braces.popLast()
                continue
            }
            guard token.kind == .identifier else { continue }
            let word = edit.text(token)
            let eligible = braces.isEmpty ? (memberKeywords.contains(word) || word == "extension") : (braces.count == 1 && braces[0] && memberKeywords.contains(word))
            if braces.isEmpty, typeKeywords.contains(word), !isMemberAccess(edit, index) { pendingType = word }
            guard eligible, !isMemberAccess(edit, index), word != "extension" else { continue }
            change(&edit, declarationAt: index, makePublic: makePublic)
        }
        return edit.result()
    }

    /// `.init` or `Self.enum`: a name after a dot is no declaration.
    static func isMemberAccess(_ edit: SwiftSourceEdit, _ index: Int) -> Bool {
        index > 0 && edit.isPunctuation(index - 1, ".")
    }

    /// Finds the declaration's modifiers before its keyword and sets its access.
    static func change(_ edit: inout SwiftSourceEdit, declarationAt keyword: Int, makePublic: Bool) {
        var start = keyword
        var access: Int?
        var index = keyword - 1
        while index >= 0 {
            let token = edit.code[index]
            let word = edit.text(token)
            if token.kind == .identifier, accessWords.contains(word) {
                access = index
            } else if token.kind == .identifier, modifierWords.contains(word) {
                // a modifier: part of the declaration
            } else if edit.isPunctuation(index, ")"), let open = openParenthesis(edit, before: index), open > 0,
                edit.code[open - 1].kind == .identifier, accessWords.contains(edit.text(edit.code[open - 1]))
            {
                // `private(set)`: the setter's access; the declaration's own stays as written.
                return
            } else {
                break
            }
            start = index
            index -= 1
        }
        if let access {
            let word = edit.text(edit.code[access])
            if makePublic, word == "internal" { edit.replace(edit.code[access].range, with: "public") }
            if !makePublic, word == "public" || word == "open" {
                let next = edit.code[access + 1].range.lowerBound
                edit.replace(edit.code[access].range.lowerBound..<next, with: "")
            }
        } else if makePublic {
            let at = edit.code[start].range.lowerBound
            edit.replace(at..<at, with: "public ")
        }
    }

    static func openParenthesis(_ edit: SwiftSourceEdit, before close: Int) -> Int? {
        var depth = 0
        var index = close
        while index >= 0 {
            if edit.isPunctuation(index, ")") { depth += 1 }
            if edit.isPunctuation(index, "(") {
                depth -= 1
                if depth == 0 { return index }
            }
            index -= 1
        }
        return nil
    }
}

/// `prefix`: the block's own top-level types renamed with a prefix (`Pager` becomes
/// `BKPager`), in every file of the block, its demo included, so it cannot clash with the
/// app's own `Pager`. Only names in code change, never comments or strings. It refuses
/// when a new name is already used in the block (the rename would be ambiguous). Option
/// `"prefix"`: the prefix, a Swift name's start.
struct PrefixTransform: BuiltInTransform {
    let name = "prefix"
    static let declaringKeywords: Set<String> = ["struct", "class", "enum", "actor", "protocol", "typealias"]

    func transform(
        _ files: [TransformFile], targetKind: TransformInput.TargetKind, options: [String: JSONValue], place: PluginPlace
    ) throws(PluginError) -> [TransformFile] {
        guard let prefix = options["prefix"]?.string, let first = prefix.utf8.first, SwiftLexer.isIdentifierStart(first),
            prefix.utf8.allSatisfy(SwiftLexer.isIdentifierPart)
        else {
            throw .refused(plugin: name, message: "option \"prefix\" must be a Swift name's start, e.g. \"BK\"")
        }
        let sources = files.map { $0.path.hasSuffix(".swift") ? SwiftSourceEdit($0.content) : nil }
        let declared = Set(sources.compactMap { $0 }.flatMap(Self.topLevelTypeNames))
        let used = Set(sources.compactMap { $0 }.flatMap { source in source.code.filter { $0.kind == .identifier }.map(source.text) })
        if let clash = declared.sorted().first(where: { used.contains(prefix + $0) }) {
            throw .refused(plugin: name, message: "renaming \(clash) to \(prefix + clash) is ambiguous: the block already uses \(prefix + clash)")
        }
        return zip(files, sources).map { file, source in
            guard var edit = source else { return file }
            for token in edit.code where token.kind == .identifier && declared.contains(edit.text(token)) {
                edit.replace(token.range, with: prefix + edit.text(token))
            }
            var renamed = file
            renamed.content = edit.result()
            return renamed
        }
    }

    /// The names declared by a type keyword outside every brace.
    static func topLevelTypeNames(_ source: SwiftSourceEdit) -> [String] {
        var depth = 0
        var names: [String] = []
        for index in source.code.indices {
            if source.isPunctuation(index, "{") { depth += 1 }
            if source.isPunctuation(index, "}") { depth -= 1 }
            guard depth == 0, source.code[index].kind == .identifier, declaringKeywords.contains(source.text(source.code[index])),
                index + 1 < source.code.count, source.code[index + 1].kind == .identifier, index == 0 || !source.isPunctuation(index - 1, ".")
            else { continue }
            names.append(source.text(source.code[index + 1]))
        }
        return names
    }
}

/// `swift-format`: each Swift file through the toolchain's `swift format`, with the
/// project's own `.swift-format` configuration when it has one (else swift-format's
/// defaults), or the file option `"configuration"` names, relative to the project.
struct SwiftFormatTransform: BuiltInTransform {
    let name = "swift-format"

    func transform(
        _ files: [TransformFile], targetKind: TransformInput.TargetKind, options: [String: JSONValue], place: PluginPlace
    ) throws(PluginError) -> [TransformFile] {
        let path = place.environment["PATH"]
        let standalone = ExternalPlugin.resolve("swift-format", path: path)
        let command = standalone.hasPrefix("/") ? [standalone, "format"] : [ExternalPlugin.resolve("swift", path: path), "format", "format"]
        var arguments = Array(command.dropFirst())
        let configuration = place.workingDirectory.appendingPathComponent(options["configuration"]?.string ?? ".swift-format")
        if PathKind(configuration.path) == .other { arguments += ["--configuration", configuration.path] }
        return try files.map { file throws(PluginError) in
            guard file.path.hasSuffix(".swift") else { return file }
            let run: ChildProcess.Exchange
            do {
                run = try ChildProcess.exchange(
                    command[0], arguments: arguments + ["--assume-filename", file.path], input: Array(file.content),
                    environment: place.environment.filter { ExternalPlugin.baseEnvironment.contains($0.key) }, workingDirectory: place.workingDirectory.path,
                    timeout: 60, outputLimit: ExternalPlugin.outputLimit, errorLimit: ExternalPlugin.errorLimit)
            } catch {
                throw .cannotStart(plugin: name, reason: "\(error) (swift format ships with Swift 6 toolchains)")
            }
            guard run.stopped == nil, run.exitCode == 0 else {
                let said = TerminalText.escaped(String(decoding: run.errors, as: UTF8.self).trimmingWhitespace())
                throw .failed(plugin: name, exitCode: run.exitCode, errors: String(said.prefix(500)))
            }
            var formatted = file
            formatted.content = Data(run.output)
            return formatted
        }
    }
}

/// One thing wrong with a catalog, naming the file and the field so it can be fixed
/// without guessing.
public struct LintProblem: Sendable, Equatable, CustomStringConvertible {
    public var file: String
    public var field: String
    public var message: String

    public init(file: String, field: String, message: String) {
        self.file = file
        self.field = field
        self.message = message
    }

    /// As `lint --json` lists it. Nothing reads it back.
    var jsonValue: JSONValue { .object(["file": .string(file), "field": .string(field), "message": .string(message)]) }

    public var description: String { field.isEmpty ? "\(file): \(message)" : "\(file): \(field): \(message)" }
}

/// Checks `block.json` against the rules of `Schemas/block.schema.json`, reporting every
/// problem rather than stopping at the first.
public enum ManifestValidator {
    public static let knownPlatforms = ["iOS", "iPadOS", "macOS", "tvOS", "watchOS", "visionOS"]
    public static let levels = ["beginner", "intermediate", "advanced"]
    public static let languages = ["en", "es"]

    /// The most transforms a manifest may recommend (`recommendedTransforms`).
    public static let maximumRecommendedTransforms = 8

    /// `^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$`, the schema's pattern.
    public static func isSemanticVersion(_ text: String) -> Bool {
        text.wholeMatch(of: /(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)(-[0-9A-Za-z.\-]+)?(\+[0-9A-Za-z.\-]+)?/) != nil
    }

    /// The one rule for block names, which become folder names in projects and registries:
    /// the schema's `^[a-z0-9]+(-[a-z0-9]+)*$` and at most 100 characters, checked on bytes.
    /// Every reader of a name (lint, indexes, archives, the lock, `add`) asks this.
    public static func isValidName(_ text: String) -> Bool {
        guard text.utf8.count <= 100 else { return false }
        var previous: UInt8 = UInt8(ascii: "-")
        for byte in text.utf8 {
            let isWordByte = (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
            guard isWordByte || (byte == UInt8(ascii: "-") && previous != UInt8(ascii: "-")) else { return false }
            previous = byte
        }
        return previous != UInt8(ascii: "-")
    }

    /// `^[0-9]+(\.[0-9]+){0,2}$`: "18", "18.0" or "18.0.1".
    static func isOSVersion(_ text: String) -> Bool {
        text.wholeMatch(of: /[0-9]+(\.[0-9]+){0,2}/) != nil
    }

    /// Every string (and key) in the document holding a control character, by its path
    /// (`title.en`, `tags.es[2]`), with the first such character: the rule the manifest
    /// reader enforces too (`JSONFields`), for every field there is, known or not.
    static func controlCharacters(in value: JSONValue, path: String = "") -> [(String, Unicode.Scalar)] {
        switch value {
        case .string(let text):
            return TerminalText.firstControl(in: text).map { [(path, $0)] } ?? []
        case .array(let elements):
            return elements.enumerated().flatMap { controlCharacters(in: $0.element, path: path + "[\($0.offset)]") }
        case .object(let members):
            return members.sorted { $0.key < $1.key }.flatMap { key, member in
                let place = path.isEmpty ? key : path + "." + key
                let inKey = TerminalText.firstControl(in: key).map { [(place, $0)] } ?? []
                return inKey + controlCharacters(in: member, path: place)
            }
        case .int, .double, .bool, .null:
            return []
        }
    }

    /// Problems in one manifest's bytes. `file` names it in messages; `folderName`, when
    /// given, must equal the manifest's name. The checks run in the order of the schema's
    /// fields, one named step each (`ManifestReview`).
    public static func problems(in data: Data, file: String = "block.json", folderName: String? = nil) -> [LintProblem] {
        let document: JSONValue
        do {
            document = try JSONReader.parse(data)
        } catch {
            let message = error.isTooDeep ? error.summary + " (at byte \(error.offset))" : "not valid JSON: \(error.reason) at byte \(error.offset)"
            return [LintProblem(file: file, field: "", message: message)]
        }
        guard let root = document.object else { return [LintProblem(file: file, field: "", message: "not a JSON object")] }
        var review = ManifestReview(root: root, file: file)
        for (field, scalar) in controlCharacters(in: document) {
            review.report(field, "holds the control character \(TerminalText.visible(scalar)); every text is one line of plain text")
        }
        review.checkIdentity(folderName: folderName)
        review.checkPlatforms()
        review.checkTags()
        review.checkAuthors()
        review.checkAccessibility()
        review.checkAPI()
        review.checkFiles()
        review.checkRecommendedTransforms()
        if let value = root["dependencies"] {
            dependencyProblems(value, name: root["name"]?.string) { review.report($0, $1) }
        }
        return review.problems
    }

    /// `dependencies`: each block requirement parses (and is not the block itself), and each
    /// package has a URL, one of `from` and `exact`, and products. Whether a named block
    /// exists is the linter's check, which sees the whole catalog.
    static func dependencyProblems(_ value: JSONValue, name: String?, report: (String, String) -> Void) {
        guard let dependencies = value.object else { return report("dependencies", "must be an object with \"blocks\" and \"packages\"") }
        for key in dependencies.keys.sorted() where key != "blocks" && key != "packages" {
            report("dependencies.\(key)", "unknown; dependencies has \"blocks\" and \"packages\"")
        }
        if let blocks = dependencies["blocks"] {
            if let texts = blocks.strings {
                for (index, text) in texts.enumerated() {
                    guard let requirement = BlockRequirement(text) else {
                        report("dependencies.blocks[\(index)]", DependencyError.malformedRequirement(text).description)
                        continue
                    }
                    if requirement.reference.namespace == nil, requirement.reference.name == name {
                        report("dependencies.blocks[\(index)]", "a block cannot depend on itself")
                    }
                }
            } else {
                report("dependencies.blocks", "must be a list of strings such as \"tab-indicator@^1.2\"")
            }
        }
        if let packages = dependencies["packages"] {
            guard let entries = packages.objects else { return report("dependencies.packages", "must be a list of {url, from or exact, products}") }
            for (index, entry) in entries.enumerated() {
                let package = PackageDependency(
                    url: entry["url"]?.string ?? "", from: entry["from"]?.string, exact: entry["exact"]?.string,
                    products: entry["products"]?.strings ?? [])
                for (field, problem) in package.problems {
                    report("dependencies.packages[\(index)]" + (field.isEmpty ? "" : "." + field), problem)
                }
            }
        }
    }
}

/// One manifest's review, field by field, gathering every problem rather than stopping at
/// the first: a maintainer fixes them all in one pass.
private struct ManifestReview {
    let root: [String: JSONValue]
    let file: String
    private(set) var problems: [LintProblem] = []

    init(root: [String: JSONValue], file: String) {
        self.root = root
        self.file = file
    }

    mutating func report(_ field: String, _ message: String) {
        problems.append(LintProblem(file: file, field: field, message: message))
    }

    /// A required field's value, or nil after reporting that it is missing.
    private mutating func required(_ key: String) -> JSONValue? {
        guard let value = root[key] else {
            report(key, "missing required field")
            return nil
        }
        return value
    }

    private mutating func string(_ key: String) -> String? {
        guard let value = required(key) else { return nil }
        guard let text = value.string, !text.isEmpty else {
            report(key, "must be a non-empty string")
            return nil
        }
        return text
    }

    private mutating func localized(_ key: String) {
        guard let value = required(key) else { return }
        guard let map = value.object else {
            report(key, "must be an object with \"en\" and \"es\"")
            return
        }
        for language in ManifestValidator.languages {
            guard let text = map[language] else {
                report("\(key).\(language)", "missing language")
                continue
            }
            if text.string?.isEmpty != false { report("\(key).\(language)", "must be a non-empty string") }
        }
        // Other languages are welcome, but the reader needs every one to be text.
        for (language, text) in map.sorted(by: { $0.key < $1.key }) where !ManifestValidator.languages.contains(language) && text.string == nil {
            report("\(key).\(language)", "must be a string")
        }
    }

    /// The name, version, texts, category, origin, level and license.
    mutating func checkIdentity(folderName: String?) {
        if let name = string("name") {
            if !ManifestValidator.isValidName(name) { report("name", "'\(name)' must match ^[a-z0-9]+(-[a-z0-9]+)*$") }
            if let folderName, folderName != name { report("name", "'\(name)' differs from its folder '\(folderName)'") }
        }
        if let version = string("version"), !ManifestValidator.isSemanticVersion(version) {
            report("version", "'\(version)' is not a semantic version such as 1.0.0")
        }
        localized("title")
        localized("summary")
        _ = string("category")
        _ = string("origin")
        if let level = string("level"), !ManifestValidator.levels.contains(level) {
            report("level", "'\(level)' must be one of \(ManifestValidator.levels.joined(separator: ", "))")
        }
        if let license = string("license"), license != "MIT" { report("license", "must be \"MIT\"") }
    }

    mutating func checkPlatforms() {
        guard let value = required("platforms") else { return }
        guard let platforms = value.object, !platforms.isEmpty else {
            report("platforms", "must be a non-empty object such as {\"iOS\": \"18.0\"}")
            return
        }
        let known = ManifestValidator.knownPlatforms
        for (platform, version) in platforms.sorted(by: { $0.key < $1.key }) {
            if !known.contains(platform) {
                report("platforms.\(platform)", "unknown platform; known: \(known.joined(separator: ", "))")
            } else if !(version.string.map(ManifestValidator.isOSVersion) ?? false) {
                report("platforms.\(platform)", "must be a version string such as \"18.0\"")
            }
        }
    }

    mutating func checkTags() {
        guard let value = required("tags") else { return }
        guard let tags = value.object else {
            report("tags", "must be an object with \"en\" and \"es\" lists")
            return
        }
        for language in ManifestValidator.languages {
            guard let list = tags[language] else {
                report("tags.\(language)", "missing language")
                continue
            }
            if !(list.strings.map { !$0.isEmpty && $0.allSatisfy { !$0.isEmpty } } ?? false) {
                report("tags.\(language)", "must be a non-empty list of strings")
            }
        }
        for (language, list) in tags.sorted(by: { $0.key < $1.key }) where !ManifestValidator.languages.contains(language) && list.strings == nil {
            report("tags.\(language)", "must be a list of strings")
        }
    }

    mutating func checkAuthors() {
        guard let value = required("authors") else { return }
        if value.strings?.isEmpty != false { report("authors", "must be a non-empty list of strings") }
    }

    /// `recommendedTransforms`, when present: a short list of distinct plugin names, which
    /// `add` prints and never runs.
    mutating func checkRecommendedTransforms() {
        guard let value = root["recommendedTransforms"] else { return }
        guard let names = value.strings, names.count <= ManifestValidator.maximumRecommendedTransforms else {
            return report("recommendedTransforms", "must be a list of at most \(ManifestValidator.maximumRecommendedTransforms) plugin names such as \"swift-format\"")
        }
        for (index, name) in names.enumerated() {
            if !ManifestValidator.isValidName(name) { report("recommendedTransforms[\(index)]", "'\(name)' is not a plugin name (^[a-z0-9]+(-[a-z0-9]+)*$)") }
            if names[..<index].contains(name) { report("recommendedTransforms[\(index)]", "'\(name)' is listed twice") }
        }
    }

    /// A note for each of VoiceOver, Dynamic Type and Reduce Motion; others may be added.
    mutating func checkAccessibility() {
        guard let value = required("accessibility") else { return }
        guard let map = value.object else {
            report("accessibility", "must be an object")
            return
        }
        let needed = ["voiceOver", "dynamicType", "reduceMotion"]
        for key in needed where map[key]?.string?.isEmpty != false {
            report("accessibility.\(key)", "missing; say what this block does for it")
        }
        for (key, note) in map.sorted(by: { $0.key < $1.key }) where !needed.contains(key) && note.string == nil {
            report("accessibility.\(key)", "must be a string")
        }
    }

    mutating func checkAPI() {
        guard let value = required("api") else { return }
        guard let parameters = value.objects else {
            report("api", "must be a list of parameters")
            return
        }
        for (index, parameter) in parameters.enumerated() {
            for key in ["name", "type", "description"] where parameter[key]?.string?.isEmpty != false {
                report("api[\(index)].\(key)", "missing or empty")
            }
            if let fallback = parameter["default"], fallback.string == nil, fallback != JSONValue.null {
                report("api[\(index)].default", "must be a string or null")
            }
        }
    }

    /// Each file's path stays inside the block's folder and its role is known.
    mutating func checkFiles() {
        guard let value = required("files") else { return }
        guard let files = value.objects, !files.isEmpty else {
            report("files", "must be a non-empty list of {path, role}")
            return
        }
        for (index, entry) in files.enumerated() {
            guard let path = entry["path"]?.string, !path.isEmpty else {
                report("files[\(index)].path", "missing or empty")
                continue
            }
            if path.hasPrefix("/") || path.split(separator: "/").contains("..") {
                report("files[\(index)].path", "'\(path)' must stay inside the block's folder")
            }
            let role = entry["role"]?.string ?? ""
            if BlockFile.Role(rawValue: role) == nil {
                report("files[\(index)].role", "'\(role)' must be one of component, logic, demo")
            }
        }
    }
}

import Foundation

/// One thing wrong with a catalog, naming the file and the field so it can be fixed
/// without guessing.
public struct LintProblem: Sendable, Equatable, CustomStringConvertible, Codable {
    public var file: String
    public var field: String
    public var message: String

    public init(file: String, field: String, message: String) {
        self.file = file
        self.field = field
        self.message = message
    }

    public var description: String { field.isEmpty ? "\(file): \(message)" : "\(file): \(field): \(message)" }
}

/// Checks `block.json` against the rules of `Schemas/block.schema.json`, reporting every
/// problem rather than stopping at the first.
public enum ManifestValidator {
    public static let knownPlatforms = ["iOS", "iPadOS", "macOS", "tvOS", "watchOS", "visionOS"]
    public static let levels = ["beginner", "intermediate", "advanced"]
    public static let languages = ["en", "es"]
    static let semverPattern = try! NSRegularExpression(
        pattern: #"^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$"#)
    static let osVersionPattern = try! NSRegularExpression(pattern: #"^\d+(\.\d+){0,2}$"#)

    static func matches(_ pattern: NSRegularExpression, _ text: String) -> Bool {
        pattern.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }

    public static func isSemanticVersion(_ text: String) -> Bool { matches(semverPattern, text) }
    /// `^[a-z0-9]+(-[a-z0-9]+)*$`, checked by hand: catalogs of thousands of blocks check
    /// every folder name, and a regular expression cost more than reading the folder.
    public static func isValidName(_ text: String) -> Bool {
        var previous: UInt8 = UInt8(ascii: "-")
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): break
            case UInt8(ascii: "-") where previous != UInt8(ascii: "-"): break
            default: return false
            }
            previous = byte
        }
        return previous != UInt8(ascii: "-")
    }

    /// Problems in one manifest's bytes. `file` names it in messages; `folderName`, when
    /// given, must equal the manifest's name.
    public static func problems(in data: Data, file: String = "block.json", folderName: String? = nil) -> [LintProblem] {
        var problems: [LintProblem] = []
        func report(_ field: String, _ message: String) {
            problems.append(LintProblem(file: file, field: field, message: message))
        }
        guard let object = try? JSONSerialization.jsonObject(with: data), let root = object as? [String: Any] else {
            report("", "not a JSON object")
            return problems
        }
        func string(_ key: String) -> String? {
            guard let value = root[key] else { report(key, "missing required field"); return nil }
            guard let text = value as? String, !text.isEmpty else { report(key, "must be a non-empty string"); return nil }
            return text
        }
        func localized(_ key: String) {
            guard let value = root[key] else { report(key, "missing required field"); return }
            guard let map = value as? [String: Any] else { report(key, "must be an object with \"en\" and \"es\""); return }
            for language in languages {
                guard let text = map[language] else { report("\(key).\(language)", "missing language"); continue }
                if (text as? String)?.isEmpty != false { report("\(key).\(language)", "must be a non-empty string") }
            }
        }

        if let name = string("name") {
            if !isValidName(name) { report("name", "'\(name)' must match ^[a-z0-9]+(-[a-z0-9]+)*$") }
            if let folderName, folderName != name { report("name", "'\(name)' differs from its folder '\(folderName)'") }
        }
        if let version = string("version"), !isSemanticVersion(version) {
            report("version", "'\(version)' is not a semantic version such as 1.0.0")
        }
        localized("title")
        localized("summary")
        _ = string("category")
        _ = string("origin")
        if let level = string("level"), !levels.contains(level) {
            report("level", "'\(level)' must be one of \(levels.joined(separator: ", "))")
        }
        if let license = string("license"), license != "MIT" { report("license", "must be \"MIT\"") }

        if let value = root["platforms"] {
            if let platforms = value as? [String: Any], !platforms.isEmpty {
                for (platform, version) in platforms.sorted(by: { $0.key < $1.key }) {
                    if !knownPlatforms.contains(platform) {
                        report("platforms.\(platform)", "unknown platform; known: \(knownPlatforms.joined(separator: ", "))")
                    } else if !((version as? String).map { matches(osVersionPattern, $0) } ?? false) {
                        report("platforms.\(platform)", "must be a version string such as \"18.0\"")
                    }
                }
            } else {
                report("platforms", "must be a non-empty object such as {\"iOS\": \"18.0\"}")
            }
        } else {
            report("platforms", "missing required field")
        }

        if let value = root["tags"] {
            if let tags = value as? [String: Any] {
                for language in languages {
                    guard let list = tags[language] else { report("tags.\(language)", "missing language"); continue }
                    guard let words = list as? [String], !words.isEmpty, words.allSatisfy({ !$0.isEmpty }) else {
                        report("tags.\(language)", "must be a non-empty list of strings")
                        continue
                    }
                }
            } else {
                report("tags", "must be an object with \"en\" and \"es\" lists")
            }
        } else {
            report("tags", "missing required field")
        }

        if let value = root["authors"] {
            if (value as? [String])?.isEmpty != false { report("authors", "must be a non-empty list of strings") }
        } else {
            report("authors", "missing required field")
        }

        if let value = root["accessibility"] {
            if let map = value as? [String: Any] {
                for key in ["voiceOver", "dynamicType", "reduceMotion"] where (map[key] as? String)?.isEmpty != false {
                    report("accessibility.\(key)", "missing; say what this block does for it")
                }
            } else {
                report("accessibility", "must be an object")
            }
        } else {
            report("accessibility", "missing required field")
        }

        if let value = root["api"] {
            if let parameters = value as? [[String: Any]] {
                for (index, parameter) in parameters.enumerated() {
                    for key in ["name", "type", "description"] where (parameter[key] as? String)?.isEmpty != false {
                        report("api[\(index)].\(key)", "missing or empty")
                    }
                    if let fallback = parameter["default"], !(fallback is String), !(fallback is NSNull) {
                        report("api[\(index)].default", "must be a string or null")
                    }
                }
            } else {
                report("api", "must be a list of parameters")
            }
        } else {
            report("api", "missing required field")
        }

        if let value = root["files"] {
            if let files = value as? [[String: Any]], !files.isEmpty {
                for (index, entry) in files.enumerated() {
                    guard let path = entry["path"] as? String, !path.isEmpty else {
                        report("files[\(index)].path", "missing or empty")
                        continue
                    }
                    if path.hasPrefix("/") || path.split(separator: "/").contains("..") {
                        report("files[\(index)].path", "'\(path)' must stay inside the block's folder")
                    }
                    let role = entry["role"] as? String ?? ""
                    if BlockFile.Role(rawValue: role) == nil {
                        report("files[\(index)].role", "'\(role)' must be one of component, logic, demo")
                    }
                }
            } else {
                report("files", "must be a non-empty list of {path, role}")
            }
        } else {
            report("files", "missing required field")
        }
        return problems
    }
}

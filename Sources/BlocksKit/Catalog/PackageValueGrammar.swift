/// The grammar of each value a registry supplies that reaches `swift package`'s command
/// line (`PackageSteps`): a package URL, a product name, the package identity derived from
/// the URL, a version, and the target name `add` derives from the block folder.
///
/// A block's `dependencies.packages` comes from whoever publishes the registry, so a value
/// such as `--package-path=/victim` must never reach SwiftPM, where it would be read as an
/// option. Every value is checked against its own grammar, which no option can match (none
/// may start with `-`), and the commands still pass them after `--`. `lint`
/// (`ManifestValidator`) and `add`/`update` (`BlockResolution`, before anything is
/// written or run) both ask this one place.
public enum PackageValueGrammar {
    /// A package URL is at most this many bytes.
    static let maximumURLLength = 2048
    /// A product, package or target name is at most this many bytes.
    static let maximumNameLength = 128

    /// The URL schemes SwiftPM clones from; `git@host:path` is the other accepted form.
    static let schemes = ["https://", "http://", "ssh://", "file://"]

    /// Why `text` is not a package URL, or nil: an http(s), ssh or file URL with a host
    /// (a file URL may leave it empty), or `git@host:path`; only the printable ASCII
    /// characters a URL is made of (no space, quote, backslash or control character);
    /// and a last path component that makes a package name.
    public static func urlProblem(_ text: String) -> String? {
        guard !text.isEmpty else { return "the package URL is empty" }
        if let dash = leadingDash(text) { return dash }
        guard text.utf8.count <= maximumURLLength else { return "the package URL is longer than \(maximumURLLength) bytes" }
        guard text.utf8.allSatisfy(isURLByte) else {
            return "'\(text)' is not a package URL: it holds a character a URL cannot (a space, quote, backslash, control or non-ASCII character)"
        }
        let lower = text.lowercased()
        if let scheme = schemes.first(where: { lower.hasPrefix($0) }) {
            let rest = text.dropFirst(scheme.count)
            let host = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
            guard !rest.isEmpty, scheme == "file://" || !host.isEmpty else { return "'\(text)' is not a package URL: it names no host" }
        } else if lower.hasPrefix("git@") {
            let rest = text.dropFirst(4)
            guard let colon = rest.firstIndex(of: ":"), colon != rest.startIndex, !rest[..<colon].contains("/"),
                !rest[rest.index(after: colon)...].isEmpty
            else { return "'\(text)' is not a package URL: write git@host:path" }
        } else {
            return "'\(text)' is not a package URL: it must start with https://, http://, ssh://, file:// or git@"
        }
        if nameProblem(identity(of: text), what: "package name") != nil {
            return "'\(text)' is not a package URL: its last path component '\(identity(of: text))' is not a package name"
        }
        return nil
    }

    /// Why `text` is not a product name, or nil.
    public static func productProblem(_ text: String) -> String? { nameProblem(text, what: "product name") }

    /// Why `text` is not a target name `add` can pass to SwiftPM, or nil.
    public static func targetProblem(_ text: String) -> String? { nameProblem(text, what: "target name") }

    /// Why `text` is not a version SwiftPM takes for `from` or `exact`, or nil.
    public static func versionProblem(_ text: String) -> String? {
        if let dash = leadingDash(text) { return dash }
        return ManifestValidator.isSemanticVersion(text) ? nil : "'\(text)' is not a semantic version such as 1.0.0"
    }

    /// The name SwiftPM gives a package from its URL: the last path component without
    /// `.git` (after `:` in `git@host:path`).
    public static func identity(of url: String) -> String {
        var last = url.split(separator: "/").last.map(String.init) ?? url
        if !url.contains("/"), let colon = last.lastIndex(of: ":") { last = String(last[last.index(after: colon)...]) }
        if last.lowercased().hasSuffix(".git") { last.removeLast(4) }
        return last
    }

    /// `^[A-Za-z0-9_][A-Za-z0-9_.-]*$`, at most `maximumNameLength` bytes: the names Swift
    /// packages give their products and targets, and never an option.
    static func nameProblem(_ text: String, what: String) -> String? {
        guard !text.isEmpty else { return "the \(what) is empty" }
        if let dash = leadingDash(text) { return dash }
        guard text.utf8.count <= maximumNameLength else { return "the \(what) '\(text)' is longer than \(maximumNameLength) bytes" }
        let bytes = Array(text.utf8)
        guard isNameByte(bytes[0]) && bytes[0] != UInt8(ascii: ".") && bytes[0] != UInt8(ascii: "-"), bytes.allSatisfy(isNameByte) else {
            return "'\(text)' is not a \(what): use letters, digits, '_', '-' and '.', starting with a letter, digit or '_'"
        }
        return nil
    }

    /// The message for a value that starts with `-`, which a command line reads as an option.
    static func leadingDash(_ text: String) -> String? {
        text.hasPrefix("-") ? "'\(text)' starts with '-', so swift package would read it as an option" : nil
    }

    static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): return true
        case UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "."): return true
        default: return false
        }
    }

    /// RFC 3986's unreserved and reserved characters and `%`, less `'` (a shell's quote).
    static func isURLByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): return true
        default: return "-._~:/?#[]@!$&()*+,;=%".utf8.contains(byte)
        }
    }
}

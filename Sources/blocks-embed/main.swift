// Writes the Swift file that carries Catalog/ and Templates/ inside the binary, so a
// copied `blocks` works alone. Run by the EmbedCatalog build-tool plugin on every build
// whose inputs changed; nobody runs it by hand and its output is never committed.
//
// It knows nothing about manifests: files become string literals, and the library reads
// the embedded `block.json` files with its own reader, so there is one implementation of
// the manifest's fields (and of the words search finds) instead of a second one here.
//
// Usage: blocks-embed PACKAGE-ROOT OUTPUT-FILE
import Foundation

/// Every file under `folder`, by its path relative to it, skipping hidden names.
func collect(_ folder: URL) throws -> [(path: String, text: String)] {
    guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey]) else { return [] }
    var files: [(path: String, text: String)] = []
    let prefix = folder.standardizedFileURL.path + "/"
    for case let url as URL in walker {
        if url.lastPathComponent.hasPrefix(".") {
            walker.skipDescendants()
            continue
        }
        guard try url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile == true else { continue }
        let path = String(url.standardizedFileURL.path.dropFirst(prefix.count))
        guard let text = String(data: try Data(contentsOf: url), encoding: .utf8) else {
            throw EmbedError.notText(url.path)
        }
        files.append((path, text))
    }
    // Byte order of the UTF-8 paths, so the output does not depend on the locale.
    return files.sorted { Array($0.path.utf8).lexicographicallyPrecedes(Array($1.path.utf8)) }
}

enum EmbedError: Error, CustomStringConvertible {
    case notText(String)
    case usage

    var description: String {
        switch self {
        case .notText(let path): return "\(path) is not UTF-8 text, and only text is embedded"
        case .usage: return "usage: blocks-embed PACKAGE-ROOT OUTPUT-FILE"
        }
    }
}

/// A raw string literal that holds `text` exactly: enough `#`s that no `"#…` or `\#…`
/// inside it ends the literal or starts an escape.
func literal(_ text: String) -> String {
    var hashes = "#"
    while text.contains("\"" + hashes) || text.contains("\\" + hashes) { hashes += "#" }
    // The newline before the closing delimiter is not part of the string.
    return hashes + "\"\"\"\n" + text + "\n\"\"\"" + hashes
}

/// A plain string literal for a path (paths hold no quotes or backslashes in practice,
/// but escaping them costs nothing).
func quoted(_ text: String) -> String {
    "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
}

func dictionary(_ name: String, _ files: [(path: String, text: String)]) -> String {
    guard !files.isEmpty else { return "    static let \(name): [String: String] = [:]" }
    return
        (["    static let \(name): [String: String] = ["]
        + files.map { "        \(quoted($0.path)): \(literal($0.text))," }
        + ["    ]"]).joined(separator: "\n")
}

func render(root: URL) throws -> String {
    let catalog = try collect(root.appendingPathComponent("Catalog"))
    let templates = try collect(root.appendingPathComponent("Templates"))
    // A block is a top-level folder with a block.json, listed in byte order as
    // CatalogSource lists a folder catalog ("pager" before "pager-x").
    let blockNames = catalog.map(\.path).filter { $0.hasSuffix("/block.json") && $0.split(separator: "/").count == 2 }
        .map { String($0.dropLast("/block.json".count)) }
    return [
        "// Generated at build time by Sources/blocks-embed from Catalog/ and Templates/.",
        "",
        "/// The catalog and templates, compiled into the binary so it needs no files beside it.",
        "enum EmbeddedFiles {",
        dictionary("catalog", catalog),
        "",
        "    /// The block folders, sorted: what the embedded catalog lists without building `catalog`.",
        "    static let blockNames: [String] = [" + blockNames.map(quoted).joined(separator: ", ") + "]",
        "",
        dictionary("templates", templates),
        "}",
        "",
    ].joined(separator: "\n")
}

do {
    let arguments = CommandLine.arguments
    guard arguments.count == 3 else { throw EmbedError.usage }
    let text = try render(root: URL(fileURLWithPath: arguments[1]))
    let output = URL(fileURLWithPath: arguments[2])
    // Rewritten only when different, so an unchanged catalog does not recompile the library.
    if (try? String(contentsOf: output, encoding: .utf8)) != text {
        try FileManager.default.createDirectory(at: output.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: output, options: .atomic)
    }
} catch {
    FileHandle.standardError.write(Data("blocks-embed: error: \(error)\n".utf8))
    exit(1)
}

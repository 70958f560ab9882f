import Foundation
import Testing

/// Keeps the Mac build working without a Mac (docs/PLATFORMS.md). Apple's SDK has only the
/// public standard-library interface and our package says macOS 14, so code that builds
/// here can still fail there: SPI, underscored members, C symbols behind explicit Darwin
/// submodules, and APIs newer than the minimum. This scans the code (comments and string
/// literals left out) of everything that compiles for a Mac user.
@Suite struct PublicAPIGuardTests {
    /// An underscored name allowed in one file, with why it is safe on every platform, and
    /// the explicit Darwin submodule that file must import for it, if any.
    struct Allowance: Sendable {
        var file: String
        var name: String
        var submodule: String?
        var reason: String
    }

    static let allowances: [Allowance] = [
        Allowance(
            file: "Sources/BlocksKit/Platform/SystemImports.swift", name: "@_exported", submodule: nil,
            reason: "re-exports the system modules from the one file that chooses them; supported by every Swift compiler"),
        Allowance(
            file: "Sources/BlocksKit/Platform/SystemCalls.swift", name: "_NSGetEnviron", submodule: "Darwin.crt_externs",
            reason: "Darwin's documented accessor for environ (environ(7), crt_externs.h), which Darwin does not export to Swift"),
        Allowance(
            file: "Sources/BlocksKit/Platform/SystemCalls.swift", name: "_exit", submodule: nil,
            reason: "POSIX _exit(2), public in Glibc and Darwin"),
    ]

    /// The folders whose code a Mac user compiles: the tool, its plugin and the blocks.
    static let scannedFolders = ["Sources", "Plugins", "Catalog"]

    /// Every problem in the Swift files under `root`'s scanned folders, as `path:line: what`.
    static func violations(in root: URL, newerAPIs: [String]) throws -> [String] {
        var found: [String] = []
        for folder in scannedFolders {
            let base = root.appendingPathComponent(folder)
            for file in try SourceCode.swiftFiles(under: base) {
                found += violations(inFile: "\(folder)/\(file.path)", code: file.lines, newerAPIs: newerAPIs)
            }
        }
        return found
    }

    static func violations(inFile path: String, code lines: [String], newerAPIs: [String]) -> [String] {
        let inPlatform = path.hasPrefix("Sources/BlocksKit/Platform/")
        let allowed = allowances.filter { $0.file == path }
        var found: [String] = []
        func report(_ number: Int, _ what: String) { found.append("\(path):\(number + 1): \(what)") }
        for (number, line) in lines.enumerated() {
            if line.contains("@_spi") { report(number, "an @_spi import: Apple's SDK has no SPI interfaces") }
            for attribute in matches(of: #"@_[A-Za-z]\w*"#, in: line) where attribute != "@_spi" {
                if !allowed.contains(where: { $0.name == attribute }) { report(number, "the underscored attribute \(attribute)") }
            }
            for member in matches(of: #"\._[A-Za-z]\w*"#, in: line) {
                // `self._name` is the backing storage of one of our own property wrappers.
                if line.contains("self\(member)") { continue }
                report(number, "the underscored member \(member): use public API")
            }
            for call in matches(of: #"(?<![\w.@])_[A-Za-z]\w*(?=\s*\()"#, in: line) {
                if !inPlatform {
                    report(number, "a call of \(call) outside Platform/")
                } else if !allowed.contains(where: { $0.name == call }) {
                    report(number, "a call of \(call) that PublicAPIGuardTests.allowances does not name")
                }
            }
            if !inPlatform, !matches(of: #"import\s+(Darwin|Glibc)\.\w+"#, in: line).isEmpty {
                report(number, "a system submodule imported outside Platform/")
            }
            for pattern in newerAPIs where line.contains(pattern) && !isGated(lines, at: number) {
                report(number, "\(pattern) is newer than the macOS minimum; gate it or use what docs/PLATFORMS.md says")
            }
        }
        for allowance in allowed {
            guard let submodule = allowance.submodule, lines.contains(where: { $0.contains(allowance.name) }) else { continue }
            if !lines.contains(where: { $0.contains("import \(submodule)") }) {
                found.append("\(path): \(allowance.name) needs 'import \(submodule)' (an explicit Darwin submodule)")
            }
        }
        return found
    }

    /// Whether an `#available` or `@available` appears in the 30 code lines up to `number`:
    /// a source scan, enough to tell a deliberate gate from a forgotten one.
    static func isGated(_ lines: [String], at number: Int) -> Bool {
        lines[max(0, number - 30)...number].contains { $0.contains("#available(") || $0.contains("@available(") }
    }

    static func matches(of pattern: String, in line: String) -> [String] {
        guard let expression = try? NSRegularExpression(pattern: pattern) else { return [] }
        let range = NSRange(line.startIndex..., in: line)
        return expression.matches(in: line, range: range).compactMap { Range($0.range, in: line).map { String(line[$0]) } }
    }

    /// The *pattern* column of docs/PLATFORMS.md's table of APIs newer than the minimum.
    static func newerAPIPatterns() throws -> [String] {
        let text = try String(contentsOf: repositoryRoot.appendingPathComponent("docs/PLATFORMS.md"), encoding: .utf8)
        return text.split(separator: "\n").compactMap { line in
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard line.hasPrefix("| `"), cells.count >= 5, cells[1].hasPrefix("`"), cells[1].hasSuffix("`") else { return nil }
            return String(cells[1].dropFirst().dropLast())
        }
    }

    @Test func theTableListsTheAPIsThatBrokeTheMacBuild() throws {
        let patterns = try Self.newerAPIPatterns()
        #expect(patterns.contains("String(validating:"))
        #expect(patterns.contains("Mutex<"))
        #expect(patterns.count >= 8)
    }

    @Test func theCodeUsesOnlyPublicAPIAvailableAtTheMinimum() throws {
        let violations = try Self.violations(in: repositoryRoot, newerAPIs: try Self.newerAPIPatterns())
        #expect(violations == [], "\(violations.joined(separator: "\n"))")
    }

    @Test func everyAllowanceSaysWhyAndIsUsed() throws {
        for allowance in Self.allowances {
            #expect(allowance.reason.count > 20, "\(allowance.name)")
            let text = try String(contentsOf: repositoryRoot.appendingPathComponent(allowance.file), encoding: .utf8)
            #expect(SourceCode.codeLines(text).contains { $0.contains(allowance.name) }, "\(allowance.name) is no longer used in \(allowance.file)")
        }
    }

    /// The four lines that broke the Mac build (issue 30), put back one at a time into a copy
    /// of the files they were in: each is caught.
    @Test(arguments: [
        (
            "Sources/BlocksKit/Platform/SystemCalls.swift",
            "var block: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? {\n    _NSGetEnviron().pointee\n}\n",
            "needs 'import Darwin.crt_externs'"
        ),
        (
            "Sources/BlocksKit/Registry/Minisign.swift",
            "guard let text = String(validating: Array(data), as: UTF8.self) else { throw malformed() }\n",
            "String(validating: is newer"
        ),
        (
            "Sources/BlocksKit/Registry/RegistrySources.swift",
            "    return String(validating: bytes, as: UTF8.self)\n",
            "String(validating: is newer"
        ),
        (
            "Sources/BlocksKit/Search/TextNormalizer.swift",
            "@_spi(_Unicode) import Swift\nfunc f(_ cased: String) { for scalar in String(cased)._nfd { print(scalar) } }\n",
            "the underscored member ._nfd"
        ),
    ])
    func eachLineThatBrokeTheMacBuildIsCaught(file: String, code: String, expected: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        try folder.write(file, code)
        let violations = try Self.violations(in: folder.url, newerAPIs: try Self.newerAPIPatterns())
        #expect(violations.contains { $0.contains(expected) }, "\(violations)")
        if file.hasSuffix("TextNormalizer.swift") { #expect(violations.contains { $0.contains("@_spi") }) }
        // The fixed form of the same line passes.
        let fixed = code.replacingOccurrences(of: "String(validating: Array(data), as: UTF8.self)", with: "String(strictUTF8: data)")
            .replacingOccurrences(of: "String(validating: bytes, as: UTF8.self)", with: "String(strictUTF8: bytes)")
            .replacingOccurrences(of: "_NSGetEnviron()", with: "#if canImport(Darwin)\nimport Darwin.crt_externs\n#endif\n_NSGetEnviron()")
        if !file.hasSuffix("TextNormalizer.swift") {
            try folder.write(file, fixed)
            #expect(try Self.violations(in: folder.url, newerAPIs: try Self.newerAPIPatterns()) == [])
        }
    }

    @Test func otherUnderscoredSpellingsAreCaught() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        try folder.write("Sources/BlocksKit/Install/A.swift", "let n = text._guts.count\nlet c = _NSGetEnviron()\n")
        try folder.write("Sources/BlocksKit/Install/B.swift", "import Darwin.crt_externs\n@_silgen_name(\"x\") func x()\n")
        try folder.write("Sources/BlocksKit/Platform/C.swift", "func f() { _private_call(1) }\n")
        try folder.write("Catalog/x/X.swift", "init(s: Binding<Int>) { self._selection = s }\nlet m = Mutex<Int>(0)\n")
        try folder.write("Catalog/x/Y.swift", "if #available(iOS 18, macOS 15, *) {\n    let m = Mutex<Int>(0)\n}\n// ._nfd and _exit() in a comment\nlet s = \"._nfd @_spi _exit()\"\n")
        let violations = try Self.violations(in: folder.url, newerAPIs: ["Mutex<"])
        #expect(
            violations == [
                "Sources/BlocksKit/Install/A.swift:1: the underscored member ._guts: use public API",
                "Sources/BlocksKit/Install/A.swift:2: a call of _NSGetEnviron outside Platform/",
                "Sources/BlocksKit/Install/B.swift:1: a system submodule imported outside Platform/",
                "Sources/BlocksKit/Install/B.swift:2: the underscored attribute @_silgen_name",
                "Sources/BlocksKit/Platform/C.swift:1: a call of _private_call that PublicAPIGuardTests.allowances does not name",
                "Catalog/x/X.swift:2: Mutex< is newer than the macOS minimum; gate it or use what docs/PLATFORMS.md says",
            ], "\(violations)")
    }

    @Test func commentsAndStringsAreNotCode() {
        let lines = SourceCode.codeLines("let a = \"x // y\" // z\n/* a\n _b() */ let c = #\"_d()\"#\nlet e = \"\"\"\n  _f()\n  \"\"\"\n")
        #expect(lines == ["let a = \"\" ", "", " let c = #\"\"#", "let e = \"\"\"", "", "\"\"\"", ""])
    }
}

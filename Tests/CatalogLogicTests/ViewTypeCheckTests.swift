import Foundation
import Testing

@testable import BlocksKit

/// Every component, logic and demo file of every block type-checks against the SwiftUI
/// declaration stub at the block's minimum iOS, with no error and no warning, in the Swift 5
/// language mode, in Swift 6, and in Swift 6 with the main actor as the default isolation,
/// previews included. The controls below prove the check can fail.
///
/// Linux only: the stub is a module named SwiftUI built for the host, which on macOS would
/// meet Apple's own SwiftUI and check iOS availability against a macOS target.
@Suite(
    "catalog views type-check against the SwiftUI stub",
    .enabled(
        if: ViewTypeCheck.stubIsTheOnlySwiftUI,
        "the SwiftUI stub stands in only where Apple's SwiftUI is absent (Linux)"))
struct ViewTypeCheckTests {
    typealias Mode = ViewTypeCheck.LanguageMode

    static let blocks = (try? ViewTypeCheck.catalogBlocks()) ?? []

    @Test func everyCatalogSwiftFileBelongsToACheckedBlock() throws {
        let blocks = try ViewTypeCheck.catalogBlocks()
        #expect(blocks.count == 9)
        let checked = blocks.flatMap { block in block.files.map { "Catalog/\(block.name)/\($0.path)" } }.sorted()
        #expect(checked == SwiftParseTests.catalogSwiftFiles())
        #expect(checked.count == 27)
        for block in blocks {
            #expect(block.files.map(\.role).sorted() == ["component", "demo", "logic"], "\(block.name)")
        }
    }

    @Test(arguments: blocks)
    func everyDemoHasARightToLeftPreview(_ block: ViewTypeCheck.Block) throws {
        let demos = try block.files.filter { $0.role == "demo" }.map {
            try String(contentsOf: block.folder.appendingPathComponent($0.path), encoding: .utf8)
        }
        #expect(
            demos.contains { $0.contains("#Preview") && $0.contains(".environment(\\.layoutDirection, .rightToLeft)") },
            "\(block.name): add a #Preview with .environment(\\.layoutDirection, .rightToLeft)")
    }

    @Test func threeLanguageModes() {
        #expect(Mode.allCases.map(\.flags) == [
            ["-swift-version", "5"], ["-swift-version", "6"], ["-swift-version", "6", "-default-isolation", "MainActor"],
        ])
    }

    @Test(arguments: blocks, Mode.allCases)
    func blockTypeChecks(_ block: ViewTypeCheck.Block, mode: Mode) throws {
        let diagnostics = try ViewTypeCheck.repository.check(block, mode: mode)
        #expect(
            diagnostics.isEmpty,
            """
            \(block.name) does not type-check at iOS \(block.minimumIOS) (\(mode)):
            \(diagnostics.map(\.description).joined(separator: "\n"))
            """)
    }

    // MARK: Controls: the check fails where Xcode would

    @Test func aCorrectControlPasses() throws {
        #expect(try control(#"Button(action: {}) { Text("Go") }"#).isEmpty)
    }

    @Test func aWrongArgumentLabelFails() throws {
        let diagnostics = try control(#"Button(actoin: {}) { Text("Go") }"#)
        #expect(
            diagnostics.contains { $0.severity == "error" && $0.file == "Catalog/control/Control.swift" && $0.line == 8 },
            "\(diagnostics)")
    }

    @Test func aValueWhereABindingIsNeededFails() throws {
        let diagnostics = try control(#"Toggle("On", isOn: true)"#)
        #expect(diagnostics.contains { $0.severity == "error" && $0.message.contains("Binding<Bool>") }, "\(diagnostics)")
        #expect(try control(#"Toggle("On", isOn: .constant(true))"#).isEmpty)
    }

    @Test func anAPINewerThanTheMinimumFails() throws {
        let code = #"Text("A").tabViewStyle(.sidebarAdaptable)"#
        let diagnostics = try control(code, minimumIOS: "17.0")
        #expect(diagnostics.contains { $0.severity == "error" && $0.message.contains("introduced in iOS 18.0") }, "\(diagnostics)")
        // The same code at the minimum that introduced it is fine.
        #expect(try control(code, minimumIOS: "18.0").isEmpty)
    }

    // MARK: Controls: what Apple's SDK says and the stub once did not (issue 31)

    /// `LocalizedStringKey` is not `Sendable` in Apple's SDK: a `Sendable` enum that holds one
    /// is an error in Swift 6 mode and a warning in Swift 5 mode. The same enum without
    /// `Sendable` is fine in every mode.
    @Test func aSendableEnumHoldingALocalizedStringKeyFails() throws {
        func badge(_ conformances: String) -> String {
            """
            Text("A")
            }
            }

            @available(iOS 17.0, *)
            enum Badge: \(conformances) {
                case count(Int)
                case text(LocalizedStringKey)
                var unused: Int {
                0
            """
        }
        let swift6 = try control(badge("Equatable, Sendable"), mode: .swift6)
        #expect(
            swift6.contains { $0.severity == "error" && $0.message.contains("non-Sendable type 'LocalizedStringKey'") && $0.line == 15 },
            "\(swift6)")
        let swift5 = try control(badge("Equatable, Sendable"), mode: .swift5)
        #expect(swift5.contains { $0.severity == "warning" && $0.message.contains("non-Sendable type 'LocalizedStringKey'") }, "\(swift5)")
        for mode in Mode.allCases {
            #expect(try control(badge("Equatable"), mode: mode).isEmpty, "\(mode)")
        }
    }

    /// A `LocalizedStringKey` interpolated into a `Text` literal resolves to the SDK's
    /// deprecated generic interpolation (a debug description, not the localized text):
    /// a warning, so a failure. Interpolating `Text(key)` is the localized way.
    @Test func anInterpolatedLocalizedStringKeyInTextWarns() throws {
        func view(_ interpolated: String) -> String {
            #"""
            Text("Open \#(interpolated)")
            }
            var key: LocalizedStringKey { "Inbox" }
            var unused: some View {
            Text("A")
            """#
        }
        for mode in Mode.allCases {
            let before = try control(view(#"\(key)"#), mode: mode)
            #expect(
                before.contains { $0.severity == "warning" && $0.message.contains("'appendInterpolation' is deprecated") && $0.line == 8 },
                "\(mode): \(before)")
            #expect(try control(view(#"\(Text(key))"#), mode: mode).isEmpty, "\(mode)")
        }
    }

    /// An API deprecated at or below the minimum warns, so fails; below its deprecation it
    /// is fine: `onChange(of:perform:)` is iOS 14, deprecated in iOS 17. (Its iOS 14
    /// introduction is not tried: the stub does not build below iOS 16, whose `Shape`
    /// requirement `sizeThatFits` cannot be made unavailable in a protocol.)
    @Test func aDeprecatedAPIWarnsFromItsDeprecation() throws {
        let code = "Text(\"A\").onChange(of: tab) { newValue in }"
        #expect(try control(code, minimumIOS: "16.0").isEmpty)
        let deprecated = try control(code, minimumIOS: "17.0")
        #expect(
            deprecated.contains { $0.severity == "warning" && $0.message.contains("Use `onChange` with a two or zero parameter action closure") },
            "\(deprecated)")
        #expect(try control("Text(\"A\").onChange(of: tab) { _, newValue in }", minimumIOS: "17.0").isEmpty)
    }

    @Test func aDeclarationMissingFromTheStubIsNamed() throws {
        let diagnostics = try control(#"Text("A").glassEffect()"#)
        let report = diagnostics.map(\.description).joined(separator: "\n")
        #expect(report.contains("The stub declares no 'glassEffect'"), "\(report)")
        #expect(report.contains("Tests/SwiftUIStub/SwiftUI.swift"))
    }

    @Test func previewCodeIsCheckedAsAView() throws {
        let demo = """
            #if os(iOS)
            import SwiftUI

            @available(iOS 17.0, *)
            #Preview("Broken") {
                Toggle("On", isOn: true)
            }
            #endif
            """
        let diagnostics = try control(#"Text("A")"#, demo: demo)
        #expect(diagnostics.contains { $0.file == "Catalog/control/ControlDemo.swift" && $0.line == 6 }, "\(diagnostics)")
    }

    @Test func aViewFileOutsideTheIOSGuardIsReported() throws {
        #expect(throws: ViewTypeCheck.Failure.self) {
            _ = try ViewTypeCheck.prepared(
                "import SwiftUI\nstruct A: View { var body: some View { Text(\"A\") } }\n",
                path: "Catalog/x/X.swift", role: "component")
        }
        #expect(throws: ViewTypeCheck.Failure.self) {
            _ = try ViewTypeCheck.prepared("#if os(iOS)\nenum L {}\n#endif\n", path: "Catalog/x/XLogic.swift", role: "logic")
        }
    }

    /// search-tab-view's minimum is the iOS 26 introduction of tabBarMinimizeBehavior and
    /// tabViewBottomAccessory: one major release lower, the same files fail on exactly those.
    @Test func searchTabViewNeedsIOS26() throws {
        let original = ViewTypeCheck.catalogFolder.appendingPathComponent("search-tab-view")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("view-minimum-\(UUID().uuidString)/search-tab-view")
        try FileManager.default.createDirectory(at: folder.deletingLastPathComponent(), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        try FileManager.default.copyItem(at: original, to: folder)
        let manifest = folder.appendingPathComponent("block.json")
        let lowered = try String(contentsOf: manifest, encoding: .utf8).replacingOccurrences(of: #""iOS": "26.0""#, with: #""iOS": "18.0""#)
        try Data(lowered.utf8).write(to: manifest)
        let diagnostics = try ViewTypeCheck.repository.check(ViewTypeCheck.block(at: folder), mode: .swift6)
        let report = diagnostics.map(\.description).joined(separator: "\n")
        #expect(report.contains("'tabBarMinimizeBehavior' is unavailable"), "\(report)")
        #expect(report.contains("'tabViewBottomAccessory(content:)' is unavailable") || report.contains("'tabViewBottomAccessory' is unavailable"), "\(report)")
        #expect(report.contains("introduced in iOS 26.0"), "\(report)")
        #expect(!report.contains("introduced in iOS 18.0"))
    }

    // MARK: Controls: the isolation problems the review found, before and after the fix

    @Test func aPlainClosurePassedToButtonWarns() throws {
        let before = try control(
            """
            Child { }
            }
            }

            @available(iOS 17.0, *)
            struct Child: View {
                let action: () -> Void
                var body: some View {
                    Button(action: action) { Text("Go") }
            """)
        #expect(before.contains { $0.severity == "warning" && $0.message.contains("non-Sendable function value") }, "\(before)")
        let after = try control(
            """
            Child { }
            }
            }

            @available(iOS 17.0, *)
            struct Child: View {
                let action: @MainActor () -> Void
                var body: some View {
                    Button(action: action) { Text("Go") }
            """)
        #expect(after.isEmpty, "\(after)")
    }

    @Test func aShapeNeedsNonisolatedWhenTheMainActorIsTheDefault() throws {
        func shape(_ modifier: String) -> String {
            """
            Rectangle().contentShape(Outset(amount: 4))
            }
            }

            @available(iOS 17.0, *)
            \(modifier)private struct Outset: Shape {
                var amount: Double
                func path(in rect: CGRect) -> Path {
                    Path(rect.insetBy(dx: -amount, dy: -amount))
            """
        }
        let before = try control(shape(""), mode: .swift6MainActor)
        #expect(before.contains { $0.message.contains("crosses into main actor-isolated code") }, "\(before)")
        #expect(try control(shape("nonisolated "), mode: .swift6MainActor).isEmpty)
        #expect(try control(shape(""), mode: .swift6).isEmpty)
    }

    @Test func aGlobalReadInAGeometryClosureNeedsNonisolated() throws {
        func view(_ modifier: String) -> String {
            """
            Text("A")
                .onGeometryChange(for: CGRect.self) { proxy in
                    proxy.frame(in: .named(rowSpace))
                } action: { _ in }
                .coordinateSpace(.named(rowSpace))
            }
            }

            \(modifier)private let rowSpace = "row"

            enum Unused {
            static func unused() {
            """
        }
        let before = try control(view(""), mode: .swift6MainActor)
        #expect(before.contains { $0.message.contains("rowSpace") }, "\(before)")
        #expect(try control(view("nonisolated "), mode: .swift6MainActor).isEmpty)
    }

    // MARK: The machinery

    @Test func stubVariantsMakeLaterIntroductionsUnavailable() throws {
        let stub = """
            @available(iOS 17.0, *)
            public func seventeen() {}
                @available(iOS 18.0, *)
                public func eighteen() {}
            """
        let variant = try ViewTypeCheck.stubVariant(stub, minimumIOS: "17.0")
        #expect(
            variant == """
                @available(iOS 17.0, *)
                public func seventeen() {}
                    @available(*, unavailable, message: "introduced in iOS 18.0")
                    public func eighteen() {}
                """)
        #expect(try ViewTypeCheck.stubVariant(stub, minimumIOS: "18.0") == stub)
        #expect(throws: ViewTypeCheck.Failure.self) {
            try ViewTypeCheck.stubVariant("@available(iOS 17.0, macOS 14.0, *)\nfunc f() {}", minimumIOS: "17.0")
        }
        #expect(throws: ViewTypeCheck.Failure.self) {
            try ViewTypeCheck.stubVariant("@available(iOS 17.0, *) func f() {}", minimumIOS: "17.0")
        }
    }

    @Test func stubVariantsDeprecateFromTheirVersionAndKeepTheRest() throws {
        let stub = """
            @available(iOS 14.0, *)
                @available(iOS, deprecated: 17.0, message: "Use the other one.")
            public func old() {}
            @available(*, deprecated, message: "A debug description.")
            public func any() {}
            @available(*, unavailable)
            extension Key: Sendable {}
            @available(*, unavailable, message: "not here")
            public func gone() {}
            """
        let lines = stub.components(separatedBy: "\n")
        func variant(_ minimum: String) throws -> [String] {
            try ViewTypeCheck.stubVariant(stub, minimumIOS: minimum).components(separatedBy: "\n")
        }
        // Below the deprecation no warning: the line goes, and the numbering stays.
        #expect(try variant("16.0") == [lines[0], ""] + lines[2...])
        #expect(try variant("17.0") == [lines[0], #"    @available(*, deprecated, message: "Use the other one.")"#] + lines[2...])
        #expect(try variant("26.0") == variant("17.0"))
        #expect(
            try variant("13.0")
                == [#"@available(*, unavailable, message: "introduced in iOS 14.0")"#, ""] + lines[2...])
        for wrong in [
            #"@available(*, deprecated, message: "x") public func f() {}"#,
            #"@available(macOS, deprecated: 14.0, message: "x")"#,
            #"@available(iOS, deprecated: 17.0)"#,
            #"@available(iOS, introduced: 14.0, deprecated: 17.0, message: "x")"#,
            #"@available(iOS, deprecated: 17.0, message: "a" + "b")"#,
            #"@available(iOS, deprecated: 17.0, message: "\(x)")"#,
            #"@available(*, deprecated, renamed: "g")"#,
            #"@available(*, unavailable, message: x)"#,
            #"@available(*, unavailable) extension Key: Sendable {}"#,
            #"@available(iOS 17.0, *, deprecated)"#,
        ] {
            #expect(throws: ViewTypeCheck.Failure.self, "\(wrong)") {
                try ViewTypeCheck.stubVariant(wrong + "\nfunc f() {}", minimumIOS: "17.0")
            }
        }
    }

    @Test func theStubsOwnAvailabilityLinesAllHaveTheOneForm() throws {
        let stub = try String(contentsOf: ViewTypeCheck.stubFolder.appendingPathComponent("SwiftUI.swift"), encoding: .utf8)
        for minimum in ["13.0", "17.0", "18.0", "27.0"] {
            _ = try ViewTypeCheck.stubVariant(stub, minimumIOS: minimum)
        }
        #expect(stub.contains("It proves nothing about behaviour."))
        // What issue 31 found the SDK to say: the key is not Sendable, and the generic
        // interpolation is deprecated.
        #expect(stub.contains("@available(*, unavailable)\nextension LocalizedStringKey: Sendable {}"))
        #expect(!stub.contains("struct LocalizedStringKey: Equatable, Sendable"))
    }

    @Test func previewsAreCutKeepingLineNumbers() throws {
        let source = """
            #if os(iOS)
            import SwiftUI
            @available(iOS 17.0, *)
            #Preview("Braces } in \\" strings") {
                Text("}") // a } in a comment
                    .padding()
            }
            #endif
            """
        let prepared = try ViewTypeCheck.prepared(source, path: "Catalog/x/XDemo.swift", role: "demo")
        #expect(
            prepared.components(separatedBy: "\n") == [
                "",
                "import SwiftUI",
                "@available(iOS 17.0, *)",
                "@MainActor private struct CutPreview1: View { var body: some View {",
                "    Text(\"}\") // a } in a comment",
                "        .padding()",
                "} }",
                "",
            ])
    }

    @Test func diagnosticsPointAtTheCatalogFile() {
        let output = """
            /tmp/work/Pager.swift:12:5: error: cannot find 'glassEffect' in scope
            /tmp/work/Pager.swift:12:5: note: did you mean 'glass'?
            /tmp/work/PagerDemo.swift:3:1: warning: something else
            """
        let diagnostics = ViewTypeCheck.parseDiagnostics(
            output,
            files: [
                "/tmp/work/Pager.swift": "Catalog/pager/Pager.swift",
                "/tmp/work/PagerDemo.swift": "Catalog/pager/PagerDemo.swift",
            ])
        #expect(diagnostics.map(\.file) == ["Catalog/pager/Pager.swift", "Catalog/pager/PagerDemo.swift"])
        #expect(diagnostics.map(\.severity) == ["error", "warning"])
        #expect(diagnostics.first?.description.contains("The stub declares no 'glassEffect'") == true)
    }

    // MARK: Fixtures

    /// Type-checks a one-block fixture whose component's body is `body` (line 8 of
    /// Control.swift is its first line), with a logic file and an optional demo file. A
    /// block always has several files, and the compiler judges some isolation questions
    /// differently when a module is a single file, so the fixture never is.
    func control(_ body: String, demo: String? = nil, minimumIOS: String = "17.0", mode: Mode = .swift6) throws -> [ViewTypeCheck.Diagnostic] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("view-control-\(UUID().uuidString)/control")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        var files = [#"{"path": "Control.swift", "role": "component"}"#, #"{"path": "ControlLogic.swift", "role": "logic"}"#]
        try Data("enum ControlLogic {}\n".utf8).write(to: folder.appendingPathComponent("ControlLogic.swift"))
        let component = """
            #if os(iOS)
            import SwiftUI

            @available(iOS \(minimumIOS), *)
            struct Control: View {
                @State private var tab = 0
                var body: some View {
            \(body)
                }
            }
            #endif
            """
        try Data(component.utf8).write(to: folder.appendingPathComponent("Control.swift"))
        if let demo {
            files.append(#"{"path": "ControlDemo.swift", "role": "demo"}"#)
            try Data(demo.utf8).write(to: folder.appendingPathComponent("ControlDemo.swift"))
        }
        let manifest = #"{"name": "control", "platforms": {"iOS": "\#(minimumIOS)"}, "files": [\#(files.joined(separator: ", "))]}"#
        try Data(manifest.utf8).write(to: folder.appendingPathComponent("block.json"))
        return try ViewTypeCheck.repository.check(ViewTypeCheck.block(at: folder), mode: mode)
    }
}

/// The Swift packages added blocks need, turned into what to do about them: in a SwiftPM
/// project, SwiftPM's own `swift package add-dependency` and `add-target-dependency`
/// (they ship with the toolchain and edit `Package.swift` without running it); without
/// `swift`, or in an Xcode project, what to add and where, for a person to do.
///
/// The URL, products and versions come from a registry: `BlockResolution` refuses any that
/// breaks its grammar (`PackageValueGrammar`) before anything is written, `plan` leaves out
/// any that slipped through, and each command passes them after `--`, where SwiftPM reads
/// nothing as an option.
public struct PackageSteps: Sendable, Equatable {
    /// One command line to run in the project root, starting with `swift`.
    public struct Command: Sendable, Equatable {
        public var arguments: [String]
        /// The block that needs it, for messages.
        public var requiredBy: String
        /// The package's URL, for the lock's record of what blocks added.
        public var url: String? = nil
        /// For `add-target-dependency`: the product and the target it goes to.
        public var product: String? = nil
        public var target: String? = nil

        public var text: String { (["swift"] + arguments).map(Self.quoted).joined(separator: " ") }

        static func quoted(_ word: String) -> String {
            word.allSatisfy { $0.isLetter || $0.isNumber || "-_./:@=+".contains($0) } ? word : "'" + word.replacing("'", with: "'\\''") + "'"
        }
    }

    /// The commands SwiftPM will run, in order; empty when nothing is left to add.
    public var commands: [Command]
    /// For a person, when blocks cannot make the edit itself: one line per package.
    public var manual: [String]

    /// - Parameters:
    ///   - packages: each package and the block that needs it.
    ///   - targetFolder: the folder blocks go to, relative to the root; under
    ///     `Sources/<Target>/` it names the target the products are added to.
    ///   - swiftAvailable: whether a `swift` executable was found.
    public static func plan(
        _ packages: [(package: PackageDependency, requiredBy: String)], root: URL, targetFolder: String?, swiftAvailable: Bool
    ) -> PackageSteps {
        guard !packages.isEmpty else { return PackageSteps(commands: [], manual: []) }
        let manifest = try? String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        // A folder whose name is not a target name SwiftPM can be given leaves the step to a person.
        let target = targetFolder.flatMap(Self.targetName).flatMap { PackageValueGrammar.targetProblem($0) == nil ? $0 : nil }
        var commands: [Command] = []
        var manual: [String] = []
        var addedURLs: Set<String> = []
        var addedProducts: Set<String> = []
        for (package, requiredBy) in packages where package.problems.isEmpty {
            let requirement = package.exact.map { ["--exact", $0] } ?? ["--from", package.from ?? "0.0.0"]
            let spoken = package.exact.map { "exact: \"\($0)\"" } ?? "from: \"\(package.from ?? "0.0.0")\""
            guard let manifest, swiftAvailable, let target else {
                let place = manifest == nil ? "your Xcode project (File > Add Package Dependencies…)" : "Package.swift"
                let products = package.products.joined(separator: ", ")
                manual.append(
                    "\(requiredBy) needs the package \(package.url) (\(spoken)) with \(products): add it to \(place)"
                        + (target.map { " and the products to the target \($0)" } ?? " and the products to the target that holds the block"))
                continue
            }
            let known = Self.mentions(manifest, url: package.url)
            if !known, addedURLs.insert(Self.normalized(package.url)).inserted {
                commands.append(
                    Command(arguments: ["package", "add-dependency"] + requirement + ["--", package.url], requiredBy: requiredBy, url: package.url))
            }
            for product in package.products {
                let already = known && manifest.contains("\"\(product)\"")
                guard !already, addedProducts.insert(package.identity + "/" + product).inserted else { continue }
                commands.append(
                    Command(
                        arguments: ["package", "add-target-dependency", "--package", package.identity, "--", product, target], requiredBy: requiredBy,
                        url: package.url, product: product, target: target))
            }
        }
        return PackageSteps(commands: commands, manual: manual)
    }

    /// The lock with a record of each package: what `succeeded` (the commands that ran,
    /// in order, on `manifest`, the Package.swift from before them) put in, and, for a
    /// package Package.swift already named, that it was there before blocks (the user's).
    /// A package with a record keeps it; one with no record was never added by blocks here
    /// (SwiftPM failed, or a person adds it), and `remove` leaves it alone.
    public static func recording(
        _ packages: [(package: PackageDependency, requiredBy: String)], succeeded: [Command], manifest: String?, in lock: Lockfile
    ) -> Lockfile {
        guard let manifest else { return lock }
        var lock = lock
        for (package, requiredBy) in packages where lock.package(package.url) == nil && mentions(manifest, url: package.url) {
            lock.setPackage(package.url, Lockfile.Package(url: package.url, block: requiredBy, added: false))
        }
        var packageList = PackageManifestEditor.hasDependencyList(manifest)
        var targetLists: [String: Bool] = [:]
        for command in succeeded {
            guard let url = command.url else { continue }
            if let product = command.product, let target = command.target {
                guard var record = lock.package(url), record.added else { continue }
                let hadList = targetLists[target] ?? PackageManifestEditor.hasDependencyList(manifest, target: target)
                targetLists[target] = true
                record.products.append(Lockfile.Package.Product(name: product, target: target, createdList: !hadList))
                lock.setPackage(url, record)
            } else {
                lock.setPackage(url, Lockfile.Package(url: url, block: command.requiredBy, added: true, createdList: !packageList))
                packageList = true
            }
        }
        return lock
    }

    /// `Sources/App/Blocks` is in the target `App`.
    static func targetName(_ folder: String) -> String? {
        let parts = folder.split(separator: "/")
        guard parts.count >= 2, parts[0] == "Sources" else { return nil }
        return String(parts[1])
    }

    /// Whether Package.swift already names the package, with or without `.git`.
    static func mentions(_ manifest: String, url: String) -> Bool {
        let bare = normalized(url)
        return manifest.contains("\"\(bare)\"") || manifest.contains("\"\(bare).git\"")
    }

    static func normalized(_ url: String) -> String {
        url.lowercased().hasSuffix(".git") ? String(url.dropLast(4)) : url
    }

    /// `swift` on PATH, as `lint` finds `swiftc`.
    public static func findSwift(environment: [String: String]) -> URL? {
        for folder in (environment["PATH"] ?? "").split(separator: ":") {
            let path = "\(folder)/swift"
            if FileManager.default.isExecutableFile(atPath: path) { return URL(fileURLWithPath: path) }
        }
        return nil
    }

    /// Runs the commands in order in the root; the first that fails stops the rest and
    /// is returned with SwiftPM's own words, and those after it.
    ///
    /// Call it holding `ProjectMutex`: SwiftPM's temporary files go to a staging folder of
    /// the project's, removed afterwards (and by the next run if this one is killed). Left
    /// to itself, every SwiftPM run leaves a `TemporaryDirectory.*` folder and a lock
    /// file in the system's temporary folder.
    public func run(swift: URL, root: URL) -> (failed: Command, reason: String, remaining: [Command])? {
        let scratch = try? StagingArea(root: root)
        defer { scratch.map { try? FileManager.default.removeItem(at: $0.url) } }
        // Without a staging folder, SwiftPM keeps this process's environment as it is.
        let environment = scratch.map { ProcessInfo.processInfo.environment.merging(["TMPDIR": $0.url.path]) { _, ours in ours } }
        for (position, command) in commands.enumerated() {
            let outcome: ChildProcess.Outcome
            do {
                outcome = try ChildProcess.run(
                    swift.path, arguments: command.arguments, environment: environment, workingDirectory: root.path,
                    discardOutput: true, captureErrors: true)
            } catch {
                return (command, "\(error)", Array(commands[(position + 1)...]))
            }
            if outcome.exitCode != 0 {
                let reason = outcome.standardError.split(separator: "\n").last.map(String.init) ?? "exit code \(outcome.exitCode)"
                return (command, reason, Array(commands[(position + 1)...]))
            }
        }
        return nil
    }
}

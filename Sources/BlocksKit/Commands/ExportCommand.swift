/// `blocks export`: one archive of chosen blocks, to hand to someone or add offline.
public enum ExportCommand: Command {
    public static let spec = CommandSpec(
        name: "export",
        abstract: "Write one archive of the chosen blocks, with headers, a LICENSE and a checksummed manifest.",
        arguments: [ArgumentSpec("names", help: "The blocks to export.", variadic: true, completion: .blockNames)],
        options: [
            OptionSpec("format", value: "format", help: "tar.gz or zip (default: from the file name).", completion: .choices(["tar.gz", "zip"])),
            OptionSpec("output", short: "o", value: "file", help: "The archive to write (required)."),
            OptionSpec("force", help: "Replace the file if it exists, without asking."),
        ])

    public static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> Int32 {
        guard let output = arguments.value("output") else {
            throw UsageError.missingOption("-o FILE", because: "export writes one archive and needs its name, e.g. -o tabs.tar.gz")
        }
        let format: ArchiveFormat
        if let name = arguments.value("format") {
            guard let chosen = ArchiveFormat(rawValue: name) else {
                throw UsageError.invalidValue(option: "--format", value: name, expected: "tar.gz or zip")
            }
            if let named = ArchiveFormat.forFile(output), named != chosen {
                throw UsageError.invalidValue(
                    option: "-o", value: output, expected: "a name ending in .\(chosen.fileExtension) for --format \(chosen.rawValue)")
            }
            format = chosen
        } else if let guessed = ArchiveFormat.forFile(output) {
            format = guessed
        } else {
            throw UsageError.invalidValue(option: "-o", value: output, expected: "a name ending in .tar.gz or .zip, or --format")
        }
        let url = context.resolve(output)
        guard try confirmReplacing(url, force: arguments.flag("force"), context: context) else {
            // The person said no: that is their answer, not a failure to report in red.
            // Still exit 1, so a script's next step does not take the old file for the new.
            context.note("\(TerminalText.escaped(url.path)) was kept; nothing was exported")
            return 1
        }
        let source = try context.registrySource()
        let names = Array(Set(arguments.positionals)).sorted()
        let blocks = try source.contents(of: names)
        let exporter = BlockExporter(packager: BlockPackager(year: try BlockPackager.year(environment: context.environment)))
        let entries = try exporter.entries(for: blocks, folder: BlockExporter.folderName(for: url))
        try Archives.write(entries, format: format, to: url)
        if context.json {
            context.print(
                JSONOutput.encode([
                    "output": .string(url.path), "format": .string(format.rawValue),
                    "blocks": .array(names.map { .string($0) }), "sha256": .string(try SHA256.hex(fileAt: url)),
                ]))
        } else {
            context.print("Exported \(names.joined(separator: ", ")) to \(url.path)")
        }
        return 0
    }

    /// An existing file is replaced only with `--force` or when the person at the terminal
    /// says so: the archive may be someone's only copy of something else. False when the
    /// person declined; without anyone to ask, an error that says how to replace it.
    static func confirmReplacing(_ url: URL, force: Bool, context: CommandContext) throws -> Bool {
        guard !force, PathKind(url.path) != .missing else { return true }
        guard context.isInteractive else { throw ArchiveError.outputExists(archive: url.path) }
        return Prompt.letter(
            "\(TerminalText.escaped(url.path)) already exists. Replace it?", letters: ["y", "n"], defaultLetter: "n", context: context) == "y"
    }
}

/// `blocks export`: one archive of chosen blocks, to hand to someone or add offline.
public enum ExportCommand: Command {
    public static let spec = CommandSpec(
        name: "export",
        abstract: "Write one archive of the chosen blocks, with headers, a LICENSE and a checksummed manifest.",
        arguments: [ArgumentSpec("names", help: "The blocks to export.", variadic: true, completion: .blockNames, whereToFind: "'blocks list' shows every name")],
        options: [outputOption, formatOption, overwriteOption, yesOption],
        examples: [
            .init("blocks export top-tabs pager -o tabs.zip", "Write top-tabs and pager, with their dependencies' code, into tabs.zip."),
            .init("blocks export pager -o pager.tar.gz --overwrite", "Replace pager.tar.gz if it is there; 'blocks add ./pager.tar.gz' adds from it."),
        ])

    static let outputOption = SharedOptions.output(value: "file", help: "The archive to write.", required: true)
    static let formatOption = OptionSpec("format", value: "format", help: "\(formatNames) (default: from the file name).", completion: .choices(ArchiveFormat.allCases.map(\.rawValue)))
    /// "tar.gz or zip": every format export writes.
    static var formatNames: String { ArchiveFormat.allCases.map(\.rawValue).joined(separator: " or ") }
    static let overwriteOption = SharedOptions.overwrite(help: "Replace the file if it exists, without asking.")
    static let yesOption = SharedOptions.yes(help: "Ask nothing: an existing file is kept (and export fails) unless --overwrite.")

    public static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> Int32 {
        guard let output = arguments.value(outputOption) else {
            throw UsageError.missingOption("-o FILE", because: "export writes one archive and needs its name, e.g. -o tabs.tar.gz")
        }
        let format: ArchiveFormat
        if let name = arguments.value(formatOption) {
            guard let chosen = ArchiveFormat(rawValue: name) else {
                throw UsageError.invalidValue(option: "--format", value: name, expected: formatNames)
            }
            if let named = ArchiveFormat.forFile(output), named != chosen {
                throw UsageError.invalidValue(
                    option: "-o", value: output, expected: "a name ending in .\(chosen.fileExtension) for --format \(chosen.rawValue)")
            }
            format = chosen
        } else if let guessed = ArchiveFormat.forFile(output) {
            format = guessed
        } else {
            throw UsageError.invalidValue(option: "-o", value: output, expected: "a name ending in \(ArchiveFormat.spelled()), or --format")
        }
        let url = context.resolve(output)
        guard try confirmReplacing(url, overwrite: arguments.flag(overwriteOption), mayAsk: !arguments.flag(yesOption), context: context) else {
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

    /// An existing file is replaced only with `--overwrite` or when the person at the terminal
    /// says so: the archive may be someone's only copy of something else. False when the
    /// person declined; without anyone to ask (or with `--yes`), an error that says how to replace it.
    static func confirmReplacing(_ url: URL, overwrite: Bool, mayAsk: Bool, context: CommandContext) throws -> Bool {
        guard !overwrite, PathKind(url.path) != .missing else { return true }
        guard context.isInteractive, mayAsk else { throw ArchiveError.outputExists(archive: url.path) }
        return Prompt.letter(
            "\(TerminalText.escaped(url.path)) already exists. Replace it?", letters: ["y", "n"], defaultLetter: "n", context: context) == "y"
    }
}

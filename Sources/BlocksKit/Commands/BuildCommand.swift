/// `blocks build`: publishes a catalog as a static registry any HTTP server can host.
public enum BuildCommand: Command {
    public static let spec = CommandSpec(
        name: "build",
        abstract: "Write a static registry: index.json, per-block metadata and reproducible archives.",
        discussion: "Serve the output folder with nginx, a CDN or any static host. Set SOURCE_DATE_EPOCH to fix the copyright year.",
        options: [outputOption, catalogOption, signOption, expiresOption, nextKeyOption, siteOption, splitIndexOption],
        examples: [
            .init("blocks build -o public", "Publish ./Catalog into public/, ready for any static host."),
            .init("blocks build -o public --sign blocks.key --site", "The same, signed, with a browsable catalog."),
        ])

    static let outputOption = SharedOptions.output(value: "dir", help: "The folder to write the registry into.", required: true)
    static let catalogOption = SharedOptions.catalog(help: "The catalog to publish (default: ./Catalog, else the built-in catalog).")
    static let signOption = OptionSpec(
        "sign", value: "keyfile",
        help: "Sign the index with this secret key (from 'blocks keygen'; default: $BLOCKS_SIGNING_KEY), writing index.json.minisig.")
    static let expiresOption = OptionSpec(
        "expires", value: "duration", help: "With --sign: how long the signed index is valid, e.g. 7d, 12h (units s, m, h, d; default: 30d).")
    static let nextKeyOption = OptionSpec(
        "next-key", value: "pubkey",
        help: "With --sign: the public key you will sign with next, listed in the index so clients can pin it before you rotate.")
    static let siteOption = OptionSpec("site", help: "Also write a browsable HTML catalog beside the registry (index.html, a page per block).")
    static let splitIndexOption = OptionSpec(
        "split-index",
        help:
            "Write the split index (schemaVersion 3: index.json lists a dictionary, ranges of compact entries and digest files) for a registry too large for one index; older clients must upgrade. Experimental: its files may change form.")

    public static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> Int32 {
        guard let out = arguments.value(outputOption) else { throw UsageError.missingOption("-o <dir>", because: "it names the folder to write the registry into") }
        let source: CatalogSource
        if let catalog = arguments.value(catalogOption) {
            let url = context.resolve(catalog)
            guard CatalogSource.looksLikeCatalog(url) else { throw CatalogError.notACatalog(path: url.path) }
            source = .folder(url)
        } else if CatalogSource.looksLikeCatalog(context.resolve("Catalog")) {
            source = .folder(context.resolve("Catalog"))
        } else {
            source = .embedded
        }
        let blocks = try BlockBatches(catalog: source)
        let output = context.resolve(out)
        context.protectFromInterruption(
            "\(out) was not published to: its index.json, written last, is the previous one if there was one; run the same 'blocks build' again")
        var builder = RegistryBuilder(
            output: output, packager: BlockPackager(year: try BlockPackager.year(environment: context.environment)),
            published: try PublicationDate.stamp(environment: context.environment))
        builder.tuning = Tuning(environment: context.environment)
        builder.site = arguments.flag(siteOption)
        builder.splitIndex = arguments.flag(splitIndexOption)
        builder.signing = try signing(arguments, context: context)
        builder.recordFile = BuildRecord.file(for: output, cacheDirectory: context.cacheDirectory)
        let started = Date()
        let report = try builder.build(blocks)
        let seconds = Date().timeIntervalSince(started)
        if context.json {
            var object: [String: JSONValue] = [
                "signedBy": builder.signing.map { .string($0.key.publicKey.id) } ?? .null,
                "output": .string(output.path),
                "catalog": .string(source.location),
                "written": .array(report.written.map { .string($0) }),
                "unchanged": .array(report.unchanged.map { .string($0) }),
                "seconds": .double((seconds * 1000).rounded() / 1000),
            ]
            if let site = report.site {
                object["site"] = .object([
                    "index": .string(output.joining(SiteBuilder.indexPath).path), "written": .int(site.written), "unchanged": .int(site.unchanged),
                ])
            }
            context.print(JSONOutput.encode(object))
        } else {
            if let signing = builder.signing {
                context.note("Signed index.json with key \(signing.key.publicKey.id) (\(IndexSigning.signatureFile)).")
            }
            context.print(
                "Built \(blocks.names.count) block\(blocks.names.count == 1 ? "" : "s") into \(output.path): \(report.written.count) written, \(report.unchanged.count) unchanged."
            )
            if let site = report.site {
                context.print(
                    "Site: \(site.written) file\(site.written == 1 ? "" : "s") written, \(site.unchanged) unchanged; open \(output.joining(SiteBuilder.indexPath).path)"
                )
            }
            context.note("Next: serve \(output.path) with any static web server, then 'blocks init --registry URL' in a project uses it.")
        }
        return 0
    }

    /// `--sign` (or `BLOCKS_SIGNING_KEY`) with `--expires` and `--next-key`; nil when unsigned.
    static func signing(_ arguments: ParsedArguments, context: CommandContext) throws -> IndexSigning? {
        let keyPath = arguments.value(signOption) ?? context.environment["BLOCKS_SIGNING_KEY"].flatMap { $0.isEmpty ? nil : $0 }
        guard let keyPath else {
            for option in [expiresOption, nextKeyOption] where arguments.value(option) != nil {
                throw UsageError.inapplicableOption("--\(option.long)", because: "it applies to a signed build (--sign KEYFILE)")
            }
            return nil
        }
        let key = try SecretKey.read(path: context.resolve(keyPath).path)
        var lifetime = IndexSigning.defaultLifetime
        if let text = arguments.value(expiresOption) {
            guard let seconds = RFC3339.duration(text) else { throw SignatureError.invalidExpiry(text) }
            lifetime = seconds
        }
        let now = context.environment["SOURCE_DATE_EPOCH"].flatMap { Int($0) } ?? Int(Date().timeIntervalSince1970)
        let nextKey = try arguments.value(nextKeyOption).map { text throws(SignatureError) in try MinisignPublicKey(text: text) }
        return IndexSigning(key: key, lifetime: lifetime, now: now, nextKey: nextKey)
    }
}

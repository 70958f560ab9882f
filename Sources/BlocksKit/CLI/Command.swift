/// One subcommand. Commands are glue: they parse, call into the library, and print.
public protocol Command {
    static var spec: CommandSpec { get }
    /// Returns the exit code. Errors thrown here are reported by `BlocksCLI` in one place.
    static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> Int32
}

/// Options every command accepts, before or after its name, in the order `blocks --help`
/// lists them: the everyday ones first, the signing ones after.
public enum GlobalOptions {
    public static let specs: [OptionSpec] = [
        registryOption, offlineOption, jsonOption, quietOption, noColorOption, directoryOption, keyOption, allowExpiredOption, helpOption,
    ]

    public static let registryOption = OptionSpec(
        "registry", value: "url-or-path", help: "The registry to use (default: $BLOCKS_REGISTRY, else the built-in catalog).", completion: .registries)
    public static let offlineOption = OptionSpec("offline", help: "Use only cached registry data; never touch the network.")
    public static let jsonOption = OptionSpec("json", help: "Print one JSON object, a stable contract for scripts.")
    public static let quietOption = OptionSpec("quiet", short: "q", help: "Print no progress or notes on stderr.")
    public static let noColorOption = OptionSpec("no-color", help: "Never color output (also NO_COLOR).")
    public static let directoryOption = OptionSpec("directory", short: "C", value: "dir", help: "Run as if started in <dir>.")
    public static let keyOption = OptionSpec("key", value: "pubkey", help: "Require the registry to be signed by this minisign public key; repeatable.")
    public static let allowExpiredOption = OptionSpec(
        "allow-expired", help: "Accept a signed registry past its expiry (an air-gapped mirror), with a warning.")
    public static let helpOption = OptionSpec("help", short: "h", help: "Show help information.")
}

/// The options several commands take, spelled once so that every command spells them
/// alike: `-o, --output` is where a command writes, `--overwrite` replaces what is there,
/// `-y, --yes` asks nothing, `--catalog` names a catalog folder, `--dry-run` writes nothing.
/// Each command gives its own help text; the names, short forms and quiet aliases (the
/// spellings earlier versions used) live here only.
public enum SharedOptions {
    /// Where the command writes. `--out` was build's and keygen's spelling.
    public static func output(value: String, help: String, required: Bool = false) -> OptionSpec {
        OptionSpec("output", short: "o", value: value, help: help, aliases: ["out"], required: required)
    }

    /// Replace what is there. `--force` was export's and remove's spelling.
    public static func overwrite(help: String) -> OptionSpec {
        OptionSpec("overwrite", help: help, aliases: ["force"])
    }

    /// Remove's word for the same choice: it deletes rather than replaces, so `--force`
    /// (and `-f`) reads better there; `--overwrite` is accepted too.
    public static func force(help: String) -> OptionSpec {
        OptionSpec("force", short: "f", help: help, aliases: ["overwrite"])
    }

    /// Ask nothing: take every choice that loses no work.
    public static func yes(help: String) -> OptionSpec {
        OptionSpec("yes", short: "y", help: help)
    }

    public static func catalog(help: String) -> OptionSpec {
        OptionSpec("catalog", value: "dir", help: help)
    }

    public static func dryRun(help: String) -> OptionSpec {
        OptionSpec("dry-run", help: help)
    }
}

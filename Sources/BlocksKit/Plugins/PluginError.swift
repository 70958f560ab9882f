/// Why a plugin could not do its part. Each is one clear error, and in each case blocks
/// writes nothing: transforms run before the first write of `add`.
public enum PluginError: Error, Equatable, Sendable, CustomStringConvertible {
    case notFound(name: String, searched: String)
    case cannotStart(plugin: String, reason: String)
    case failed(plugin: String, exitCode: Int32, errors: String)
    case timedOut(plugin: String, seconds: Int)
    case outputTooLarge(plugin: String, limit: Int)
    case badResponse(plugin: String, reason: String)
    /// The plugin answered with `{"error": {"message": …}}`.
    case refused(plugin: String, message: String)
    case cannotTransform(plugin: String)
    /// A transform broke one of the rules every transform keeps.
    case brokeRule(plugin: String, rule: String)
    /// A source (`git+https://…`) could not bring its registry to this machine.
    case sourceFailed(location: String, reason: String)
    /// An entry of blocks.json's `"transforms"` is neither a name nor `{"plugin", "options"}`.
    case invalidTransformEntry(String)

    public var description: String {
        switch self {
        case .notFound(let name, let searched):
            return "no plugin '\(name)': it is not built in, not declared in blocks.json's \"plugins\", and no blocks-plugin-\(name) is on PATH (\(searched))"
        case .cannotStart(let plugin, let reason):
            return "plugin '\(plugin)' could not start: \(reason)"
        case .failed(let plugin, let exitCode, let errors):
            let said = errors.isEmpty ? "" : "; it said: \(errors)"
            return "plugin '\(plugin)' failed with exit code \(exitCode)\(said); nothing was written"
        case .timedOut(let plugin, let seconds):
            return "plugin '\(plugin)' did not answer within \(seconds) s and was stopped; nothing was written"
        case .outputTooLarge(let plugin, let limit):
            return "plugin '\(plugin)' wrote more than \(limit / 1_048_576) MB and was stopped; nothing was written"
        case .badResponse(let plugin, let reason):
            return "plugin '\(plugin)' gave an answer blocks cannot use: \(reason) (docs/PLUGINS.md describes the protocol); nothing was written"
        case .refused(let plugin, let message):
            return "plugin '\(plugin)' refused: \(message); nothing was written"
        case .cannotTransform(let plugin):
            return "plugin '\(plugin)' does not offer the transform capability ('blocks plugin list' shows what each offers)"
        case .brokeRule(let plugin, let rule):
            return "plugin '\(plugin)' \(rule); nothing was written"
        case .invalidTransformEntry(let entry):
            return "blocks.json's \"transforms\" holds \(entry); each entry is a plugin's name, or {\"plugin\": NAME, \"options\": {…}}"
        case .sourceFailed(let location, let reason):
            return "cannot read registry \(location): \(reason)"
        }
    }
}

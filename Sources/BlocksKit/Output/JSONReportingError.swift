/// An error that adds members to the `--json` object `BlocksCLI.report` prints beside
/// `error`, so a failed command still prints one object with all a script needs.
public protocol JSONReportingError: Error {
    var jsonMembers: [String: JSONValue] { get }
}

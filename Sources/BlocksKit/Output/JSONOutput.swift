/// The one way commands print `--json`: a single object with sorted keys, so output is
/// stable across runs and diffs cleanly.
public enum JSONOutput {
    public static func encode(_ object: [String: JSONValue]) -> String {
        String(decoding: StableJSONWriter.write(.object(object)), as: UTF8.self)
    }
}

/// The one layout for JSON files the tool writes (the lock, the config, manifests, the
/// registry index and metadata): sorted keys, pretty printed, a final newline. The same
/// value always gives the same bytes, so files diff cleanly and archives reproduce.
public enum StableJSON {
    /// A `JSONValue` in this layout (see `StableJSONWriter`).
    public static func data(_ value: JSONValue) -> Data {
        var bytes = StableJSONWriter.write(value)
        bytes.append(UInt8(ascii: "\n"))
        return Data(bytes)
    }
}

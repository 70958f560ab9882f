/// The elements of a `--json` array that are made out of order, each kept by its place
/// until all are made (`CommandContext.printJSON(_:array:placed:)`).
///
/// `search --json` of every match of a split registry reads the hits' manifests range by
/// range, not in rank order. Kept as the bytes they print as, 100,000 results are about
/// 95 MB; kept as values, they were several times that.
struct PlacedJSONElements {
    /// By place: each element's bytes in the array (`StableJSONWriter.ArrayParts.element`).
    private(set) var encoded: [[UInt8]?] = []
    /// By place: each element, when kept as values for a capture.
    private(set) var values: [JSONValue?] = []
    private let keepsValues: Bool

    init(keepingValues: Bool) {
        keepsValues = keepingValues
    }

    /// Keeps `element` at `place`, in place of any element kept there before.
    mutating func set(_ element: JSONValue, at place: Int) {
        if keepsValues {
            if place >= values.count { values += Array(repeating: nil, count: place + 1 - values.count) }
            values[place] = element
        } else {
            if place >= encoded.count { encoded += Array(repeating: nil, count: place + 1 - encoded.count) }
            encoded[place] = StableJSONWriter.ArrayParts.element(element)
        }
    }

    /// Drops every element at `count` or after.
    mutating func keepFirst(_ count: Int) {
        if encoded.count > count { encoded.removeLast(encoded.count - count) }
        if values.count > count { values.removeLast(values.count - count) }
    }
}

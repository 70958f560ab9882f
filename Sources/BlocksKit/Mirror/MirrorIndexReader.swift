/// Reads `index.json` one entry at a time.
///
/// A 10,000-block index is ~20 MB; decoding it whole holds every manifest (and the
/// decoder's map of the whole document) at once, which alone costs more than the
/// mirror's memory budget. This scanner finds the byte range of each element of the
/// top-level `blocks` array without building anything, so the mirror decodes, checks
/// and writes one entry at a time. It checks only structure (strings, brackets) as it
/// skips; each entry's bytes, and every other top-level key and value, are fully parsed
/// by `JSONReader`. The mirror serves the index's bytes as they are, so it must accept
/// exactly the indexes `RegistryIndex.decode` accepts (the index fuzz target checks it).
enum MirrorIndexReader {
    /// How many containers enclose an entry of `blocks`: the top object and the array.
    static let entryDepth = 2

    /// What the scan found at the top level, before the checks that name a problem.
    private struct Outline {
        var schemaVersion: JSONValue?
        var entries: [Range<Int>]?
        var blocksIsNotAnArray = false
    }

    /// The schema version and the byte range of each entry in `blocks`.
    static func scan(_ data: Data, location: String) throws -> (schemaVersion: Int, entries: [Range<Int>]) {
        func invalid(_ reason: String) -> RegistryError { .invalidIndex(location: location, reason: reason) }
        // A value refused for its depth alone, to say so rather than "not valid JSON".
        var depthFailure: JSONReader.Failure?
        let result: Outline? = data.withUnsafeBytes { raw -> Outline? in
            var scanner = Scanner(bytes: raw.bindMemory(to: UInt8.self))
            var outline = Outline()
            var keys: Set<String> = []
            guard scanner.open(.object) else { return nil }
            while true {
                switch scanner.next(in: .object) {
                case .broken: return nil
                case .end:
                    scanner.skipWhitespace()
                    return scanner.atEnd ? outline : nil
                case .member(let key, let start):
                    // `JSONReader` refuses a repeated key, and so clients do.
                    guard let key, keys.insert(key).inserted else { return nil }
                    if key == "blocks" && scanner.open(.array) {
                        var ranges: [Range<Int>] = []
                        elements: while true {
                            switch scanner.next(in: .array) {
                            case .broken: return nil
                            case .end: break elements
                            case .member(_, let start):
                                guard let end = scanner.skipValue() else { return nil }
                                ranges.append(start..<end)
                            }
                        }
                        outline.entries = ranges
                        continue
                    }
                    // Any other member is small: read it whole, as clients do.
                    guard let end = scanner.skipValue() else { return nil }
                    let value: JSONValue
                    do throws(JSONReader.Failure) {
                        value = try JSONReader.parse(scanner.data(start..<end), depth: 1)
                    } catch {
                        if error.isTooDeep { depthFailure = error }
                        return nil
                    }
                    if key == "schemaVersion" { outline.schemaVersion = value }
                    if key == "blocks" { outline.blocksIsNotAnArray = true }
                }
            }
        }
        guard let result else { throw invalid(depthFailure?.summary ?? "not valid JSON") }
        guard let schemaVersion = result.schemaVersion else { throw invalid("missing schemaVersion") }
        guard case .int(let version) = schemaVersion else { throw invalid("wrong type at schemaVersion") }
        if version == SplitIndex.schemaVersion {
            // Read by search, list, info and add, but not yet copied (docs/SCALE.md).
            throw MirrorError.splitIndex(location: location)
        }
        guard version == RegistryIndex.currentSchemaVersion else {
            throw invalid("schemaVersion \(version) is not supported; upgrade blocks")
        }
        guard let entries = result.entries else { throw invalid(result.blocksIsNotAnArray ? "wrong type at blocks" : "missing blocks") }
        return (version, entries)
    }

    /// Decodes the entry at `position` in `blocks`, naming the problem the way `RegistryIndex.decode` does.
    static func entry(from data: Data, range: Range<Int>, position: Int, location: String) throws -> RegistryEntry {
        do throws(RegistryEntryProblem) {
            return try RegistryEntryProblem.reading(data.subdata(in: range), path: "blocks[\(position)]", depth: entryDepth) {
                (fields) throws(JSONFields.Problem) in try RegistryEntry(fields: fields)
            }
        } catch {
            throw RegistryError.invalidIndex(location: location, reason: error.reason)
        }
    }

    /// A cursor over JSON bytes that skips values by counting brackets outside strings.
    private struct Scanner {
        enum Container { case object, array }
        let bytes: UnsafeBufferPointer<UInt8>
        var position = 0

        init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        mutating func skipWhitespace() {
            while position < bytes.count, Self.isWhitespace(bytes[position]) { position += 1 }
        }

        static func isWhitespace(_ byte: UInt8) -> Bool {
            byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
        }

        /// Moves past a string whose opening quote is at `position`. False when it never closes.
        mutating func skipString() -> Bool {
            position += 1
            while position < bytes.count {
                switch bytes[position] {
                case UInt8(ascii: "\\"): position += 2
                case UInt8(ascii: "\""):
                    position += 1
                    return true
                default: position += 1
                }
            }
            return false
        }

        /// Moves past one value starting at `position`; returns where it ends, or nil when broken.
        mutating func skipValue() -> Int? {
            guard position < bytes.count else { return nil }
            switch bytes[position] {
            case UInt8(ascii: "\""):
                return skipString() ? position : nil
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                var depth = 0
                while position < bytes.count {
                    switch bytes[position] {
                    case UInt8(ascii: "\""):
                        guard skipString() else { return nil }
                        continue
                    case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                    case UInt8(ascii: "}"), UInt8(ascii: "]"):
                        depth -= 1
                        if depth == 0 {
                            position += 1
                            return position
                        }
                    default: break
                    }
                    position += 1
                }
                return nil
            default:
                let start = position
                while position < bytes.count, !Self.isWhitespace(bytes[position]),
                    bytes[position] != UInt8(ascii: ","), bytes[position] != UInt8(ascii: "}"),
                    bytes[position] != UInt8(ascii: "]")
                { position += 1 }
                return position > start ? position : nil
            }
        }

        var atEnd: Bool { position == bytes.count }

        func data(_ range: Range<Int>) -> Data {
            Data(UnsafeBufferPointer(rebasing: bytes[range]))
        }

        /// Moves past the opening bracket of an object or array.
        mutating func open(_ container: Container) -> Bool {
            skipWhitespace()
            guard position < bytes.count, bytes[position] == (container == .object ? UInt8(ascii: "{") : UInt8(ascii: "[")) else {
                return false
            }
            position += 1
            opened = true
            return true
        }

        enum Member: Equatable {
            /// A member's key, decoded as `JSONReader` decodes it (nil in arrays), and where its
            /// value starts; the caller moves past the value.
            case member(String?, Int)
            case end
            case broken
        }

        /// True right after an opening bracket, when no comma is due before the next member.
        private var opened = false

        /// The next member of the innermost open container, or its end.
        mutating func next(in container: Container) -> Member {
            skipWhitespace()
            guard position < bytes.count else { return .broken }
            if bytes[position] == (container == .object ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                position += 1
                opened = false
                return .end
            }
            if !opened {
                guard bytes[position] == UInt8(ascii: ",") else { return .broken }
                position += 1
                skipWhitespace()
            }
            opened = false
            var key: String?
            if container == .object {
                guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else { return .broken }
                let start = position
                guard skipString(), case .string(let text)? = try? JSONReader.parse(data(start..<position)) else { return .broken }
                key = text
                skipWhitespace()
                guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else { return .broken }
                position += 1
                skipWhitespace()
            }
            guard position < bytes.count else { return .broken }
            return .member(key, position)
        }
    }
}

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `PropertyListReader.read`, `XcodeProject(bundle:bytes:)` and
/// `XcodeProjectEditor.synced` on the bytes of a `project.pbxproj` (a cloned project's,
/// so untrusted). None crashes or stalls, and:
/// - every node's range lies in the input and starts and ends as its kind is written (a
///   quote or an unquoted-string character; `{…}`, `(…)`, `<…>`), inside its parent's;
/// - nothing nested deeper than `maximumDepth` is accepted, exactly: an accepted list
///   wrapped in arrays up to the limit is not refused for its depth, one more is;
/// - in a classic target with a Sources phase, adding `<group folder>/Blocks/x/A.swift`
///   either throws or writes bytes that read again as a project, and removing it from
///   those bytes gives back the input byte for byte.
enum PbxprojTarget {
    static let target = FuzzTarget(name: "pbxproj", prepare: prepare, run: run)

    /// The fixtures' bundle name: the editor derives its identifiers from it.
    static let bundle = URL(fileURLWithPath: "/fuzz/MyApp.xcodeproj", isDirectory: true)
    /// Targets edited per input, so an input listing thousands costs no more than a few.
    static let maximumEditedTargets = 4

    /// The depth limit holds at its edge for each kind of collection, so a reader that
    /// lost the check fails at start-up rather than waiting for the fuzzer to nest 65 deep.
    static func prepare() {
        let limit = PropertyListReader.maximumDepth
        for (open, close) in [("(", ")"), ("{a=", ";}")] {
            let deepest = String(repeating: open, count: limit) + "x" + String(repeating: close, count: limit)
            let tooDeep = String(repeating: open, count: limit + 1) + "x" + String(repeating: close, count: limit + 1)
            FuzzCheck.expect((try? PropertyListReader.read(Array(deepest.utf8))) != nil, "the reader refuses a value \(limit) deep (\(open))")
            do {
                _ = try PropertyListReader.read(Array(tooDeep.utf8))
                FuzzCheck.fail("the reader accepts a value \(limit + 1) deep (\(open))")
            } catch {
                FuzzCheck.expect(error.reason.contains("nested deeper"), "a value \(limit + 1) deep is refused for another reason: \(error)")
            }
        }
        guard let seeds = try? FileManager.default.contentsOfDirectory(atPath: "Fuzz/corpus/pbxproj") else { return }
        // The fixtures must take the edit, or the third promise goes unchecked.
        for name in seeds where name.hasPrefix("classic") {
            guard let data = FileManager.default.contents(atPath: "Fuzz/corpus/pbxproj/\(name)") else { continue }
            FuzzCheck.expect(checkEdit(Array(data)) > 0, "the seed \(name) takes no edit: the edit check would check nothing")
        }
    }

    static func run(_ data: Data) {
        let bytes = [UInt8](data)
        let root: PropertyListNode
        do {
            root = try PropertyListReader.read(bytes)
        } catch {
            FuzzCheck.expect(error.offset >= 0 && error.offset <= bytes.count, "an error at byte \(error.offset) of \(bytes.count): \(error)")
            return
        }
        checkRanges(root, in: bytes, within: 0..<bytes.count)
        let depth = deepest(root, at: 0)
        FuzzCheck.expect(depth <= PropertyListReader.maximumDepth, "the reader accepts a node \(depth) deep")
        checkDepthEdge(bytes, depth: depth)
        _ = checkEdit(bytes)
    }

    // MARK: Ranges

    /// The node's range, and its children's, as the reader's doc describes them.
    static func checkRanges(_ node: PropertyListNode, in bytes: [UInt8], within outer: Range<Int>) {
        let range = node.range
        FuzzCheck.expect(range.lowerBound >= outer.lowerBound && range.upperBound <= outer.upperBound && !range.isEmpty,
                         "the range \(range) of a node lies outside \(outer) (input of \(bytes.count) bytes)")
        let first = bytes[range.lowerBound]
        let last = bytes[range.upperBound - 1]
        func expectBrackets(_ open: Character, _ close: Character) {
            FuzzCheck.expect(range.count >= 2 && first == open.asciiValue && last == close.asciiValue,
                             "a node read as \(open)…\(close) spans \(describe(bytes[range]))")
        }
        switch node.value {
        case .string:
            if first == UInt8(ascii: "\"") || first == UInt8(ascii: "'") {
                FuzzCheck.expect(range.count >= 2 && last == first, "a quoted string spans \(describe(bytes[range]))")
            } else {
                FuzzCheck.expect(bytes[range].allSatisfy(PropertyListReader.Parser.isUnquoted),
                                 "an unquoted string spans \(describe(bytes[range]))")
            }
        case .data:
            expectBrackets("<", ">")
        case .array(let items):
            expectBrackets("(", ")")
            checkChildren(items, in: bytes, within: range)
        case .dictionary(let entries):
            expectBrackets("{", "}")
            let keys = entries.map(\.key)
            FuzzCheck.expect(Set(keys).count == keys.count, "a dictionary read with a repeated key: \(keys.prefix(20))")
            checkChildren(entries.map(\.node), in: bytes, within: range)
        }
    }

    /// Children lie between the brackets, in file order, without overlapping.
    static func checkChildren(_ children: [PropertyListNode], in bytes: [UInt8], within range: Range<Int>) {
        var next = range.lowerBound + 1
        for child in children {
            checkRanges(child, in: bytes, within: next..<(range.upperBound - 1))
            next = child.range.upperBound
        }
    }

    static func describe(_ bytes: ArraySlice<UInt8>) -> String {
        String(decoding: bytes.prefix(80), as: UTF8.self).debugDescription + (bytes.count > 80 ? "… (\(bytes.count) bytes)" : "")
    }

    // MARK: Depth

    /// The depth of the deepest node, counting as the reader does: the top value is 0.
    static func deepest(_ node: PropertyListNode, at depth: Int) -> Int {
        switch node.value {
        case .string, .data: return depth
        case .array(let items): return items.map { deepest($0, at: depth + 1) }.max() ?? depth
        case .dictionary(let entries): return entries.map { deepest($0.node, at: depth + 1) }.max() ?? depth
        }
    }

    /// The input inside arrays: up to the limit it is not refused for its depth (it may
    /// be for a comment left open at its end, which then swallows the closers), and one
    /// array more is refused for its depth, whatever follows.
    static func checkDepthEdge(_ bytes: [UInt8], depth: Int) {
        func wrapped(_ levels: Int) -> [UInt8] {
            Array(repeating: UInt8(ascii: "("), count: levels) + bytes + [0x0A] + Array(repeating: UInt8(ascii: ")"), count: levels)
        }
        let room = PropertyListReader.maximumDepth - depth
        do {
            _ = try PropertyListReader.read(wrapped(room))
        } catch {
            FuzzCheck.expect(!error.reason.contains("nested deeper"), "the input inside \(room) arrays reaches \(PropertyListReader.maximumDepth) levels and is refused: \(error)")
        }
        do {
            _ = try PropertyListReader.read(wrapped(room + 1))
            FuzzCheck.fail("the input inside \(room + 1) arrays is \(PropertyListReader.maximumDepth + 1) deep and is accepted")
        } catch {
            FuzzCheck.expect(error.reason.contains("nested deeper"), "the input inside \(room + 1) arrays is refused for another reason than its depth: \(error)")
        }
    }

    // MARK: The editor

    /// Adds a block file to each classic target with a Sources phase (a few at most), as
    /// `add` does, and takes it out again; returns how many edits were made.
    @discardableResult
    static func checkEdit(_ bytes: [UInt8]) -> Int {
        guard let project = try? XcodeProject(bundle: bundle, bytes: bytes) else { return 0 }
        var edits = 0
        for target in project.targets.filter({ $0.sourcesPhaseID != nil }).prefix(maximumEditedTargets) {
            guard let placement = try? XcodeProjects.blocksFolder(in: project, target: target), !placement.synchronized else { continue }
            let blockFolder = XcodeProjects.join(placement.folder, "x")
            let file = blockFolder + "/A.swift"
            // A reference of ours already there would go on the way back too, and one made
            // by hand to the file would keep the add from writing anything.
            guard !hasFileReference(in: project, under: blockFolder) else { continue }
            let added: [UInt8]?
            do {
                added = try XcodeProjectEditor.synced(project, target: target, blockFolder: blockFolder, files: [file])
            } catch {
                continue
            }
            guard let added else { FuzzCheck.fail("adding \(file) to target \(target.name) changed nothing") }
            do {
                _ = try PropertyListReader.read(added)
            } catch {
                FuzzCheck.fail("adding \(file) to target \(target.name) wrote bytes the reader refuses: \(error); \(excerpt(added, at: error.offset))")
            }
            let reread: XcodeProject
            do {
                reread = try XcodeProject(bundle: bundle, bytes: added)
            } catch {
                FuzzCheck.fail("adding \(file) to target \(target.name) wrote a project that cannot be read: \(error)")
            }
            let removed: [UInt8]?
            do {
                removed = try XcodeProjectEditor.synced(reread, target: nil, blockFolder: blockFolder, files: [])
            } catch {
                FuzzCheck.fail("removing \(file) from what adding it wrote throws: \(error)")
            }
            guard let removed else {
                let found = XcodeProjectEditor(project: reread).referencedFiles(under: blockFolder)
                FuzzCheck.fail("removing \(file) from what adding it wrote changes nothing (references found: \(found))")
            }
            if removed != bytes {
                let at = zip(removed, bytes).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(removed.count, bytes.count)
                FuzzCheck.fail("adding then removing \(file) (target \(target.name)) gives \(removed.count) bytes for \(bytes.count), first different at byte \(at): \(excerpt(removed, at: at)) for \(excerpt(bytes, at: at))")
            }
            edits += 1
        }
        return edits
    }

    /// Whether any file reference's path, as its groups give it, lies under `folder`.
    static func hasFileReference(in project: XcodeProject, under folder: String) -> Bool {
        project.objects.contains { id, node in
            guard node["isa"]?.string == "PBXFileReference", let name = node["path"]?.string, let parent = project.parents[id],
                let groupFolder = try? project.folder(ofGroup: parent)
            else { return false }
            return XcodeProjects.join(groupFolder, name).hasPrefix(folder + "/")
        }
    }

    static func excerpt(_ bytes: [UInt8], at offset: Int) -> String {
        let start = max(0, min(offset, bytes.count) - 40)
        return describe(bytes[start..<min(bytes.count, start + 80)])
    }
}

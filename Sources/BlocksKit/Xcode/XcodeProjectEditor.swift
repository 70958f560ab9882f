/// Makes a block's Swift files members of a target in a classic (group-based) Xcode
/// project, by editing `project.pbxproj` as Xcode writes it: a `PBXFileReference` and a
/// `PBXBuildFile` per file, a group per folder under the target's source group, and the
/// build file in the target's Sources phase. Each object goes into its section at its
/// sorted place, with Xcode's indentation and comments, and nothing else changes: an
/// add only inserts lines, and removing what an add inserted gives back the same bytes.
///
/// Identifiers are 24 hex digits derived from the project and the file's path, so the
/// same add always writes the same bytes and `remove` and `update` find what `add` wrote
/// without a record of their own.
public struct XcodeProjectEditor {
    public let project: XcodeProject
    /// Text to insert, by offset; at one offset the pieces go in `order`: an object's
    /// identifier (sections are sorted by it), or the sequence number of an array line.
    private var insertions: [(offset: Int, order: String, text: String)] = []
    private var deletions: [Range<Int>] = []
    /// Identifiers this edit adds.
    private var planned = Set<String>()
    /// The parent of each group this edit adds.
    private var newGroupParents: [String: String] = [:]

    public init(project: XcodeProject) { self.project = project }

    /// The project file after making exactly `files` (paths relative to the source root,
    /// all under `blockFolder`) the block's members of `target`: references to files of the
    /// block folder that are no longer listed go, new ones come. Nil when nothing changes.
    public static func synced(
        _ project: XcodeProject, target: XcodeProject.Target?, blockFolder: String, files: [String]
    ) throws(XcodeProjectError) -> [UInt8]? {
        var editor = XcodeProjectEditor(project: project)
        let wanted = files.filter { $0.hasSuffix(".swift") }
        let present = editor.referencedFiles(under: blockFolder)
        // A file the user already added to the project by hand keeps its own reference.
        let anyReference = Set(editor.references(under: blockFolder).map(\.path))
        let missing = wanted.filter { !anyReference.contains($0) }
        if !missing.isEmpty {
            guard let target else {
                throw .unsupportedLayout(project: project.bundle.lastPathComponent, reason: "no target was chosen for \(blockFolder)")
            }
            try editor.add(missing, target: target, blockFolder: blockFolder)
        }
        editor.remove(present.filter { !wanted.contains($0) }, blockFolder: blockFolder)
        guard !editor.insertions.isEmpty || !editor.deletions.isEmpty else { return nil }
        let edited = editor.applied()
        try verify(edited, of: project, blockFolder: blockFolder, wanted: wanted)
        return edited
    }

    /// Reads an edit back as the next run will, and refuses it unless every wanted file
    /// has a reference under the block folder and no other file keeps one of ours. The
    /// edit is made on the text, so a damaged file (an object's definition nested where
    /// no reader looks, a comment left open) can take it somewhere the reader does not
    /// see; the fuzzer found such files. Refused, nothing is written.
    private static func verify(_ edited: [UInt8], of project: XcodeProject, blockFolder: String, wanted: [String]) throws(XcodeProjectError) {
        let name = project.bundle.lastPathComponent
        let reread: XcodeProject
        do {
            reread = try XcodeProject(bundle: project.bundle, bytes: edited)
        } catch {
            throw .unsupportedLayout(project: name, reason: "its project.pbxproj would not read back after the edit (\(error))")
        }
        let editor = XcodeProjectEditor(project: reread)
        let referenced = Set(editor.references(under: blockFolder).map(\.path))
        guard referenced.isSuperset(of: wanted), Set(editor.referencedFiles(under: blockFolder)).isSubset(of: wanted) else {
            throw .unsupportedLayout(project: name, reason: "its project.pbxproj does not read back with the files of \(blockFolder) after the edit")
        }
    }

    // MARK: Identifiers

    /// The identifiers an object of `kind` for `path` may have: derived from the project
    /// and the path (96 bits of SHA-256), the first free one taken. Only a project that
    /// already uses the first (by chance, or forged) gets a later one.
    func identifiers(_ kind: String, _ path: String) -> [String] {
        (0..<Self.identifierChoices).map { salt in
            let digest = SHA256.hex("blocks|\(project.bundle.lastPathComponent)|\(kind)|\(path)" + (salt == 0 ? "" : "|\(salt)"))
            return String(digest.prefix(24)).uppercased()
        }
    }

    static let identifierChoices = 4

    /// The first identifier for `kind` and `path` that neither the project's text nor this
    /// edit mentions anywhere: `remove` deletes every line naming ours.
    private mutating func freshIdentifier(_ kind: String, _ path: String) throws(XcodeProjectError) -> String {
        let bytes = project.bytes
        guard let id = identifiers(kind, path).first(where: { !planned.contains($0) && Self.find(Array($0.utf8), in: bytes, from: 0) == nil }) else {
            throw .unsupportedLayout(project: project.bundle.lastPathComponent, reason: "every identifier blocks derives for \(path) is taken")
        }
        planned.insert(id)
        return id
    }

    /// The identifier of ours for the group of `folder` that the project holds, if any: one
    /// of the derived identifiers, naming a group that really stands for that folder.
    func existingGroup(_ folder: String) -> String? {
        identifiers("group", folder).first { id in
            project.objects[id]?["isa"]?.string == "PBXGroup" && (try? project.folder(ofGroup: id)) == folder
        }
    }

    /// Files under `blockFolder` that a reference of ours names: a file reference whose
    /// identifier is the one `add` derives from the path its groups give it.
    func referencedFiles(under blockFolder: String) -> [String] {
        references(under: blockFolder).filter { identifiers("file", $0.path).contains($0.id) }.map(\.path).sorted()
    }

    /// Every file reference under `blockFolder`, ours or not, with the path its groups give it.
    func references(under blockFolder: String) -> [(id: String, path: String)] {
        var found: [(id: String, path: String)] = []
        for (id, node) in project.objects where node["isa"]?.string == "PBXFileReference" {
            guard let name = node["path"]?.string, let parent = project.parents[id],
                let folder = try? project.folder(ofGroup: parent)
            else { continue }
            let path = folder.isEmpty ? name : "\(folder)/\(name)"
            if path.hasPrefix(blockFolder + "/") { found.append((id, path)) }
        }
        return found
    }

    // MARK: Adding

    private mutating func add(_ files: [String], target: XcodeProject.Target, blockFolder: String) throws(XcodeProjectError) {
        guard !files.isEmpty else { return }
        guard let phase = target.sourcesPhaseID, let phaseNode = project.objects[phase], let phaseFiles = phaseNode["files"] else {
            throw .unsupportedLayout(project: project.bundle.lastPathComponent, reason: "target \(target.name) has no Sources build phase")
        }
        let sourceGroup = project.sourceGroup(of: target)
        let groupFolder = try project.folder(ofGroup: sourceGroup)
        let prefix = groupFolder.isEmpty ? "" : groupFolder + "/"
        guard blockFolder.hasPrefix(prefix) else {
            throw .unsupportedLayout(
                project: project.bundle.lastPathComponent, reason: "\(blockFolder) is not inside the folder of target \(target.name)'s group (\(groupFolder))")
        }
        var newGroups: [String: (name: String, children: [(id: String, name: String)])] = [:]
        var newGroupOrder: [String] = []
        var buildLines: [String] = []
        for file in files {
            let name = String(file.split(separator: "/").last ?? Substring(file))
            let reference = try freshIdentifier("file", file)
            let buildFile = try freshIdentifier("build", "\(target.name)|\(file)")
            let folder = String(file.dropLast(name.count + 1))
            let parent = try ensureGroups(
                from: sourceGroup, folder: groupFolder, to: folder, newGroups: &newGroups, order: &newGroupOrder)
            if newGroups[parent] != nil {
                newGroups[parent]?.children.append((reference, name))
            } else {
                try appendToArray(of: parent, key: "children", line: "\(reference) /* \(name) */")
            }
            insertObject(
                section: "PBXFileReference", id: reference,
                text: "\t\t\(reference) /* \(name) */ = {isa = PBXFileReference; lastKnownFileType = sourcecode.swift; path = \(Self.quoted(name)); sourceTree = \"<group>\"; };\n")
            insertObject(
                section: "PBXBuildFile", id: buildFile,
                text: "\t\t\(buildFile) /* \(name) in Sources */ = {isa = PBXBuildFile; fileRef = \(reference) /* \(name) */; };\n")
            buildLines.append("\(buildFile) /* \(name) in Sources */")
        }
        for line in buildLines { try insertIntoArray(phaseFiles, line: line) }
        for id in newGroupOrder {
            guard let group = newGroups[id] else { continue }
            let children = group.children.map { "\t\t\t\t\($0.id) /* \($0.name) */,\n" }.joined()
            insertObject(
                section: "PBXGroup", id: id,
                text: "\t\t\(id) /* \(group.name) */ = {\n\t\t\tisa = PBXGroup;\n\t\t\tchildren = (\n\(children)\t\t\t);\n\t\t\tpath = \(Self.quoted(group.name));\n\t\t\tsourceTree = \"<group>\";\n\t\t};\n")
        }
    }

    /// The group for `folder` (relative to the source root), under `start` whose folder is
    /// `startFolder`: existing groups with the right `path` are reused, missing ones are
    /// planned as new groups of ours. Returns the innermost group's identifier.
    private mutating func ensureGroups(
        from start: String, folder startFolder: String, to folder: String,
        newGroups: inout [String: (name: String, children: [(id: String, name: String)])], order: inout [String]
    ) throws(XcodeProjectError) -> String {
        var current = start
        var currentFolder = startFolder
        let rest = startFolder.isEmpty ? folder : String(folder.dropFirst(startFolder.count + 1))
        for component in rest.split(separator: "/").map(String.init) {
            currentFolder = currentFolder.isEmpty ? component : "\(currentFolder)/\(component)"
            let children = newGroups[current] != nil ? [] : (project.objects[current]?["children"]?.strings ?? [])
            if let existing = children.first(where: { project.objects[$0]?["isa"]?.string == "PBXGroup" && project.objects[$0]?["path"]?.string == component }) {
                current = existing
                continue
            }
            if let planned = order.first(where: { newGroups[$0]?.name == component && newGroupParents[$0] == current }) {
                current = planned
                continue
            }
            let id = try freshIdentifier("group", currentFolder)
            newGroups[id] = (component, [])
            newGroupParents[id] = current
            order.append(id)
            if newGroups[current] != nil {
                newGroups[current]?.children.append((id, component))
            } else {
                try appendToArray(of: current, key: "children", line: "\(id) /* \(component) */")
            }
            current = id
        }
        return current
    }

    private mutating func appendToArray(of object: String, key: String, line: String) throws(XcodeProjectError) {
        guard let array = project.objects[object]?[key] else {
            throw .unsupportedLayout(project: project.bundle.lastPathComponent, reason: "the group \(object) has no \(key)")
        }
        try insertIntoArray(array, line: line)
    }

    /// Adds `line` as the last item of an array written one item per line, as Xcode does.
    private mutating func insertIntoArray(_ array: PropertyListNode, line: String) throws(XcodeProjectError) {
        guard array.array != nil, array.range.count >= 2 else {
            throw .unsupportedLayout(project: project.bundle.lastPathComponent, reason: "a list of files or children is not a list")
        }
        let close = array.range.upperBound - 1
        // Xcode ends every item with a comma; a list without one after its last item was
        // written by something else, and an appended line would not parse.
        if let last = array.array?.last, !Self.commaFollows(in: project.bytes, from: last.range.upperBound, before: close) {
            throw .unsupportedLayout(project: project.bundle.lastPathComponent, reason: "a list in project.pbxproj has no comma after its last item, as Xcode writes one")
        }
        let lineStart = (project.bytes[array.range.lowerBound..<close].lastIndex(of: 0x0A) ?? array.range.lowerBound) + 1
        let closingIndent = String(decoding: project.bytes[lineStart..<close], as: UTF8.self)
        if lineStart <= array.range.lowerBound || !closingIndent.allSatisfy({ $0 == "\t" || $0 == " " }) {
            // `()` on one line: open it up as Xcode would write it.
            insertions.append((close, sequence(), "\n\t\t\t\t\(line),\n\t\t\t"))
        } else {
            insertions.append((lineStart, sequence(), "\(closingIndent)\t\(line),\n"))
        }
    }

    /// Inserts an object's text at its sorted place in its section, creating the section
    /// after the last one that sorts before it when the project has none.
    private mutating func insertObject(section: String, id: String, text: String) {
        let bytes = project.bytes
        let begin = Array("/* Begin \(section) section */\n".utf8)
        let end = Array("/* End \(section) section */".utf8)
        if let start = Self.find(begin, in: bytes, from: 0), let stop = Self.find(end, in: bytes, from: start),
            Self.markerName(in: bytes, at: start, prefix: "/* Begin ") == section, Self.markerName(in: bytes, at: stop, prefix: "/* End ") == section,
            !Self.sectionStarts(in: bytes, between: start + begin.count, and: stop)
        {
            var offset = start + begin.count
            while offset < stop {
                let next = (bytes[offset..<stop].firstIndex(of: 0x0A) ?? stop - 1) + 1
                if let lineID = Self.objectID(startingLine: bytes[offset..<next]), lineID > id {
                    insertions.append((offset, id, text))
                    return
                }
                offset = next
            }
            insertions.append((stop, id, text))
            return
        }
        // A new section, after the last section whose name sorts before this one.
        var anchor: Int?
        var search = 0
        while let found = Self.find(Array("/* End ".utf8), in: bytes, from: search) {
            search = found + 7
            // Only an end marker that is a whole line, as Xcode writes it, is an anchor.
            guard let name = Self.markerName(in: bytes, at: found, prefix: "/* End ") else { continue }
            if name < section { anchor = found + "/* End \(name) section */\n".utf8.count }
        }
        let block = "\n/* Begin \(section) section */\n\(text)/* End \(section) section */\n"
        if let anchor {
            insertions.append((anchor, "section " + section, block))
        } else if let objects = Self.find(Array("objects = {\n".utf8), in: bytes, from: 0) {
            insertions.append((objects + 12, "section " + section, String(block.dropFirst())))
        }
    }

    // MARK: Removing

    private mutating func remove(_ files: [String], blockFolder: String) {
        guard !files.isEmpty else { return }
        var removed = Set<String>()
        // Ours: a derived identifier naming a reference whose groups give it that very path.
        let paths = Dictionary(references(under: blockFolder).map { ($0.id, $0.path) }) { first, _ in first }
        for file in files {
            guard let reference = identifiers("file", file).first(where: { paths[$0] == file }) else { continue }
            removed.insert(reference)
            for (id, node) in project.objects where node["isa"]?.string == "PBXBuildFile" && node["fileRef"]?.string == reference {
                removed.insert(id)
            }
        }
        // Our groups, innermost first, when nothing but removed items is left in them.
        let folders = Set(files.map { String($0.split(separator: "/").dropLast().joined(separator: "/")) })
        var candidates = Set<String>()
        for folder in folders {
            var path = folder
            while path.count >= blockFolder.count || blockFolder.hasPrefix(path + "/") {
                candidates.insert(path)
                guard let slash = path.lastIndex(of: "/") else { break }
                path = String(path[..<slash])
            }
        }
        for folder in candidates.sorted(by: { $0.count > $1.count }) {
            guard let id = existingGroup(folder), let group = project.objects[id] else { continue }
            if group["children"]?.strings.allSatisfy({ removed.contains($0) }) ?? true { removed.insert(id) }
        }
        for id in removed { deleteLines(mentioning: id) }
        deleteEmptiedSections(removing: removed)
    }

    /// A section left with no object once `removed` go was one an add created (Xcode
    /// writes no empty section): its lines go, with the blank line the add put before it.
    private mutating func deleteEmptiedSections(removing removed: Set<String>) {
        let bytes = project.bytes
        var search = 0
        while let begin = Self.find(Array("/* Begin ".utf8), in: bytes, from: search) {
            search = begin + 9
            guard let name = Self.markerName(in: bytes, at: begin, prefix: "/* Begin ") else { continue }
            let headerEnd = begin + "/* Begin \(name) section */\n".utf8.count
            // A section with no end marker of its own (a damaged file) is not one of ours:
            // look further.
            guard let close = Self.find(Array("/* End \(name) section */\n".utf8), in: bytes, from: headerEnd),
                Self.markerName(in: bytes, at: close, prefix: "/* End ") == name, !Self.sectionStarts(in: bytes, between: headerEnd, and: close)
            else {
                search = headerEnd
                continue
            }
            search = close
            var offset = headerEnd
            var empty = true
            while offset < close {
                let next = (bytes[offset..<close].firstIndex(of: 0x0A) ?? close - 1) + 1
                if let id = Self.objectID(startingLine: bytes[offset..<next]), !removed.contains(id) {
                    empty = false
                    break
                }
                offset = next
            }
            guard empty, begin > 0, bytes[begin - 1] == 0x0A else { continue }
            var start = begin
            // The blank line before it, when an earlier section ends just above.
            if begin >= 2, bytes[begin - 2] == 0x0A {
                let previousLineStart = (bytes[..<(begin - 2)].lastIndex(of: 0x0A) ?? -1) + 1
                let previous = String(decoding: bytes[previousLineStart..<(begin - 2)], as: UTF8.self)
                if previous.hasPrefix("/* End ") { start = begin - 1 }
            }
            deletions.append(start..<(close + "/* End \(name) section */\n".utf8.count))
        }
    }

    /// Deletes the object definition of `id` (one line, or a group's lines to its `};`)
    /// and every array line that names it.
    private mutating func deleteLines(mentioning id: String) {
        let bytes = project.bytes
        let needle = Array(id.utf8)
        var search = 0
        while let found = Self.find(needle, in: bytes, from: search) {
            search = found + needle.count
            let lineStart = (bytes[..<found].lastIndex(of: 0x0A) ?? -1) + 1
            let leading = bytes[lineStart..<found]
            guard leading.allSatisfy({ $0 == 0x09 || $0 == 0x20 }) else { continue }
            var lineEnd = (bytes[found...].firstIndex(of: 0x0A) ?? bytes.count - 1) + 1
            if leading.count == 2, let node = project.objects[id], node.range.upperBound <= bytes.count, node.range.lowerBound > found {
                lineEnd = (bytes[node.range.upperBound...].firstIndex(of: 0x0A) ?? bytes.count - 1) + 1
            }
            deletions.append(lineStart..<lineEnd)
            search = lineEnd
        }
    }

    // MARK: Text

    /// A key that sorts array lines in the order they were added, before any identifier.
    private func sequence() -> String {
        let number = String(insertions.count)
        return "#" + String(repeating: "0", count: max(0, 8 - number.count)) + number
    }

    /// The text with every deletion and insertion made, from the end backwards so that
    /// earlier offsets stay valid. Pieces inserted at one offset go in their order.
    private func applied() -> [UInt8] {
        var result = project.bytes
        // A group's definition holds lines that are deleted on their own too: merged.
        var merged: [Range<Int>] = []
        for range in deletions.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = merged.last, range.lowerBound <= last.upperBound {
                merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
            } else {
                merged.append(range)
            }
        }
        var edits: [(range: Range<Int>, bytes: [UInt8])] = merged.map { ($0, []) }
        for (offset, pieces) in Dictionary(grouping: insertions, by: \.offset) {
            let text = pieces.sorted { $0.order < $1.order }.map(\.text).joined()
            edits.append((offset..<offset, Array(text.utf8)))
        }
        for edit in edits.sorted(by: { $0.range.lowerBound > $1.range.lowerBound || ($0.range.lowerBound == $1.range.lowerBound && !$0.range.isEmpty) }) {
            result.replaceSubrange(edit.range, with: edit.bytes)
        }
        return result
    }

    /// The section name of a marker line (`/* Begin NAME section */` or `/* End … */`) that
    /// starts at `offset`, holds the whole line and nothing else; nil for anything else.
    static func markerName(in bytes: [UInt8], at offset: Int, prefix: String) -> String? {
        guard offset == 0 || bytes[offset - 1] == 0x0A else { return nil }
        let lineEnd = bytes[offset...].firstIndex(of: 0x0A) ?? bytes.count
        guard lineEnd < bytes.count else { return nil }
        let line = String(decoding: bytes[offset..<lineEnd], as: UTF8.self)
        guard line.hasPrefix(prefix), line.hasSuffix(" section */") else { return nil }
        let name = line.dropFirst(prefix.count).dropLast(" section */".count)
        guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber }) else { return nil }
        return String(name)
    }

    /// Whether the first thing after `start` that is not white space or a comment, before
    /// `end`, is a comma.
    static func commaFollows(in bytes: [UInt8], from start: Int, before end: Int) -> Bool {
        var position = start
        while position < end {
            let byte = bytes[position]
            if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
                position += 1
            } else if byte == UInt8(ascii: "/"), position + 1 < end, bytes[position + 1] == UInt8(ascii: "*") {
                guard let close = find(Array("*/".utf8), in: bytes, from: position + 2), close < end else { return false }
                position = close + 2
            } else {
                return byte == UInt8(ascii: ",")
            }
        }
        return false
    }

    /// Whether another section begins between two offsets: then an end marker found past
    /// it belongs to a later section, not to the one being read.
    static func sectionStarts(in bytes: [UInt8], between start: Int, and stop: Int) -> Bool {
        guard let next = find(Array("/* Begin ".utf8), in: bytes, from: start) else { return false }
        return next < stop
    }

    static func find(_ needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard !needle.isEmpty, start <= bytes.count - needle.count else { return nil }
        var index = start
        let first = needle[0]
        while index <= bytes.count - needle.count {
            guard let candidate = bytes[index...(bytes.count - needle.count)].firstIndex(of: first) else { return nil }
            if bytes[candidate..<candidate + needle.count].elementsEqual(needle) { return candidate }
            index = candidate + 1
        }
        return nil
    }

    /// The identifier an object's first line starts with (two tabs, 24 hex digits).
    static func objectID(startingLine line: ArraySlice<UInt8>) -> String? {
        guard line.count > 26, line[line.startIndex] == 0x09, line[line.startIndex + 1] == 0x09 else { return nil }
        let id = line[(line.startIndex + 2)..<(line.startIndex + 26)]
        guard id.allSatisfy({ PropertyListReader.Parser.hexValue($0) != nil }) else { return nil }
        return String(decoding: id, as: UTF8.self)
    }

    /// A string as Xcode writes it: bare when it is only letters, digits and `_$./`,
    /// else quoted with `\` and `"` escaped.
    static func quoted(_ text: String) -> String {
        let bare = !text.isEmpty && text.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || "_$./".utf8.contains(byte)
        }
        if bare { return text }
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}

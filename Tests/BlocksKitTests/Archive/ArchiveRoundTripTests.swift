import Foundation
import Testing

@testable import BlocksKit

/// Every archive we write must read back through our reader and through the standard
/// tools people will use on it: bsdtar, unzip, and Python's tarfile and zipfile.
@Suite("Archive round trips")
struct ArchiveRoundTripTests {
    /// Full paths expected inside the sample archive, folders with a trailing slash, in
    /// the order the writer must use.
    static let expectedOrder: [String] = [
        "top-tabs/",
        "top-tabs/LICENSE",
        "top-tabs/Pestañas.swift",
        "top-tabs/Sources/",
        "top-tabs/Sources/Empty.swift",
        "top-tabs/Sources/日本/",
        "top-tabs/Sources/日本/タブ.swift",
        "top-tabs/TopTabs.swift",
        "top-tabs/a-b.swift",
        "top-tabs/a/",
        "top-tabs/a/inner.swift",
        "top-tabs/block.json",
    ]

    /// UTF-8 so names print as themselves; UTC so listed dates do not depend on the machine.
    static let utf8Environment = ["LC_ALL": HostTools.utf8Locale, "TZ": "UTC"]

    @Test("our reader gets back exactly what was written", arguments: ArchiveFormat.allCases)
    func readsBack(_ format: ArchiveFormat) throws {
        let scratch = try ArchiveScratch()
        let url = scratch.path("top-tabs-1.0.0.\(format.fileExtension)")
        try Archives.write(ArchiveSamples.entries, format: format, to: url)
        #expect(scratch.listing() == [url.lastPathComponent])

        let fromDisk = try Archives.read(url)
        #expect(fromDisk.topFolder == "top-tabs")
        #expect(fromDisk.files == ArchiveSamples.filesRelativeToTop)

        let bytes = try Data(contentsOf: url)
        #expect(try Archives.sniff(bytes.prefix(8), archiveName: "x") == format)
        let fromMemory = try Archives.read(data: bytes, format: nil, name: "download")
        #expect(fromMemory == fromDisk)
        #expect(try Archives.data(ArchiveSamples.entries, format: format) == bytes)
    }

    @Test("bsdtar lists every entry with fixed modes, owners and dates", arguments: ArchiveFormat.allCases)
    func bsdtarLists(_ format: ArchiveFormat) throws {
        let scratch = try ArchiveScratch()
        let url = scratch.path("sample.\(format.fileExtension)")
        try Archives.write(ArchiveSamples.entries, format: format, to: url)
        let run = try ArchiveTool.run(["bsdtar", "-tvf", url.path], environment: Self.utf8Environment)
        #expect(run.status == 0, "\(run.errors)")
        let lines = run.output.split(separator: "\n").map(String.init)
        #expect(lines.count == Self.expectedOrder.count)
        for (line, expected) in zip(lines, Self.expectedOrder) {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
            #expect(fields.last == expected, "\(line)")
            #expect(fields.first == (expected.hasSuffix("/") ? "drwxr-xr-x" : "-rw-r--r--"), "\(line)")
            // Owner and group print as numbers because the names are empty. The zip's
            // Unix time field holds 0 too; only its MS-DOS field says 1980 (see pythonReads).
            #expect(fields.count > 3 && fields[2] == "0" && fields[3] == "0", "\(line)")
            #expect(line.contains("Jan  1  1970"), "\(line)")
        }
        // And bsdtar extracts identical bytes.
        let extracted = scratch.path("out")
        try FileManager.default.createDirectory(at: extracted, withIntermediateDirectories: true)
        let extract = try ArchiveTool.run(["bsdtar", "-xf", url.path, "-C", extracted.path], environment: Self.utf8Environment)
        #expect(extract.status == 0, "\(extract.errors)")
        for entry in ArchiveSamples.entries {
            let onDisk = try Data(contentsOf: extracted.appendingPathComponent(entry.path))
            #expect(onDisk == entry.data, "\(entry.path)")
        }
    }

    @Test("unzip lists and tests the zip")
    func unzipReads() throws {
        let scratch = try ArchiveScratch()
        let url = scratch.path("sample.zip")
        try Archives.write(ArchiveSamples.entries, format: .zip, to: url)
        let test = try ArchiveTool.run(["unzip", "-t", url.path], environment: Self.utf8Environment)
        #expect(test.status == 0, "\(test.output)\(test.errors)")
        #expect(test.output.contains("No errors detected"))
        let list = try ArchiveTool.run(["unzip", "-Z1", url.path], environment: Self.utf8Environment)
        #expect(list.status == 0, "\(list.errors)")
        #expect(list.output.split(separator: "\n").map(String.init) == Self.expectedOrder)
        let long = try ArchiveTool.run(["unzip", "-l", url.path], environment: Self.utf8Environment)
        #expect(long.status == 0)
        #expect(long.output.contains("Pestañas.swift"))
        #expect(long.output.contains("1970-01-01 00:00"))
        #expect(long.output.contains("12 files"))
    }

    /// Python prints one JSON record per member, in archive order.
    static let pythonDump = #"""
        import json, sys, tarfile, zipfile
        path = sys.argv[1]
        members = []
        if path.endswith(".zip"):
            with zipfile.ZipFile(path) as archive:
                if archive.testzip() is not None:
                    sys.exit("bad CRC")
                for info in archive.infolist():
                    members.append({
                        "name": info.filename, "mode": info.external_attr >> 16,
                        "date": list(info.date_time), "utf8": bool(info.flag_bits & 0x800),
                        "system": info.create_system,
                        "data": "" if info.is_dir() else archive.read(info).hex()})
        else:
            with open(path, "rb") as raw:
                header = raw.read(10)
            with tarfile.open(path, "r:gz") as archive:
                for info in archive.getmembers():
                    members.append({
                        "name": info.name + ("/" if info.isdir() else ""), "mode": info.mode,
                        "type": info.type.decode(), "uid": info.uid, "gid": info.gid,
                        "uname": info.uname, "gname": info.gname, "mtime": info.mtime,
                        "data": "" if info.isdir() else archive.extractfile(info).read().hex()})
            members.append({"gzip_mtime": int.from_bytes(header[4:8], "little")})
        print(json.dumps(members))
        """#

    @Test("Python's tarfile and zipfile read names, modes, owners, dates and bytes", arguments: ArchiveFormat.allCases)
    func pythonReads(_ format: ArchiveFormat) throws {
        let scratch = try ArchiveScratch()
        let url = scratch.path("sample.\(format.fileExtension)")
        try Archives.write(ArchiveSamples.entries, format: format, to: url)
        let run = try ArchiveTool.python(Self.pythonDump, [url.path])
        #expect(run.status == 0, "\(run.errors)")
        guard var records = try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [[String: Any]] else {
            Issue.record("python printed no JSON: \(run.output)")
            return
        }
        if format == .tarGzip {
            #expect(records.last?["gzip_mtime"] as? Int == 0)
            records.removeLast()
        }
        #expect(records.map { $0["name"] as? String ?? "" } == Self.expectedOrder)
        let contents = Dictionary(uniqueKeysWithValues: ArchiveSamples.entries.map { ($0.path, $0.data) })
        for record in records {
            let name = record["name"] as? String ?? ""
            let isFolder = name.hasSuffix("/")
            let data = record["data"] as? String ?? "?"
            #expect(isFolder ? data.isEmpty : data == contents[name]?.hexString, "\(name)")
            switch format {
            case .tarGzip:
                #expect(record["mode"] as? Int == (isFolder ? 0o755 : 0o644), "\(name)")
                #expect(record["type"] as? String == (isFolder ? "5" : "0"), "\(name)")
                #expect(record["uid"] as? Int == 0 && record["gid"] as? Int == 0, "\(name)")
                #expect(record["uname"] as? String == "" && record["gname"] as? String == "", "\(name)")
                #expect(record["mtime"] as? Int == 0, "\(name)")
            case .zip:
                #expect(record["mode"] as? Int == (isFolder ? 0o040755 : 0o100644), "\(name)")
                #expect(record["date"] as? [Int] == [1980, 1, 1, 0, 0, 0], "\(name)")
                #expect(record["system"] as? Int == 3, "\(name)")
                if name.unicodeScalars.contains(where: { !$0.isASCII }) {
                    #expect(record["utf8"] as? Bool == true, "\(name) must carry the UTF-8 flag")
                }
            }
        }
    }
}

extension Data {
    fileprivate var hexString: String { map { String(format: "%02x", $0) }.joined() }
}

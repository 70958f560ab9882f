import Foundation

/// Writes a file so that readers and a killed process only ever see the old bytes or
/// the new ones: a temporary file in the same folder, flushed, then renamed over.
public enum AtomicFile {
    public static func write(_ data: Data, to url: URL) throws {
        let folder = url.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let temporary = folder.appendingPathComponent(".\(url.lastPathComponent).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp")
        guard FileManager.default.createFile(atPath: temporary.path, contents: nil) else {
            throw RegistryError.unreadable(location: folder.path, reason: "cannot create a file there (\(String(cString: strerror(errno))))")
        }
        do {
            let handle = try FileHandle(forWritingTo: temporary)
            defer { try? handle.close() }
            try handle.write(contentsOf: data)
            try handle.synchronize()
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw RegistryError.unreadable(location: url.path, reason: "write failed: \(error.localizedDescription)")
        }
        guard rename(temporary.path, url.path) == 0 else {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(at: temporary)
            throw RegistryError.unreadable(location: url.path, reason: "rename failed: \(reason)")
        }
    }
}

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Finds the root of the user's project: the nearest folder upward that holds
/// `blocks.json`, `blocks.lock`, `Package.swift`, an Xcode project or `.git`.
public enum ProjectLocator {
    static let markers = ["blocks.json", "blocks.lock", "Package.swift", ".git"]

    public static func projectRoot(from start: URL) -> URL {
        var folder = start.standardizedFileURL
        let fileManager = FileManager.default
        // Bounded, and only for absolute paths: a deleted working folder reads as "".
        guard folder.path.hasPrefix("/") else { return folder }
        for _ in 0..<256 {
            for marker in markers where fileManager.fileExists(atPath: folder.appendingPathComponent(marker).path) {
                return folder
            }
            if let names = try? fileManager.contentsOfDirectory(atPath: folder.path),
               names.contains(where: { $0.hasSuffix(".xcodeproj") }) {
                return folder
            }
            let parent = folder.deletingLastPathComponent().standardizedFileURL
            if parent.path == folder.path { break }
            folder = parent
        }
        return start.standardizedFileURL
    }
}

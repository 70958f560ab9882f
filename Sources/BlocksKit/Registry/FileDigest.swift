extension SHA256 {
    /// The digest of a file, read in chunks so large files never sit in memory. Here
    /// rather than in Support/SHA256.swift because an unreadable file is a `RegistryError`.
    public static func hex(fileAt url: URL) throws -> String {
        let context = Digest()
        let failure = FileDescriptorIO.readChunks(of: url.path) { context.update($0) }
        guard failure == 0 else { throw RegistryError.unreadable(location: url.path, reason: String(cString: strerror(failure))) }
        return context.finish()
    }
}

/// `blocks keygen -o DIR`: a new Ed25519 key pair for signing a registry. The secret
/// key goes to `DIR/blocks.key` (mode 0600, never overwritten, never printed); the public
/// key to `DIR/blocks.pub` in minisign's format, and on stdout for pinning.
public enum KeygenCommand: Command {
    public static let spec = CommandSpec(
        name: "keygen",
        abstract: "Make a key pair for signing a registry (blocks build --sign).",
        discussion: """
            Writes blocks.key (the secret key, mode 0600; keep it offline and backed up) and
            blocks.pub (the public key, minisign's format) into the folder. Clients pin the
            public key with 'blocks init --registry URL --key PUBKEY'.
            """,
        options: [outputOption],
        examples: [.init("blocks keygen -o keys", "Write keys/blocks.key and keys/blocks.pub, and print the public key.")])

    static let outputOption = SharedOptions.output(value: "dir", help: "The folder to write blocks.key and blocks.pub into (created if missing).", required: true)

    public static let secretKeyFile = "blocks.key"
    public static let publicKeyFile = "blocks.pub"

    public static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> Int32 {
        guard let out = arguments.value(outputOption) else { throw UsageError.missingOption("-o <dir>", because: "it names the folder to write the key pair into") }
        let folder = context.resolve(out)
        let secretURL = folder.appendingPathComponent(secretKeyFile)
        let publicURL = folder.appendingPathComponent(publicKeyFile)
        for url in [secretURL, publicURL] where PathKind(url.path) != .missing { throw SignatureError.keyExists(path: url.path) }
        let key = try SecretKey.generate()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try AtomicFile.write(key.fileData, to: secretURL, durable: true, mode: 0o600)
        try AtomicFile.write(Data(key.publicKey.fileText.utf8), to: publicURL, durable: true)
        if context.json {
            context.print(
                JSONOutput.encode([
                    "secretKey": .string(secretURL.path), "publicKeyFile": .string(publicURL.path),
                    "publicKey": .string(key.publicKey.base64), "keyID": .string(key.publicKey.id),
                ]))
        } else {
            context.print("Wrote \(secretURL.path) (secret, mode 0600) and \(publicURL.path).")
            context.print("Public key \(key.publicKey.id): \(key.publicKey.base64)")
            context.note("Next: sign a build with 'blocks build -o DIR --sign \(secretURL.path)'; clients pin the key with 'blocks init --registry URL --key \(key.publicKey.base64)'.")
        }
        return 0
    }
}

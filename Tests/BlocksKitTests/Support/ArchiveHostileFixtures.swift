import Foundation

@testable import BlocksKit

/// Crafted hostile archives, made by Python's tarfile and zipfile (and by hand where those
/// refuse to lie), so the reader is tested against bytes it did not write itself.
enum ArchiveHostileFixtures {
    /// Makes the named fixtures (such as `symlink.zip`) in `folder`, or all of them when
    /// `files` is empty.
    static func make(_ files: [String], in folder: URL) throws {
        let run = try ArchiveTool.python(program, [folder.path] + files)
        guard run.status == 0 else {
            throw FixtureError(message: "python3 fixture maker failed (\(run.status)): \(run.errors)")
        }
    }

    struct FixtureError: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }

    /// Every fixture, made once per test process by one Python run (starting Python per
    /// case would cost more than all the reads) and removed when the process exits.
    static func shared() throws -> URL { try sharedFolder.get() }

    private static let sharedFolder: Result<URL, FixtureError> = {
        do {
            try FileManager.default.createDirectory(at: sharedPath, withIntermediateDirectories: true)
            atexit { try? FileManager.default.removeItem(at: ArchiveHostileFixtures.sharedPath) }
            try make([], in: sharedPath)
            return .success(sharedPath)
        } catch {
            return .failure(FixtureError(message: "cannot make the hostile fixtures: \(error)"))
        }
    }()

    private static let sharedPath = FileManager.default.temporaryDirectory
        .appendingPathComponent("blocks-archive-fixtures-\(getpid())-\(UUID().uuidString)")

    /// Uncompressed size of each bomb: 3 GiB of zeros, a few MB compressed.
    static let bombSize: Int64 = 3 * 1024 * 1024 * 1024

    static let program = #"""
        import io, os, struct, sys, tarfile, warnings, zipfile, zlib

        warnings.simplefilter("ignore")  # zipfile warns about the duplicates we make on purpose
        out = sys.argv[1]
        wanted = set(sys.argv[2:])  # empty: make them all

        def want(name):
            return not wanted or name in wanted
        MiB = 1 << 20
        BOMB = 3 * 1024 * MiB

        # ---- tar.gz -------------------------------------------------------------------------

        def member(name, kind=tarfile.REGTYPE, data=b"", link="", mode=0o644):
            info = tarfile.TarInfo(name)
            info.type = kind
            info.mode = mode
            info.linkname = link
            info.size = len(data) if kind == tarfile.REGTYPE else 0
            return (info, data)

        def tar_gz(case, members):
            if not want(case + ".tar.gz"):
                return
            with tarfile.open(os.path.join(out, case + ".tar.gz"), "w:gz", format=tarfile.PAX_FORMAT) as archive:
                for info, data in members:
                    archive.addfile(info, io.BytesIO(data) if info.type == tarfile.REGTYPE else None)

        ok = member("top/ok.swift", data=b"// fine\n")
        tar_gz("absolute", [ok, member("/tmp/blocks-evil.swift", data=b"evil")])
        tar_gz("parent", [member("../blocks-evil.swift", data=b"evil")])
        tar_gz("nested-parent", [ok, member("top/../../blocks-evil.swift", data=b"evil")])
        tar_gz("backslash-parent", [ok, member("top\\..\\..\\blocks-evil.swift", data=b"evil")])
        tar_gz("backslash", [ok, member("top\\inner.swift", data=b"x")])
        tar_gz("symlink", [ok, member("top/link", tarfile.SYMTYPE, link="/etc/passwd", mode=0o777)])
        tar_gz("hardlink", [ok, member("top/hard", tarfile.LNKTYPE, link="/etc/passwd")])
        tar_gz("char-device", [ok, member("top/null", tarfile.CHRTYPE)])
        tar_gz("block-device", [ok, member("top/disk", tarfile.BLKTYPE)])
        tar_gz("fifo", [ok, member("top/pipe", tarfile.FIFOTYPE)])
        tar_gz("duplicate", [ok, member("top/ok.swift", data=b"again")])
        tar_gz("duplicate-case", [ok, member("top/OK.swift", data=b"again")])
        tar_gz("two-tops", [ok, member("other/b.swift", data=b"b")])
        tar_gz("top-level-file", [ok, member("loose.swift", data=b"loose")])
        tar_gz("conflict", [member("top/a", data=b"file"), member("top/a/b.swift", data=b"b")])
        tar_gz("many", [member("top/f%02d.swift" % i, data=b"x") for i in range(20)])
        tar_gz("large", [member("top/f%d.bin" % i, data=bytes(1024)) for i in range(3)])
        tar_gz("empty", [])
        tar_gz("control-char", [ok, member("top/bad\x1b[2Jname.swift", data=b"x")])
        tar_gz("del-char", [ok, member("top/bad\x7fname.swift", data=b"x")])
        tar_gz("c1-char", [ok, member("top/bad\u009bname.swift", data=b"x")])
        # The loose file first: no top folder is known yet when it arrives.
        tar_gz("loose-first", [member("loose.swift", data=b"loose"), ok])

        def truncated_large(case):
            """A header that declares 3 GiB followed by 1000 bytes and no more: refused from the
            header, or libarchive would only say the archive is truncated."""
            if not want(case + ".tar.gz"):
                return
            header = tarfile.TarInfo("top/zeros.bin")
            header.size = BOMB
            header.mode = 0o644
            raw = header.tobuf(format=tarfile.USTAR_FORMAT) + bytes(1000)
            with open(os.path.join(out, case + ".tar.gz"), "wb") as file:
                compressor = zlib.compressobj(9, zlib.DEFLATED, 31)  # 31: a gzip wrapper
                file.write(compressor.compress(raw) + compressor.flush())

        truncated_large("declared-large-truncated")

        # ---- bombs: 3 GiB of zeros without ever holding or writing them ---------------------

        def deflate_with_zeros(before, zero_count, after):
            """A raw deflate stream of before + zeros + after. After a full flush the compressor
            forgets its history, so one compressed MiB of zeros can simply be repeated."""
            assert zero_count % MiB == 0
            compressor = zlib.compressobj(9, zlib.DEFLATED, -15)
            head = compressor.compress(before) + compressor.flush(zlib.Z_FULL_FLUSH)
            block = compressor.compress(bytes(MiB)) + compressor.flush(zlib.Z_FULL_FLUSH)
            again = compressor.compress(bytes(MiB)) + compressor.flush(zlib.Z_FULL_FLUSH)
            assert block == again
            tail = compressor.compress(after) + compressor.flush()
            return head + block * (zero_count // MiB) + tail

        def crc_after_zeros(crc, zero_count):
            """crc32(data + zeros) from crc32(data): CRC32 is affine in its start value, so one
            MiB of zeros is a fixed 32x32 bit matrix, applied once per MiB."""
            base = zlib.crc32(bytes(MiB), 0)
            columns = [zlib.crc32(bytes(MiB), 1 << bit) ^ base for bit in range(32)]
            for _ in range(zero_count // MiB):
                next_crc = base
                for bit in range(32):
                    if crc >> bit & 1:
                        next_crc ^= columns[bit]
                crc = next_crc
            return crc

        def gzip_bomb(case):
            if not want(case + ".tar.gz"):
                return
            header = tarfile.TarInfo("top/zeros.bin")
            header.size = BOMB
            header.mode = 0o644
            before = header.tobuf(format=tarfile.USTAR_FORMAT)
            after = bytes(1024)  # the tar end-of-archive marker
            raw = deflate_with_zeros(before, BOMB, after)
            crc = zlib.crc32(after, crc_after_zeros(zlib.crc32(before), BOMB))
            size = len(before) + BOMB + len(after)
            with open(os.path.join(out, case + ".tar.gz"), "wb") as file:
                file.write(b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff")
                file.write(raw)
                file.write(struct.pack("<II", crc, size & 0xFFFFFFFF))

        def raw_zip(case, name, stored_size, data_crc, compressed):
            """One deflated entry, with the sizes we choose written in both headers."""
            if not want(case + ".zip"):
                return
            name = name.encode()
            dos_date = (0 << 9) | (1 << 5) | 1  # 1980-01-01
            local = struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, 0, 8, 0, dos_date,
                                data_crc, len(compressed), stored_size, len(name), 0) + name
            central = struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 0x031E, 20, 0, 8, 0, dos_date,
                                  data_crc, len(compressed), stored_size, len(name), 0, 0, 0, 0,
                                  0o100644 << 16, 0) + name
            offset = len(local) + len(compressed)
            end = struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, 1, 1, len(central), offset, 0)
            with open(os.path.join(out, case + ".zip"), "wb") as file:
                file.write(local + compressed + central + end)

        gzip_bomb("bomb")
        if want("bomb.zip") or want("bomb-lying.zip"):
            zeros_stream = deflate_with_zeros(b"", BOMB, b"")
            # Honest: the headers say 3 GiB, so the cap trips before any data is read.
            raw_zip("bomb", "top/zeros.bin", BOMB, crc_after_zeros(0, BOMB), zeros_stream)
            # Lying: the headers say 1000 bytes; only counting while streaming catches it.
            raw_zip("bomb-lying", "top/zeros.bin", 1000, zlib.crc32(bytes(1000)), zeros_stream)

        # ---- zip ------------------------------------------------------------------------------

        def entry(name, data=b"", mode=0o100644):
            info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
            info.create_system = 3
            info.external_attr = mode << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            return (info, data)

        def make_zip(case, entries):
            if not want(case + ".zip"):
                return
            with zipfile.ZipFile(os.path.join(out, case + ".zip"), "w") as archive:
                for info, data in entries:
                    archive.writestr(info, data)

        ok = entry("top/ok.swift", b"// fine\n")
        make_zip("absolute", [ok, entry("/tmp/blocks-evil.swift", b"evil")])
        make_zip("drive-letter", [ok, entry("C:\\blocks-evil.swift", b"evil")])
        make_zip("parent", [entry("../blocks-evil.swift", b"evil")])
        make_zip("nested-parent", [ok, entry("top/../../blocks-evil.swift", b"evil")])
        make_zip("backslash-parent", [ok, entry("..\\blocks-evil.swift", b"evil")])
        make_zip("nested-backslash-parent", [ok, entry("top\\..\\..\\blocks-evil.swift", b"evil")])
        make_zip("backslash", [ok, entry("top\\inner.swift", b"x")])
        make_zip("symlink", [ok, entry("top/link", b"/etc/passwd", 0o120777)])
        make_zip("char-device", [ok, entry("top/null", b"", 0o020644)])
        make_zip("fifo", [ok, entry("top/pipe", b"", 0o010644)])
        make_zip("duplicate", [ok, entry("top/ok.swift", b"again")])
        make_zip("duplicate-case", [ok, entry("top/OK.swift", b"again")])
        make_zip("two-tops", [ok, entry("other/b.swift", b"b")])
        make_zip("top-level-file", [ok, entry("loose.swift", b"loose")])
        make_zip("conflict", [entry("top/a", b"file"), entry("top/a/b.swift", b"b")])
        make_zip("many", [entry("top/f%02d.swift" % i, b"x") for i in range(20)])
        make_zip("large", [entry("top/f%d.bin" % i, bytes(1024)) for i in range(3)])
        make_zip("empty", [])
        make_zip("del-char", [ok, entry("top/bad\x7fname.swift", b"x")])
        make_zip("c1-char", [ok, entry("top/bad\u009bname.swift", b"x")])
        make_zip("loose-first", [entry("loose.swift", b"loose"), ok])

        missing = [name for name in wanted if not os.path.exists(os.path.join(out, name))]
        if missing:
            sys.exit("unknown fixtures: " + ", ".join(sorted(missing)))
        """#
}

#!/usr/bin/env python3
"""Writes the hand-made hostile seeds of Fuzz/corpus (the real ones come from
`blocks build`, `blocks add` and `blocks export`; see docs/FUZZING.md). Run from the
repository root; it overwrites only the files named here."""
import gzip, io, json, os, tarfile, zipfile

root = "Fuzz/corpus"

def write(target, name, data):
    with open(os.path.join(root, target, name), "wb") as file:
        file.write(data if isinstance(data, bytes) else data.encode())

# JSON: the corners of the grammar.
write("json", "hostile-deep.json", "[" * 70 + "]" * 70)
write("json", "hostile-surrogates.json", r'["\ud83d\ude00", "\u00e9", "\ud800x", "\\u0000"]')
write("json", "hostile-numbers.json", "[-0, 0.1e1, 1.5e3, 9223372036854775807, 9223372036854775808, 1e308, -1e-320, 12e-1]")
write("json", "hostile-duplicate.json", '{"a": 1, "a": 2}')
write("json", "hostile-bytes.json", b'{"\xc3\xa9": "\xff\xfe", "b": "\x01"}')

manifest = json.load(open("Catalog/top-tabs/block.json"))
def variant(**changes):
    value = dict(manifest)
    value.update(changes)
    return json.dumps(value, indent=2)
write("manifest", "hostile-traversal.json", variant(files=[{"path": "../../outside.swift", "role": "component"}]))
write("manifest", "hostile-escape.json", variant(title={"en": "\u001b]0;owned\u0007", "es": "\u001b[2J"}))
write("manifest", "hostile-types.json", variant(api=[{"name": 1, "type": None}], tags={"en": "x"}, version=100))
write("manifest", "hostile-extra-language.json", variant(title={"en": "T", "es": "T", "fr": 1}))

lock = {"lockVersion": 1, "blocks": {"x": {"registry": "embedded", "version": "1.0.0", "folder": "../outside",
        "createdFolders": ["../outside/emptydir", "/abs"], "files": [{"path": "../outside/victim.txt", "sha256": "00"}]}}}
write("lock", "hostile-traversal.lock", json.dumps(lock, indent=2))
write("lock", "hostile-types.lock", '{"lockVersion": "1", "blocks": {"x": {"files": [{"path": 3}]}}}')

entry = json.load(open("Fuzz/corpus/index/top-tabs-metadata.json"))
def index(*entries, version=1, **extra):
    value = {"schemaVersion": version, "blocks": list(entries)}
    value.update(extra)
    return json.dumps(value, indent=2)
evil = dict(entry, archives={"zip": {"path": "../evil.zip", "sha256": "00", "size": 1}})
write("index", "hostile-archive-path.json", index(evil))
write("index", "hostile-name.json", index(dict(entry, name="../../PWNED-NAME")))
write("index", "hostile-schema.json", index(entry, version=2))
write("index", "hostile-unknown-member.json", index(entry, mirror={"note": [1, {"x": "]"}]}))

def tar(members, compress=True):
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w", format=tarfile.PAX_FORMAT) as archive:
        for name, kind, data in members:
            info = tarfile.TarInfo(name)
            info.mtime = 0
            if kind == "file":
                info.size = len(data)
                archive.addfile(info, io.BytesIO(data))
            elif kind == "dir":
                info.type = tarfile.DIRTYPE
                archive.addfile(info)
            elif kind == "symlink":
                info.type = tarfile.SYMTYPE
                info.linkname = data
                archive.addfile(info)
            elif kind == "hardlink":
                info.type = tarfile.LNKTYPE
                info.linkname = data
                archive.addfile(info)
    # Only the two zero blocks that end a tar, not the padding to a 10 KiB record (no
    # member here ends in a zero block), and gzip without a timestamp, so the seeds are
    # small and the same bytes on every run.
    body = buffer.getvalue().rstrip(b"\0")
    body += b"\0" * (-len(body) % 512 + 1024)
    return gzip.compress(body, mtime=0) if compress else body

def zip_(members, stored=False):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED if stored else zipfile.ZIP_DEFLATED) as archive:
        for name, data in members:
            archive.writestr(zipfile.ZipInfo(name, (1980, 1, 1, 0, 0, 0)), data)
    return buffer.getvalue()

ok = b"let a = 1\n"
# Uncompressed, so that mutations reach the headers and names rather than the deflate stream.
plain = [("top/", "dir", None), ("top/block.json", "file", b'{"name": "top"}\n'), ("top/A.swift", "file", ok),
         ("top/Sub/B.swift", "file", ok)]
write("archive", "plain-block.tar", tar(plain, compress=False))
write("archive", "stored-block.zip", zip_([(name, data) for name, kind, data in plain if kind == "file"], stored=True))
write("archive", "hostile-traversal.tar.gz", tar([("top/ok.swift", "file", ok), ("top/../../evil.swift", "file", ok)]))
write("archive", "hostile-links.tar.gz", tar([("top/link", "symlink", "/etc/passwd"), ("top/hard", "hardlink", "top/link")]))
write("archive", "hostile-loose-first.tar", tar([("loose.swift", "file", ok), ("top/ok.swift", "file", ok)], compress=False))
write("archive", "hostile-case.tar.gz", tar([("top/A.swift", "file", ok), ("top/a.swift", "file", ok), ("top/x", "file", ok), ("top/x/y", "file", ok)]))
write("archive", "hostile-names.zip", zip_([("top/ok.swift", ok), ("top/\x7fdel.swift", ok), ("top\\win.swift", ok), ("/abs.swift", ok)]))
# A header that declares far more than the cap (64 MiB), with its data cut short.
big = tarfile.TarInfo("top/big.swift")
big.size = 1 << 30
write("archive", "hostile-declared-size.tar", big.tobuf(format=tarfile.USTAR_FORMAT) + ok * 10)

# Xcode project files: nesting past the depth limit (64) inside an object, a string
# never closed, a key given twice, and \U escapes that are cut short or name a surrogate.
write("pbxproj", "hostile-deep.pbxproj", "// !$*UTF8*$!\n{\n\tobjects = {\n\t\tA = " + "(" * 70 + ")" * 70 + ";\n\t};\n}\n")
write("pbxproj", "hostile-unterminated.pbxproj", '// !$*UTF8*$!\n{\n\tobjects = {\n\t\tA = {isa = PBXGroup; path = "MyApp; };\n\t};\n}\n')
write("pbxproj", "hostile-duplicate.pbxproj", "// !$*UTF8*$!\n{\n\tobjects = {\n\t\tA = {isa = PBXGroup; path = MyApp; path = Other; };\n\t};\n}\n")
write("pbxproj", "hostile-escape.pbxproj", '// !$*UTF8*$!\n{\n\tname = "\\U00e9\\UZZ";\n\tpath = "\\UD800";\n\tother = "\\U12";\n}\n')

#!/usr/bin/env python3
"""Writes Sources/BlocksKit/Catalog/EmbeddedFiles.swift from Catalog/ and Templates/.

The binary carries the catalog and templates inside it, so a copied binary works
alone. EmbeddedCatalogTests fails when this file is out of date; run
`python3 Scripts/embed-catalog.py` after changing Catalog/ or Templates/.
"""
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "Sources/BlocksKit/Catalog/EmbeddedFiles.swift")


def collect(folder):
    files = {}
    base = os.path.join(ROOT, folder)
    for directory, subfolders, names in os.walk(base):
        subfolders.sort()
        for name in sorted(names):
            if name.startswith("."):
                continue
            path = os.path.join(directory, name)
            relative = os.path.relpath(path, base).replace(os.sep, "/")
            with open(path, encoding="utf-8") as handle:
                files[relative] = handle.read()
    return dict(sorted(files.items()))


def literal(text):
    hashes = "#"
    while ('"' + hashes) in text or ('\\' + hashes) in text:
        hashes += "#"
    # The newline before the closing delimiter is not part of the string.
    return hashes + '"""\n' + text + '\n"""' + hashes


def render(name, files):
    if not files:
        return f"    static let {name}: [String: String] = [:]"
    lines = [f"    static let {name}: [String: String] = ["]
    for path, text in files.items():
        lines.append(f"        {json.dumps(path)}: {literal(text)},")
    lines.append("    ]")
    return "\n".join(lines)


def swift_string(text):
    """A Swift string literal; JSON escapes are not all valid Swift."""
    out = []
    for character in text:
        if character == "\\":
            out.append("\\\\")
        elif character == '"':
            out.append('\\"')
        elif character == "\n":
            out.append("\\n")
        elif character == "\r":
            out.append("\\r")
        elif character == "\t":
            out.append("\\t")
        elif ord(character) < 0x20 or ord(character) == 0x7F:
            out.append("\\u{%x}" % ord(character))
        else:
            out.append(character)
    return '"' + "".join(out) + '"'


def swift_value(value, kind):
    """Renders a manifest field as a Swift literal of the given kind."""
    if kind == "string":
        if not isinstance(value, str):
            raise ValueError(f"expected a string, found {value!r}")
        return swift_string(value)
    if kind == "optional string":
        return "nil" if value is None else swift_value(value, "string")
    if kind == "strings":
        if not isinstance(value, list):
            raise ValueError(f"expected a list, found {value!r}")
        return "[" + ", ".join(swift_value(item, "string") for item in value) + "]"
    if kind in ("string map", "strings map"):
        if not isinstance(value, dict):
            raise ValueError(f"expected an object, found {value!r}")
        if not value:
            return "[:]"
        inner = "string" if kind == "string map" else "strings"
        return "[" + ", ".join(f"{swift_string(key)}: {swift_value(item, inner)}" for key, item in sorted(value.items())) + "]"
    raise ValueError(kind)


MANIFEST_FIELDS = [
    ("name", "string"), ("version", "string"), ("title", "string map"), ("summary", "string map"),
    ("category", "string"), ("platforms", "string map"), ("level", "string"), ("origin", "string"),
    ("tags", "strings map"), ("api", "api"), ("files", "files"), ("authors", "strings"),
    ("license", "string"), ("accessibility", "string map"),
]
FILE_ROLES = {"component", "logic", "demo"}


def render_manifest(path, manifest):
    """One `BlockManifest(...)` call, with the memberwise initializer's labels."""
    arguments = []
    for field, kind in MANIFEST_FIELDS:
        if field not in manifest:
            raise SystemExit(f"{path}: missing field {field!r}")
        value = manifest[field]
        try:
            if kind == "api":
                parameters = [
                    f"APIParameter(name: {swift_value(item['name'], 'string')}, type: {swift_value(item['type'], 'string')}, "
                    f"default: {swift_value(item.get('default'), 'optional string')}, "
                    f"description: {swift_value(item['description'], 'string')})"
                    for item in value
                ]
                text = "[" + ", ".join(parameters) + "]"
            elif kind == "files":
                entries = []
                for item in value:
                    if item["role"] not in FILE_ROLES:
                        raise ValueError(f"unknown role {item['role']!r}")
                    entries.append(f"BlockFile(path: {swift_value(item['path'], 'string')}, role: .{item['role']})")
                text = "[" + ", ".join(entries) + "]"
            else:
                text = swift_value(value, kind)
        except (KeyError, TypeError, ValueError) as problem:
            raise SystemExit(f"{path}: field {field!r}: {problem}")
        arguments.append(f"            {field}: {text}")
    folder = path.split("/")[-2]
    return f"        {swift_string(folder)}: BlockManifest(\n" + ",\n".join(arguments) + "\n        ),"


def render_manifests(files):
    """The embedded manifests as Swift values keyed by folder name, so reading the
    embedded catalog decodes no JSON at start-up."""
    lines = [
        "    /// `Catalog/<name>/block.json` as values, keyed by folder name. EmbeddedCatalogTests",
        "    /// checks that they equal the decoded files.",
        "    static let manifests: [String: BlockManifest] = [",
    ]
    for path in sorted(path for path in files if path.endswith("/block.json") and path.count("/") == 1):
        lines.append(render_manifest("Catalog/" + path, json.loads(files[path])))
    lines.append("    ]")
    return "\n".join(lines)


def main():
    catalog = collect("Catalog")
    # Sorted by folder name, as CatalogSource lists blocks ("pager" before "pager-x").
    manifest_paths = sorted((path for path in catalog if path.endswith("/block.json") and path.count("/") == 1),
                            key=lambda path: path.split("/")[0])
    body = [
        "// Generated by Scripts/embed-catalog.py from Catalog/ and Templates/. Do not edit.",
        "",
        "/// The catalog and templates, compiled into the binary so it needs no files beside it.",
        "enum EmbeddedFiles {",
        render("catalog", catalog),
        "",
        render_manifests(catalog),
        "",
        "    /// The block folders, sorted: what the embedded catalog lists without building `catalog`.",
        "    static let blockNames: [String] = [" + ", ".join(swift_string(path.split("/")[0]) for path in manifest_paths) + "]",
        "",
        render("templates", collect("Templates")),
        "}",
        "",
    ]
    text = "\n".join(body)
    old = open(OUT, encoding="utf-8").read() if os.path.exists(OUT) else None
    if old != text:
        with open(OUT + ".tmp", "w", encoding="utf-8") as handle:
            handle.write(text)
        os.replace(OUT + ".tmp", OUT)
        print("updated", os.path.relpath(OUT, ROOT))
    if "--check" in sys.argv and old != text:
        sys.exit(1)


if __name__ == "__main__":
    main()

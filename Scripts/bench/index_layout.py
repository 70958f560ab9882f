#!/usr/bin/env python3
"""Measures layouts for a split registry index (issue 37): a compact search index,
sharded, beside the per-block metadata files, plus a signed timestamp and a change feed.

    python3 Scripts/bench/index_layout.py                     # 10,000 and 100,000 blocks
    python3 Scripts/bench/index_layout.py --sizes 10000       # quicker
    python3 Scripts/bench/index_layout.py --work /tmp/x --json results.json

What it does, offline (no network) and, but for timings, deterministic:

1. Writes synthetic catalogs with Scripts/bench/make-catalog.py (skipped when a finished
   one is already in --work).
2. Copies the blocks binary (.build/release/blocks, else .build/debug/blocks) to
   /tmp/blocks-measure and runs `build` on the 10,000 catalog (also with --split-index when
   the binary has it, and on ./Catalog for a realism check), to read real index entries,
   code names and metadata files.
3. Derives compact search entries for every size from the catalog's block.json and Swift
   files (an index of 100,000 blocks is over the 64 MB every reader accepts), checking the
   derived code names against the built index.
4. Encodes them several ways (keyed JSON, rows, columns with string tables, columns with an
   epoch dictionary), splits them by several layouts, and prints markdown tables: files,
   bytes raw and gzipped (Python's gzip at -6 and -9, mtime 0), the largest file, what a
   cold `search tabs` fetches, what one added block makes a client fetch again, and a
   json.loads time as a parse-cost proxy. Then digest files, timestamp documents, the
   proposed layout, change-feed pages and a term index.

Nothing here is part of the product; it is a measurement for docs/SCALE.md.
"""
import argparse
import bisect
import datetime
import gc
import gzip
import hashlib
import importlib.util
import json
import os
import platform
import random
import re
import shutil
import statistics
import subprocess
import sys
import time
import unicodedata

sys.dont_write_bytecode = True  # make-catalog.py is imported; leave no __pycache__ behind
HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
GENERATOR = os.path.join(HERE, "make-catalog.py")
BINARY_COPY = "/tmp/blocks-measure"
EPOCH = "1764547200"  # SOURCE_DATE_EPOCH for the builds: 2025-12-01T00:00:00Z
MAX_SIZE = 200_000  # bound on --sizes
PAGE = 2000
FEED_PAGE = 100
PARSE_RUNS = 5
COMMANDS = []  # every external command run, in order, for the record


def run(command, record=None, **kwargs):
    COMMANDS.append(record or " ".join(command))
    done = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kwargs)
    if done.returncode != 0:
        sys.exit(f"{' '.join(command)} failed ({done.returncode}):\n{done.stderr.decode(errors='replace')}")


def gz(data, level):
    return len(gzip.compress(data, compresslevel=level, mtime=0))


def dumps(value):
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True).encode()


def sha(data):
    return hashlib.sha256(data).hexdigest()


# ---------------------------------------------------------------------------------------
# Catalogs and the built registry


def make_catalog(size, work):
    folder = os.path.join(work, f"catalog-{size}")
    done = folder + ".done"
    command = ["python3", os.path.relpath(GENERATOR, REPO), str(size), folder]
    if not os.path.exists(done):
        if os.path.exists(folder):
            shutil.rmtree(folder)
        run([sys.executable, GENERATOR, str(size), folder], record=" ".join(command))
        open(done, "w").close()
    elif not any(folder in line for line in COMMANDS):
        COMMANDS.append(f"# reused {folder}, from: {' '.join(command)}")
    return folder


def binary():
    for kind in ("release", "debug"):
        path = os.path.join(REPO, ".build", kind, "blocks")
        if os.path.exists(path):
            COMMANDS.append(f"cp {path} {BINARY_COPY}")
            shutil.copy2(path, BINARY_COPY)
            return kind
    sys.exit("no .build/release/blocks or .build/debug/blocks; build the package first")


def build_registry(catalog, out, extra=()):
    command = [BINARY_COPY, "build", "--catalog", catalog, "--output", out, *extra]
    record = f"SOURCE_DATE_EPOCH={EPOCH} {' '.join(command)}"
    if not os.path.exists(os.path.join(out, "index.json")):
        if os.path.exists(out):
            shutil.rmtree(out)
        run(command, record=record, env=dict(os.environ, SOURCE_DATE_EPOCH=EPOCH))
    else:
        COMMANDS.append(f"# reused {out}, from: {record}")
    with open(os.path.join(out, "index.json"), "rb") as handle:
        return json.loads(handle.read())


# ---------------------------------------------------------------------------------------
# Code names, the way Sources/BlocksKit/Search/CodeNames.swift reads them


SIMPLE_PUBLIC_TYPE = re.compile(r"\bpublic\s+(?:struct|enum|class|protocol|actor)\s+([A-Za-z_][A-Za-z0-9_]*)")
TOKEN = re.compile(r"(?P<nl>\n)|(?P<end>[{};=])|(?P<id>[@#]?`?[A-Za-z_][A-Za-z0-9_]*`?)")
DECLARATIONS = {"func", "var", "let", "case", "typealias", "associatedtype", "struct", "enum", "class", "protocol", "actor"}
IGNORED = {"self", "Self", "init", "super", "Type", "Protocol"}


def blank_comments_and_strings(source):
    """Comments and string literals turned to spaces (newlines kept), so positions hold.
    Nested block comments and multi-line strings are handled; interpolations are not read."""
    out = list(source)
    i, n, depth = 0, len(source), 0
    while i < n:
        if source.startswith("//", i):
            while i < n and source[i] != "\n":
                out[i] = " "
                i += 1
        elif source.startswith("/*", i):
            depth = 0
            while i < n:
                if source.startswith("/*", i):
                    depth += 1
                    out[i] = out[i + 1] = " "
                    i += 2
                elif source.startswith("*/", i):
                    depth -= 1
                    out[i] = out[i + 1] = " "
                    i += 2
                    if depth == 0:
                        break
                else:
                    if source[i] != "\n":
                        out[i] = " "
                    i += 1
        elif source[i] == '"':
            closing = '"""' if source.startswith('"""', i) else '"'
            start = i
            i += len(closing)
            while i < n and not source.startswith(closing, i):
                i += 2 if source[i] == "\\" else 1
            i = min(n, i + len(closing))
            for k in range(start, i):
                if out[k] != "\n":
                    out[k] = " "
        else:
            i += 1
    return "".join(out)


def code_names(source):
    text = blank_comments_and_strings(source)
    names, public, expects = set(), False, False
    for match in TOKEN.finditer(text):
        if match.group("nl") or match.group("end"):
            public = expects = False
            continue
        token = match.group("id")
        start = match.start()
        word = token.lstrip("@#").strip("`")
        after_dot = start > 0 and text[start - 1] == "."
        declared, expects = expects, False
        capital = word[:1].isupper()
        if not capital and not after_dot and not token.startswith(("@", "#")):
            if word in ("public", "open"):
                public = True
            elif public and word in DECLARATIONS:
                public, expects = False, True
        if (capital or after_dot or declared) and not word.startswith("_") and word not in IGNORED:
            names.add(word)
    return sorted(names)


# ---------------------------------------------------------------------------------------
# Compact entries


def read_catalog(folder):
    """(manifest, code names by the lexer rule, by the simple regex) for every block, by name."""
    blocks = []
    for name in sorted(os.listdir(folder)):
        path = os.path.join(folder, name)
        with open(os.path.join(path, "block.json"), "rb") as handle:
            raw = handle.read()
        manifest = json.loads(raw)
        lexed, simple = set(), set()
        for file in manifest.get("files", []):
            if file.get("role") in ("component", "logic") and file["path"].endswith(".swift"):
                with open(os.path.join(path, file["path"]), encoding="utf-8") as handle:
                    source = handle.read()
                lexed.update(code_names(source))
                simple.update(SIMPLE_PUBLIC_TYPE.findall(source))
        blocks.append((manifest, sorted(lexed), sorted(simple), raw))
    return blocks


COMPACT_FIELDS = ["name", "version", "title", "summary", "tags", "platforms", "level", "category", "codeNames"]


def compact(manifest, names):
    entry = {key: manifest[key] for key in COMPACT_FIELDS[:-1] if key in manifest}
    if names:
        entry["codeNames"] = names
    return entry


def with_digest(entry, digest):
    return dict(entry, metadata=digest)


LANGS = ("en", "es")


def encode_keyed(entries):
    return dumps({"schemaVersion": 3, "blocks": entries})


def row(entry):
    r = [entry["name"], entry["version"]]
    for key in ("title", "summary"):
        r += [entry[key].get(lang, "") for lang in LANGS]
    r += [entry["tags"].get(lang, []) for lang in LANGS]
    r += [entry["platforms"], entry["level"], entry["category"], entry.get("codeNames", [])]
    if "metadata" in entry:
        r += [entry["metadata"]["sha256"], entry["metadata"]["size"]]
    return r


ROW_COLUMNS = ["name", "version", "title.en", "title.es", "summary.en", "summary.es", "tags.en", "tags.es",
               "platforms", "level", "category", "codeNames"]


def encode_rows(entries):
    columns = ROW_COLUMNS + (["metadata.sha256", "metadata.size"] if entries and "metadata" in entries[0] else [])
    return dumps({"schemaVersion": 3, "columns": columns, "rows": [row(e) for e in entries]})


def column_document(entries, words=False):
    """Columns, with every repeated short string (tags, levels, categories, platforms, code
    names) an index into one shared table in first-seen order; with `words`, titles and
    summaries too are lists of indices into a word table (split at spaces, so lossless)."""
    table, seen, vocabulary, known = [], {}, [], {}

    def ref(text):
        if text not in seen:
            seen[text] = len(table)
            table.append(text)
        return seen[text]

    def text(value):
        if not words:
            return value
        out = []
        for word in value.split(" "):
            if word not in known:
                known[word] = len(vocabulary)
                vocabulary.append(word)
            out.append(known[word])
        return out

    columns = {
        "name": [e["name"] for e in entries],
        "version": [e["version"] for e in entries],
        "title": {lang: [text(e["title"].get(lang, "")) for e in entries] for lang in LANGS},
        "summary": {lang: [text(e["summary"].get(lang, "")) for e in entries] for lang in LANGS},
        "tags": {lang: [[ref(t) for t in e["tags"].get(lang, [])] for e in entries] for lang in LANGS},
        "platforms": [[ref(f"{k} {v}") for k, v in sorted(e["platforms"].items())] for e in entries],
        "level": [ref(e["level"]) for e in entries],
        "category": [ref(e["category"]) for e in entries],
        "codeNames": [[ref(n) for n in e.get("codeNames", [])] for e in entries],
    }
    if entries and "metadata" in entries[0]:
        columns["metadata"] = {"sha256": "".join(e["metadata"]["sha256"] for e in entries),
                               "size": [e["metadata"]["size"] for e in entries]}
    document = {"schemaVersion": 3, "strings": table, "columns": columns}
    if words:
        document["words"] = vocabulary
    return document


def encode_columns(entries):
    return dumps(column_document(entries))


def encode_column_words(entries):
    return dumps(column_document(entries, words=True))


def epoch_dictionary(entries):
    """The shared tables of an epoch, built from its entries when it begins: every short
    string (tag, code name, level, category, platform) and every title or summary word
    used at least twice, most used first (ties by first use). Anything else is written inline."""
    strings, words_ = {}, {}
    for e in entries:
        for value in [t for lang in LANGS for t in e["tags"].get(lang, [])] + e.get("codeNames", []) + \
                [e["level"], e["category"]] + [f"{k} {v}" for k, v in e["platforms"].items()] + \
                [text for pair in e.get("api", []) for text in pair]:
            strings[value] = strings.get(value, 0) + 1
        for key in ("title", "summary"):
            for lang in LANGS:
                for word in e[key].get(lang, "").split(" "):
                    words_[word] = words_.get(word, 0) + 1

    def ranked(counts):
        # Ties keep first use in name order (dicts keep insertion order): a rare word's
        # index then grows along the columns, which gzip takes far better than text order.
        order = {k: i for i, k in enumerate(counts)}
        return [k for k, c in sorted(counts.items(), key=lambda kc: (-kc[1], order[kc[0]])) if c > 1]

    return {"schemaVersion": 3, "strings": ranked(strings), "words": ranked(words_)}


def dictionary_document(entries, dictionary, sort_tags=False):
    """Columns whose repeated strings and words are indices into the epoch's dictionary
    (a JSON number) or, when the dictionary lacks them, the text itself (a JSON string);
    names front-coded."""
    strings = dictionary["_strings"] if "_strings" in dictionary else {t: i for i, t in enumerate(dictionary["strings"])}
    words_ = dictionary["_words"] if "_words" in dictionary else {t: i for i, t in enumerate(dictionary["words"])}

    def ref(value):
        return strings.get(value, value)

    def text(value):
        return [words_.get(word, word) for word in value.split(" ")]

    def tags(values):
        return sorted(values) if sort_tags else values

    # Names in order, front-coded: the length of the prefix shared with the name before,
    # then the rest ([0, "badge-carousel-00093", 15, "00365", ...]).
    names, previous = [], ""
    for e in entries:
        shared = len(os.path.commonprefix([previous, e["name"]]))
        names += [shared, e["name"][shared:]]
        previous = e["name"]
    columns = {
        "name": names,
        "version": [e["version"] for e in entries],
        "title": {lang: [text(e["title"].get(lang, "")) for e in entries] for lang in LANGS},
        "summary": {lang: [text(e["summary"].get(lang, "")) for e in entries] for lang in LANGS},
        "tags": {lang: [[ref(t) for t in tags(e["tags"].get(lang, []))] for e in entries] for lang in LANGS},
        "platforms": [[ref(f"{k} {v}") for k, v in sorted(e["platforms"].items())] for e in entries],
        "level": [ref(e["level"]) for e in entries],
        "category": [ref(e["category"]) for e in entries],
        "codeNames": [[ref(n) for n in e.get("codeNames", [])] for e in entries],
    }
    if entries and "api" in entries[0]:
        columns["api"] = [[ref(text) for pair in e["api"] for text in pair] for e in entries]
    if entries and "metadata" in entries[0]:
        columns["metadata"] = {"sha256": "".join(e["metadata"]["sha256"] for e in entries),
                               "size": [e["metadata"]["size"] for e in entries]}
    return {"schemaVersion": 3, "columns": columns}


def prepare_dictionary(entries, sort_tags=False):
    """(encode, extra files): the epoch dictionary is one more file every client fetches."""
    dictionary = epoch_dictionary(entries)
    data = dumps(dictionary)
    dictionary["_strings"] = {t: i for i, t in enumerate(dictionary["strings"])}
    dictionary["_words"] = {t: i for i, t in enumerate(dictionary["words"])}
    return (lambda part: dumps(dictionary_document(part, dictionary, sort_tags))), {"dictionary": data}


def extra_dictionary(extra):
    return json.loads(extra["dictionary"])


def plain(encode):
    return lambda entries: (encode, {})


def column_costs(entries):
    """Bytes per entry of each part of the chosen form (columns + epoch dictionary), each
    part compressed alone: what every field costs."""
    dictionary = epoch_dictionary(entries)
    document = dictionary_document(entries, dictionary)
    parts = {"dictionary.strings": dictionary["strings"], "dictionary.words": dictionary["words"]}
    for key, value in document["columns"].items():
        if isinstance(value, dict):
            for sub, column in value.items():
                parts[f"{key}.{sub}"] = column
        else:
            parts[key] = value
    return {k: {"raw": round(len(dumps(v)) / len(entries), 1), "gz6": round(gz(dumps(v), 6) / len(entries), 1)}
            for k, v in parts.items()}


CHOSEN = "(d) columns + epoch dictionary"
# Every form, measured as one file (the dictionary counted in).
ENCODINGS = {
    "keyed JSON": plain(encode_keyed),
    "rows": plain(encode_rows),
    "columns + string table": plain(encode_columns),
    "columns + string and word tables": plain(encode_column_words),
    CHOSEN: prepare_dictionary,
    CHOSEN + ", tags sorted": lambda entries: prepare_dictionary(entries, sort_tags=True),
}
# The forms measured in every layout.
LAYOUT_ENCODINGS = ["keyed JSON", "rows", "columns + string table", CHOSEN]


# ---------------------------------------------------------------------------------------
# Layouts: each splits name-sorted entries into named shards


def by_key(entries, key):
    shards = {}
    for e in entries:
        shards.setdefault(key(e["name"]), []).append(e)
    return shards


def hash_bucket(name, count):
    return f"{int.from_bytes(hashlib.sha256(name.encode()).digest()[:4], 'big') % count:02x}"


def name_ranges(entries, base, size):
    """Ranges of `size` names each, their first names fixed when the epoch began (`base`),
    so a block added later joins the range its name falls in and no other file changes."""
    starts = base[::size]
    return by_key(entries, lambda n: f"{max(0, bisect.bisect_right(starts, n) - 1):03d}")


LAYOUTS = {
    "(a) one file": lambda es, base: {"all": es},
    "(b1) name prefix, 1 char": lambda es, base: by_key(es, lambda n: n[:1]),
    "(b2) name prefix, 2 chars": lambda es, base: by_key(es, lambda n: n[:2]),
    "(c) pages of 2,000 by name": lambda es, base: {f"{i // PAGE:03d}": es[i:i + PAGE] for i in range(0, len(es), PAGE)},
    "(r2k) name ranges of 2,000, fixed per epoch": lambda es, base: name_ranges(es, base, 2000),
    "(r5k) name ranges of 5,000, fixed per epoch": lambda es, base: name_ranges(es, base, 5000),
    "(r10k) name ranges of 10,000, fixed per epoch": lambda es, base: name_ranges(es, base, 10000),
    "(f16) hash of name, 16": lambda es, base: by_key(es, lambda n: hash_bucket(n, 16)),
    "(f64) hash of name, 64": lambda es, base: by_key(es, lambda n: hash_bucket(n, 64)),
    "(f256) hash of name, 256": lambda es, base: by_key(es, lambda n: hash_bucket(n, 256)),
    "(r500) name ranges of 500, fixed per epoch": lambda es, base: name_ranges(es, base, 500),
}
SEARCH_LAYOUTS = [k for k in LAYOUTS if not k.startswith(("(f256)", "(r500)"))]
CHOSEN_LAYOUT = "(r10k) name ranges of 10,000, fixed per epoch"
CHOSEN_RANGE = 10000
DIGEST_RANGE = "(r500) name ranges of 500, fixed per epoch"
DIGEST_LAYOUTS = [DIGEST_RANGE, "(r5k) name ranges of 5,000, fixed per epoch", CHOSEN_LAYOUT, "(f64) hash of name, 64",
                  "(f256) hash of name, 256"]
ENTRY_LAYOUTS = ["(b1) name prefix, 1 char", "(r2k) name ranges of 2,000, fixed per epoch",
                 "(r5k) name ranges of 5,000, fixed per epoch", CHOSEN_LAYOUT, "(f64) hash of name, 64"]


def split(entries, layout, base=None):
    return LAYOUTS[layout](entries, base if base is not None else [e["name"] for e in entries])


def shard_files(entries, layout, encode, base=None):
    return {key: encode(part) for key, part in sorted(split(entries, layout, base).items())}


def parse_seconds(files):
    """Median of PARSE_RUNS json.loads of every file, with the cycle collector off (it
    otherwise fires at random inside large parses): a proxy for parse cost, no more."""
    times = []
    gc.collect()
    gc.disable()
    try:
        for _ in range(PARSE_RUNS):
            start = time.perf_counter()
            for data in files.values():
                json.loads(data)
            times.append(time.perf_counter() - start)
    finally:
        gc.enable()
    return statistics.median(times)


def layout_files(entries, layout, prepare):
    encode, extra = prepare(entries)
    files = dict(extra)
    files.update(shard_files(entries, layout, encode))
    return files, encode, extra


def measure_layout(entries, layout, prepare, added, with_parse):
    files, encode, extra = layout_files(entries, layout, prepare)
    sizes6 = {k: gz(v, 6) for k, v in files.items()}
    result = {
        "files": len(files),
        "raw": sum(len(v) for v in files.values()),
        "gz6": sum(sizes6.values()),
        "gz9": sum(gz(v, 9) for v in files.values()),
        "largest_gz6": max(sizes6.values()),
        "median_gz6": int(statistics.median(sizes6.values())),
    }
    # One block added upstream within the epoch (same dictionary, same range starts):
    # which files change, and what fetching them again costs.
    after = dict(extra)
    after.update(shard_files(sorted(entries + [added], key=lambda e: e["name"]), layout, encode, [e["name"] for e in entries]))
    changed = [k for k, v in after.items() if files.get(k) != v]
    result["add_changed_files"] = len(changed)
    result["add_refetch_gz6"] = sum(gz(after[k], 6) for k in changed)
    if with_parse:
        result["parse_s"] = parse_seconds(files)
    result["timestamp"] = timestamp_sizes(files, firsts_of(entries, layout))
    return result


# ---------------------------------------------------------------------------------------
# Timestamp and change feed


def digest(data):
    return {"sha256": sha(data), "size": len(data)}


def listing(files, firsts):
    """Files in name order, each by the first name it holds, its SHA-256 and its size."""
    return [dict(digest(files[k]), first=firsts[k]) for k in sorted(firsts, key=firsts.get)]


def firsts_of(entries, layout):
    return {k: part[0]["name"] for k, part in split(entries, layout).items()}


def timestamp_doc(files, firsts, digest_files=None, digest_firsts=None):
    """The timestamp as docs/SCALE.md proposes it (index.json, schemaVersion 3, with the
    empty `blocks` older clients need to reach "upgrade blocks"), placeholder numbers."""
    doc = {
        "schemaVersion": 3, "blocks": [], "snapshot": 1234, "epoch": 7, "expires": "2027-01-04T00:00:00Z",
        "search": listing(files, firsts),
        "feed": {"first": 1201, "last": 1234, "tail": digest(b"tail page")},
    }
    if "dictionary" in files:
        doc["dictionary"] = digest(files["dictionary"])
    if digest_files:
        doc["digests"] = listing(digest_files, digest_firsts)
    return json.dumps(doc, ensure_ascii=False, indent=2, sort_keys=True).encode() + b"\n"


def timestamp_sizes(files, firsts):
    doc = timestamp_doc(files, firsts)
    return {"raw": len(doc), "gz6": gz(doc, 6)}


def feed_page(changes, previous, with_entries):
    items = []
    for number, (entry, meta) in enumerate(changes):
        item = {"snapshot": 1135 + number, "op": "set", "name": entry["name"], "version": entry["version"], "metadata": meta}
        if with_entries:
            item["entry"] = row({k: v for k, v in entry.items() if k != "metadata"})
        items.append(item)
    doc = {"schemaVersion": 3, "epoch": 7, "page": 11, "previous": previous, "changes": items}
    return json.dumps(doc, ensure_ascii=False, indent=2, sort_keys=True).encode() + b"\n"


# ---------------------------------------------------------------------------------------
# Term index: word -> postings (block ordinal, field mask), sharded by the word's first two letters


def fold(text):
    return "".join(c for c in unicodedata.normalize("NFD", text) if not unicodedata.combining(c)).lower()


def words(text):
    return [w for w in re.split(r"[^0-9a-z\u00c0-\uffff]+", fold(text)) if w]


CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])|(?<=[A-Za-z])(?=[0-9])|(?<=[0-9])(?=[A-Za-z])")


def identifier_words(text):
    out = []
    for ident in re.split(r"[^0-9A-Za-z\u00c0-\uffff]+", text):
        if not ident:
            continue
        whole = words(ident)
        out += whole
        parts = words(" ".join(CAMEL.split(ident)))
        if parts != whole:
            out += parts
    return out


FIELD_BITS = {"name": 1, "title": 2, "tags": 4, "category": 8, "summary": 16, "codeNames": 32}
FIELD_WEIGHT = {"name": 300, "title": 120, "tags": 90, "category": 60, "summary": 40, "codeNames": 8}


def field_words(entry):
    return {
        "name": set(words(entry["name"])),
        "title": {w for t in entry["title"].values() for w in words(t)},
        "tags": {w for ts in entry["tags"].values() for t in ts for w in identifier_words(t)},
        "category": set(words(entry["category"])),
        "summary": {w for t in entry["summary"].values() for w in words(t)},
        "codeNames": {w for n in entry.get("codeNames", []) for w in identifier_words(n)},
    }


def term_index(entries):
    postings = {}
    for ordinal, entry in enumerate(entries):
        masks = {}
        for field, found in field_words(entry).items():
            for word in found:
                masks[word] = masks.get(word, 0) | FIELD_BITS[field]
        for word, mask in masks.items():
            postings.setdefault(word, []).append((ordinal, mask))
    shards = {}
    for word in sorted(postings):
        ids, masks, last = [], [], 0
        for ordinal, mask in postings[word]:
            ids.append(ordinal - last)
            masks.append(mask)
            last = ordinal
        value = [ids, masks[0] if len(set(masks)) == 1 else masks]
        shards.setdefault(word[:2], {})[word] = value
    files = {k: dumps({"schemaVersion": 3, "words": v}) for k, v in shards.items()}
    vocabulary = dumps(sorted(postings))
    return files, postings, vocabulary


def search_via_terms(query, entries, files, postings, layout_names):
    """Bytes for one query word through the term index: its term shard, then the epoch
    dictionary and the search shards holding the top 10 matches (exact word and prefix matches in the same term
    shard, ranked by field weight, then name)."""
    word = fold(query)
    shard = files.get(word[:2], b"")
    scores = {}
    for candidate in postings:
        if candidate.startswith(word):
            quality = 1.0 if candidate == word else 0.8
            for ordinal, mask in postings[candidate]:
                score = quality * sum(w for f, w in FIELD_WEIGHT.items() if mask & FIELD_BITS[f])
                scores[ordinal] = max(scores.get(ordinal, 0), score)
    top = sorted(scores, key=lambda o: (-scores[o], entries[o]["name"]))[:10]
    result = {"matches": len(scores), "term_shard_gz6": gz(shard, 6) if shard else 0}
    for layout, (name_to_shard, shard_sizes) in layout_names.items():
        needed = {name_to_shard[entries[o]["name"]] for o in top}
        total = result["term_shard_gz6"] + shard_sizes.get("dictionary", 0) + sum(shard_sizes[s] for s in needed)
        result[layout] = {"shards": len(needed), "gz6": total}
    return result


# ---------------------------------------------------------------------------------------
# Reports


def kb(value):
    return f"{value / 1000:,.1f} kB" if value < 1_000_000 else f"{value / 1_000_000:,.2f} MB"


def table(headers, rows):
    lines = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
    lines += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="10000,100000", help="catalog sizes, comma-separated (default 10000,100000)")
    parser.add_argument("--work", default="/tmp/index-layout", help="where catalogs and registries go (kept for reruns)")
    parser.add_argument("--json", help="also write every figure to this JSON file")
    args = parser.parse_args()
    sizes = sorted({int(s) for s in args.sizes.split(",") if s.strip()})
    if not sizes or any(s < 1 or s > MAX_SIZE for s in sizes):
        sys.exit(f"--sizes: each between 1 and {MAX_SIZE}")
    os.makedirs(args.work, exist_ok=True)
    started = datetime.datetime.now(datetime.timezone.utc)
    report = {"command": " ".join([os.path.relpath(sys.argv[0], REPO) if sys.argv[0].startswith(REPO) else sys.argv[0]] + sys.argv[1:]),
              "date": started.strftime("%Y-%m-%d %H:%M UTC"), "python": platform.python_version(),
              "machine": f"{platform.system()} {platform.machine()}, {os.cpu_count()} cores", "sizes": {}}
    out = []
    kind = binary()
    gen_spec = importlib.util.spec_from_file_location("make_catalog", GENERATOR)
    generator = importlib.util.module_from_spec(gen_spec)
    gen_spec.loader.exec_module(generator)
    report["binary"] = f".build/{kind}/blocks (copied to {BINARY_COPY})"

    # Ground truth: the 10,000 catalog (or the smallest size when 10,000 is not asked for) through `blocks build`.
    truth_size = 10000 if 10000 in sizes else sizes[0]
    truth_catalog = make_catalog(truth_size, args.work)
    index = build_registry(truth_catalog, os.path.join(args.work, f"registry-{truth_size}"))
    index_path = os.path.join(args.work, f"registry-{truth_size}", "index.json")
    by_name = {e["name"]: e for e in index["blocks"]}
    report["built_index"] = {"blocks": len(index["blocks"]), "bytes": os.path.getsize(index_path),
                             "gz6": gz(open(index_path, "rb").read(), 6),
                             "fields": sorted({k for e in index["blocks"] for k in e})}

    # The split index `build --split-index` writes today (schemaVersion 2: 64 shards by
    # name hash, keyed compact entries with their metadata file's hash), when the binary has it.
    help_text = subprocess.run([BINARY_COPY, "build", "--help"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT).stdout
    if b"--split-index" in help_text:
        split_out = os.path.join(args.work, f"registry-{truth_size}-split")
        build_registry(truth_catalog, split_out, ["--split-index"])
        shard_folder = os.path.join(split_out, "index")
        shards = [os.path.join(shard_folder, f) for f in sorted(os.listdir(shard_folder)) if f.endswith(".json")]
        datas = [open(f, "rb").read() for f in shards]
        top = open(os.path.join(split_out, "index.json"), "rb").read()
        report["split_index"] = {"blocks": truth_size, "shards": len(datas), "raw": sum(map(len, datas)),
                                 "gz6": sum(gz(d, 6) for d in datas), "gz9": sum(gz(d, 9) for d in datas),
                                 "largest_gz6": max(gz(d, 6) for d in datas), "index_raw": len(top), "index_gz6": gz(top, 6)}

    # Realism check: the repository's own catalog, built the same way.
    real = build_registry(os.path.join(REPO, "Catalog"), os.path.join(args.work, "registry-repo-catalog"))
    real_rows = [dumps(row(compact(e, e.get("codeNames", [])))) for e in real["blocks"]]
    real_entries = [compact(e, e.get("codeNames", [])) for e in real["blocks"]]
    report["repo_catalog"] = {"blocks": len(real_rows), "row_bytes_mean": int(statistics.mean(len(r) for r in real_rows)),
                              "rows_gz6_per_entry": int(gz(b"\n".join(real_rows), 6) / len(real_rows)),
                              "full_entry_bytes_mean": int(statistics.mean(len(dumps(e)) for e in real["blocks"])),
                              "field_raw_mean": {f: round(statistics.mean(len(dumps(e[f])) for e in real_entries if f in e), 1)
                                                 for f in COMPACT_FIELDS}}

    for size in sizes:
        catalog = make_catalog(size, args.work)
        blocks = read_catalog(catalog)
        entries, digests = [], {}
        agree_lexed = agree_simple = checked = 0
        metadata_overhead = []
        left_out = {"api names and types (left out)": [], "api descriptions, accessibility notes (left out)": []}
        apis = {}
        for manifest, lexed, simple, raw in blocks:
            apis[manifest["name"]] = [[a["name"], a["type"]] for a in manifest.get("api", [])]
            left_out["api names and types (left out)"].append(dumps([[a["name"], a["type"]] for a in manifest.get("api", [])]))
            left_out["api descriptions, accessibility notes (left out)"].append(
                dumps([a.get("description", "") for a in manifest.get("api", [])] + sorted(manifest.get("accessibility", {}).values())))
            built = by_name.get(manifest["name"]) if size == truth_size else None
            if built is not None:
                checked += 1
                agree_lexed += lexed == built.get("codeNames", [])
                agree_simple += simple == built.get("codeNames", [])
                meta_path = os.path.join(args.work, f"registry-{truth_size}", built["metadata"])
                with open(meta_path, "rb") as handle:
                    meta = handle.read()
                digests[manifest["name"]] = digest(meta)
                metadata_overhead.append(len(meta) - len(raw))
                if compact(manifest, lexed) != compact(built, built.get("codeNames", [])):
                    sys.exit(f"compact entry of {manifest['name']} differs between block.json and index.json")
            else:
                # No build at this size: a stand-in digest, as random as a real one.
                digests[manifest["name"]] = {"sha256": sha(raw), "size": len(raw) + 1500}
            entries.append(compact(manifest, lexed))
        entries.sort(key=lambda e: e["name"])
        figures = {"blocks": len(entries)}
        if checked:
            figures["codeNames_agreement"] = {"checked": checked, "lexer_rule": agree_lexed, "simple_regex": agree_simple}
            figures["metadata_minus_block_json_bytes"] = int(statistics.median(metadata_overhead))
        # The block added upstream: the generator's next one, renamed to sort just after the
        # median name, so a layout that shifts later entries shows it.
        _, added_manifest, added_file, added_body = generator.block(size, random.Random(1))
        added = dict(compact(added_manifest, code_names(added_body)), name=entries[len(entries) // 2]["name"] + "-x")
        hashed = [with_digest(e, digests[e["name"]]) for e in entries]
        with_api = [dict(e, api=apis[e["name"]]) for e in entries]
        added_hashed = with_digest(added, {"sha256": "0" * 64, "size": 3000})

        # Per-field byte costs of a keyed compact entry (raw mean, and gzip of the column alone).
        field_costs = {}
        for field in COMPACT_FIELDS + ["metadata"]:
            source = hashed if field == "metadata" else entries
            values = [dumps(e.get(field)) for e in source if field in e]
            column = b"\n".join(values)
            field_costs[field] = {"raw_per_entry": round(len(column) / len(source), 1),
                                  "gz6_per_entry": round(gz(column, 6) / len(source), 1)}
        for label, values in left_out.items():
            column = b"\n".join(values)
            field_costs[label] = {"raw_per_entry": round(len(column) / len(values), 1),
                                  "gz6_per_entry": round(gz(column, 6) / len(values), 1)}
        figures["field_costs"] = field_costs
        figures["column_costs"] = column_costs(entries)

        # Encodings, one file (with the dictionary file where there is one).
        figures["encodings"] = {}
        for name, prepare in ENCODINGS.items():
            for label, source in ((name, entries), (name + " + metadata digests", hashed)):
                files, _, _ = layout_files(source, "(a) one file", prepare)
                figures["encodings"][label] = {"raw": sum(map(len, files.values())), "gz6": sum(gz(v, 6) for v in files.values()),
                                               "gz9": sum(gz(v, 9) for v in files.values()), "parse_s": parse_seconds(files)}

        # The chosen form with the API's parameter names and types, which search matches today.
        figures["api_variant"] = {}
        for layout in ("(a) one file", "(r5k) name ranges of 5,000, fixed per epoch", CHOSEN_LAYOUT):
            files, _, _ = layout_files(with_api, layout, prepare_dictionary)
            figures["api_variant"][layout] = {"gz6": sum(gz(v, 6) for v in files.values()), "gz9": sum(gz(v, 9) for v in files.values())}

        # Layouts, for the main forms without digests, and for the chosen form with them.
        figures["layouts"] = {}
        for name in LAYOUT_ENCODINGS:
            for layout in SEARCH_LAYOUTS:
                figures["layouts"][f"{name} / {layout}"] = measure_layout(entries, layout, ENCODINGS[name], added, with_parse=True)
        for layout in SEARCH_LAYOUTS:
            figures["layouts"][f"{CHOSEN} + metadata digests / {layout}"] = measure_layout(
                hashed, layout, prepare_dictionary, added_hashed, with_parse=False)

        # Digest files: the metadata SHA-256 and size of every block, outside the search index.
        digest_files = {}
        for layout in DIGEST_LAYOUTS:
            files = {k: dumps({"schemaVersion": 3, "metadata": {f"blocks/{e['name']}.json": e["metadata"] for e in part}})
                     for k, part in split(hashed, layout).items()}
            digest_files[layout] = files
            sizes6 = [gz(v, 6) for v in files.values()]
            figures.setdefault("digest_shards", {})[layout] = {
                "files": len(files), "raw": sum(map(len, files.values())), "gz6": sum(sizes6),
                "largest_gz6": max(sizes6), "median_gz6": int(statistics.median(sizes6))}

        # Timestamps (chosen form): every search file listed, and every digest file too where
        # the digests are split the same way.
        figures["timestamps"] = {}
        for layout in SEARCH_LAYOUTS:
            files, _, _ = layout_files(entries, layout, prepare_dictionary)
            firsts = firsts_of(entries, layout)
            doc = timestamp_doc(files, firsts)
            entry = {"shards": len(files), "raw": len(doc), "gz6": gz(doc, 6)}
            if layout in digest_files:
                both = timestamp_doc(files, firsts, digest_files[layout], firsts_of(entries, layout))
                entry.update({"with_digests_raw": len(both), "with_digests_gz6": gz(both, 6)})
            figures["timestamps"][layout] = entry

        # The proposed design: search ranges of 10,000 list the digest files (ranges of 500) of
        # their names, so the timestamp lists only the dictionary and the search ranges.
        encode, extra = prepare_dictionary(entries)
        starts = [e["name"] for e in entries][::CHOSEN_RANGE]
        nested = dict(extra)
        listed = {}
        for key, part in sorted(split(hashed, DIGEST_RANGE).items()):
            owner = f"{max(0, bisect.bisect_right(starts, part[0]['name']) - 1):03d}"
            listed.setdefault(owner, []).append(dict(digest(digest_files[DIGEST_RANGE][key]), first=part[0]["name"]))
        plain_shards = shard_files(entries, CHOSEN_LAYOUT, encode)
        dictionary = extra_dictionary(extra)
        for key, part in sorted(split(entries, CHOSEN_LAYOUT).items()):
            document = dictionary_document(part, dictionary)
            document["digestFiles"] = listed.get(key, [])
            nested[key] = dumps(document)
        stamp = timestamp_doc(nested, firsts_of(entries, CHOSEN_LAYOUT))
        figures["proposed"] = {
            "search_files": len(nested), "search_gz6": sum(gz(v, 6) for v in nested.values()),
            "search_gz9": sum(gz(v, 9) for v in nested.values()),
            "listing_overhead_gz6": sum(gz(v, 6) for v in nested.values()) - sum(gz(v, 6) for v in plain_shards.values()) - gz(extra["dictionary"], 6),
            "digest_files": len(digest_files[DIGEST_RANGE]),
            "digest_file_median_gz6": figures["digest_shards"][DIGEST_RANGE]["median_gz6"],
            "timestamp_raw": len(stamp), "timestamp_gz6": gz(stamp, 6),
        }

        # Change-feed pages of 100 changes: names, versions, metadata digests; and with the compact entry.
        changes = [(e, digests[e["name"]]) for e in entries[:: max(1, len(entries) // FEED_PAGE)][:FEED_PAGE]]
        figures["feed"] = {}
        for label, with_entries in (("name, version, metadata digest", False), ("the same plus the compact entry (row)", True)):
            page = feed_page(changes, digest(b"previous page"), with_entries)
            figures["feed"][label] = {"changes": len(changes), "raw": len(page), "gz6": gz(page, 6)}
        one = feed_page(changes[:1], digest(b"previous page"), True)
        figures["feed"]["one change plus entry"] = {"changes": 1, "raw": len(one), "gz6": gz(one, 6)}

        # Term index.
        term_files, postings, vocabulary = term_index(entries)
        layout_names = {}
        for layout in ENTRY_LAYOUTS:
            files, _, _ = layout_files(entries, layout, prepare_dictionary)
            layout_names[layout] = ({e["name"]: k for k, v in split(entries, layout).items() for e in v},
                                    {k: gz(v, 6) for k, v in files.items()})
        term_sizes = {k: gz(v, 6) for k, v in term_files.items()}
        figures["term_index"] = {
            "files": len(term_files), "words": len(postings), "raw": sum(map(len, term_files.values())),
            "gz6": sum(term_sizes.values()), "largest_gz6": max(term_sizes.values()),
            "vocabulary_raw": len(vocabulary), "vocabulary_gz6": gz(vocabulary, 6),
            "queries": {q: search_via_terms(q, entries, term_files, postings, layout_names) for q in ("tabs", "pestañas")},
        }
        report["sizes"][size] = figures

    report["commands"] = COMMANDS
    print_report(report, out)
    print("\n".join(out))
    if args.json:
        with open(args.json, "w") as handle:
            json.dump(report, handle, indent=2, ensure_ascii=False)


def print_report(report, out):
    out.append(f"# index layout measurement\n\n`{report['command']}`, {report['date']}, Python {report['python']}, "
               f"{report['machine']}, binary {report['binary']}.\n")
    b = report["built_index"]
    out.append(f"Built index ({b['blocks']:,} blocks): {kb(b['bytes'])} raw, {kb(b['gz6'])} gzip -6; entry fields: "
               f"{', '.join(b['fields'])}.\n")
    if "split_index" in report:
        t = report["split_index"]
        out.append(f"`build --split-index` today ({t['blocks']:,} blocks): index.json {kb(t['index_raw'])} raw, {kb(t['index_gz6'])} "
                   f"gzip -6; {t['shards']} shards {kb(t['raw'])} raw, {kb(t['gz6'])} gzip -6, {kb(t['gz9'])} gzip -9, largest "
                   f"{kb(t['largest_gz6'])} gzip -6.\n")
    r = report["repo_catalog"]
    out.append(f"Repository Catalog/ ({r['blocks']} real blocks): compact row {r['row_bytes_mean']} bytes raw on average "
               f"({r['rows_gz6_per_entry']} bytes gzip -6 per entry, all {r['blocks']} rows in one stream), "
               f"full index entry {r['full_entry_bytes_mean']} bytes; mean raw bytes by field: "
               + ", ".join(f"{k} {v:g}" for k, v in r["field_raw_mean"].items()) + ".\n")
    for size, f in report["sizes"].items():
        out.append(f"## {size:,} blocks\n")
        if "codeNames_agreement" in f:
            a = f["codeNames_agreement"]
            out.append(f"codeNames derived from the Swift files against the built index: lexer rule "
                       f"{a['lexer_rule']}/{a['checked']} ({100 * a['lexer_rule'] / a['checked']:.1f}%), simple "
                       f"`public struct|enum|class|protocol|actor Name` regex {a['simple_regex']}/{a['checked']} "
                       f"({100 * a['simple_regex'] / a['checked']:.1f}%). Metadata file minus block.json: median "
                       f"{f['metadata_minus_block_json_bytes']} bytes.\n")
        out.append("Field costs of a compact entry (keyed JSON value, per entry):\n")
        out.append(table(["field", "raw bytes", "gzip -6 bytes (column alone)"],
                         [[k, v["raw_per_entry"], v["gz6_per_entry"]] for k, v in f["field_costs"].items()]) + "\n")
        out.append(f"The chosen form, {CHOSEN}, each part compressed alone (bytes per entry):\n")
        out.append(table(["part", "raw", "gzip -6"], [[k, v["raw"], v["gz6"]] for k, v in f["column_costs"].items()]) + "\n")
        out.append("Forms, as one file (the dictionary file counted in where there is one):\n")
        out.append(table(["form", "raw", "gzip -6", "gzip -9", "json.loads (proxy)"],
                         [[k, kb(v["raw"]), kb(v["gz6"]), kb(v["gz9"]), f"{v['parse_s'] * 1000:.0f} ms"]
                          for k, v in f["encodings"].items()]) + "\n")
        out.append(f"{CHOSEN} with the API's parameter names and types added (search matches them today): "
                   + "; ".join(f"{k}: {kb(v['gz6'])} gzip -6, {kb(v['gz9'])} gzip -9" for k, v in f["api_variant"].items()) + ".\n")
        out.append("Layouts. Without a term index a cold `search tabs` fetches every file: the gzip -6 total. "
                   "\"One add\" is one block added within the epoch: files that change, and their gzip -6 bytes. "
                   "The timestamp lists every file of the layout.\n")
        rows = []
        for k, v in f["layouts"].items():
            parse = f"{v['parse_s'] * 1000:.0f} ms" if "parse_s" in v else "—"
            rows.append([k, v["files"], kb(v["raw"]), kb(v["gz6"]), kb(v["gz9"]), kb(v["largest_gz6"]), kb(v["median_gz6"]),
                         f"{v['add_changed_files']} / {kb(v['add_refetch_gz6'])}", kb(v["timestamp"]["gz6"]), parse])
        out.append(table(["form / layout", "files", "raw", "gzip -6", "gzip -9", "largest -6", "median -6",
                          "one add: files / -6", "timestamp -6", "json.loads (proxy)"], rows) + "\n")
        out.append("Digest files (the metadata SHA-256 and size of every block), by name ranges or hash buckets:\n")
        out.append(table(["layout", "files", "raw", "gzip -6", "largest -6", "median -6"],
                         [[k, v["files"], kb(v["raw"]), kb(v["gz6"]), kb(v["largest_gz6"]), kb(v["median_gz6"])]
                          for k, v in f["digest_shards"].items()]) + "\n")
        out.append("Timestamp documents (index.json, schemaVersion 3), chosen form, pretty JSON; the minisign signature "
                   "beside it is about 400 bytes more:\n")
        out.append(table(["layout", "files listed", "raw", "gzip -6", "with digest files raw", "with digest files -6"],
                         [[k, v["shards"], kb(v["raw"]), kb(v["gz6"]),
                           kb(v["with_digests_raw"]) if "with_digests_raw" in v else "—",
                           kb(v["with_digests_gz6"]) if "with_digests_gz6" in v else "—"] for k, v in f["timestamps"].items()]) + "\n")
        pr = f["proposed"]
        out.append(f"Proposed: dictionary + {CHOSEN_LAYOUT} = {pr['search_files']} search files, {pr['search_gz6']:,} bytes gzip -6 "
                   f"({pr['search_gz9']:,} gzip -9) in all, of which {kb(pr['listing_overhead_gz6'])} list the {pr['digest_files']} digest files (ranges of 500, "
                   f"median {kb(pr['digest_file_median_gz6'])} each); timestamp {kb(pr['timestamp_raw'])} raw, "
                   f"{kb(pr['timestamp_gz6'])} gzip -6.\n")
        out.append("Change-feed pages:\n")
        out.append(table(["page", "changes", "raw", "gzip -6"],
                         [[k, v["changes"], kb(v["raw"]), kb(v["gz6"])] for k, v in f["feed"].items()]) + "\n")
        t = f["term_index"]
        out.append(f"Term index (e), sharded by a word's first two letters: {t['files']} files, {t['words']:,} words, "
                   f"{kb(t['raw'])} raw, {kb(t['gz6'])} gzip -6, largest {kb(t['largest_gz6'])}; the whole vocabulary alone "
                   f"(for typo matching) {kb(t['vocabulary_gz6'])} gzip -6.\n")
        rows = []
        for q, v in t["queries"].items():
            for layout in ENTRY_LAYOUTS:
                rows.append([q, v["matches"], kb(v["term_shard_gz6"]), layout, v[layout]["shards"], kb(v[layout]["gz6"])])
        out.append(table(["query", "blocks matched", "term shard -6", "then dictionary + entries from", "shards for top 10",
                          "total fetched -6"], rows) + "\n")
    out.append("## commands run\n")
    out.append("```\n" + "\n".join(report["commands"]) + "\n```")


if __name__ == "__main__":
    main()

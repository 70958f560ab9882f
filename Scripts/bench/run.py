#!/usr/bin/env python3
"""Benchmarks for blocks, each measured side by side with its anchor in the same run.

Run through `Scripts/benchmark` (which builds the release binary first). Every case is
timed as alternating runs of the blocks command and its anchor, and reports medians and
their ratio, because the machines are noisy. Network traffic stays on 127.0.0.1.
"""
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import json

import nginx

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BLOCKS = os.path.join(ROOT, ".build/release/blocks")
QUICK = "--quick" in sys.argv
MARKDOWN = "--markdown" in sys.argv
# Only the start-up and search rows (search tabs, search over 1,000 and 10,000 blocks).
SEARCH_ONLY = "--search-only" in sys.argv
WORK = tempfile.mkdtemp(prefix="blocks-bench-")
ENV = dict(os.environ, XDG_CACHE_HOME=os.path.join(WORK, "cache"), NO_COLOR="1", SOURCE_DATE_EPOCH="1790000000")
ENV.pop("BLOCKS_REGISTRY", None)
rows = []


def discard(path):
    """Moves a folder out of the way instead of deleting it before a timed run.

    On ext4 without a journal (as on the machines these numbers come from), the kernel
    steps past every inode freed in the last half minute or so, one at a time, each time
    it creates a file. Deleting 30,000 files right before a run that creates 30,000 more
    would time that quirk rather than the tools, and it hits the many-file side of each
    comparison (a registry build against one bsdtar archive) the hardest. Everything
    moved here is deleted once, after the last timed run.
    """
    if os.path.exists(path):
        trash = os.path.join(WORK, "trash")
        os.makedirs(trash, exist_ok=True)
        os.rename(path, os.path.join(trash, str(len(os.listdir(trash)))))


def sh(command, cwd=None, check=True):
    result = subprocess.run(command, shell=isinstance(command, str), cwd=cwd, env=ENV,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if check and result.returncode != 0:
        raise SystemExit(f"benchmark command failed: {command}\n{result.stderr.decode()}")
    return result


def timed(command, cwd=None, prepare=None):
    """Wall time, and CPU time (user + system) of the command and everything it started.

    The CPU time shows what a wall-time ratio hides on a two-core machine: how much of both
    cores each side kept busy. The nginx serving a case is not included on either side.
    """
    if prepare:
        prepare()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    sh(command, cwd=cwd)
    elapsed = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return elapsed, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def peak_memory_kb(command, cwd=None, prepare=None):
    if prepare:
        prepare()
    result = subprocess.run(["/usr/bin/time", "-f", "%M"] + command, cwd=cwd, env=ENV,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    return int(result.stderr.decode().strip().splitlines()[-1])


def compare(name, ours, anchor, anchor_name, runs, goal, cwd=None, prepare=None, absolute_goal=None):
    """Alternates the two commands `runs` times and records medians and the ratios."""
    ours_runs, anchor_runs = [], []
    for _ in range(runs):
        ours_runs.append(timed(ours, cwd, prepare))
        anchor_runs.append(timed(anchor, cwd, prepare))
    ours_median = statistics.median(wall for wall, _ in ours_runs)
    anchor_median = statistics.median(wall for wall, _ in anchor_runs)
    ratio = ours_median / anchor_median if anchor_median else float("inf")
    anchor_cpu = statistics.median(cpu for _, cpu in anchor_runs)
    cpu_ratio = statistics.median(cpu for _, cpu in ours_runs) / anchor_cpu if anchor_cpu else None
    verdict = ratio <= goal if goal else True
    if absolute_goal is not None:
        verdict = verdict and ours_median <= absolute_goal
    rows.append((name, ours_median, anchor_name, anchor_median, ratio, goal, absolute_goal, verdict, runs, cpu_ratio))
    print(f"  {name}: {ours_median * 1000:.1f} ms vs {anchor_name} {anchor_median * 1000:.1f} ms "
          f"= {ratio:.2f}x (CPU {cpu_text(cpu_ratio)})", file=sys.stderr, flush=True)


def mcp_search_median(registry):
    """The median of a warm `search_blocks` call to one `blocks mcp`, from a small client."""
    result = subprocess.run(["python3", os.path.join(ROOT, "Scripts/bench/mcp_client.py"), BLOCKS, registry, "50" if QUICK else "200"],
                            env=ENV, capture_output=True, text=True, check=True)
    return float(result.stdout.strip())


def cpu_text(cpu_ratio):
    return "—" if cpu_ratio is None else f"{cpu_ratio:.2f}×"


def make_project(path):
    discard(path)
    os.makedirs(os.path.join(path, "Sources/App"))
    with open(os.path.join(path, "Package.swift"), "w") as handle:
        handle.write('// swift-tools-version:6.0\nimport PackageDescription\n'
                     'let package = Package(name: "App", platforms: [.iOS(.v18)], targets: [.target(name: "App")])\n')
    with open(os.path.join(path, "Sources/App/App.swift"), "w") as handle:
        handle.write("struct App {}\n")


def write_update_catalog(path, version):
    """50 blocks of three files (component, logic, demo) at 1.0.0 or 1.1.0: 1.1.0 changes
    line 5 of every file, which the user's edit (line 50) leaves alone, so each of the 150
    files is a clean three-way merge."""
    for index in range(50):
        name = f"merge-block-{index:02d}"
        type_name = f"MergeBlock{index:02d}"
        files = [(f"{type_name}.swift", "component"), (f"{type_name}Logic.swift", "logic"), (f"{type_name}Demo.swift", "demo")]
        folder = os.path.join(path, name)
        os.makedirs(folder, exist_ok=True)
        manifest = {
            "name": name, "version": version,
            "title": {"en": f"Merge block {index}", "es": f"Bloque {index}"},
            "summary": {"en": "A block to update.", "es": "Un bloque que actualizar."},
            "category": "tabs", "platforms": {"iOS": "17.0"}, "level": "beginner", "origin": "Original work",
            "tags": {"en": ["tabs"], "es": ["pestañas"]}, "api": [],
            "files": [{"path": file, "role": role} for file, role in files],
            "authors": ["Benchmark Generator"], "license": "MIT",
            "accessibility": {"voiceOver": "Buttons.", "dynamicType": "Scales.", "reduceMotion": "Jumps."},
        }
        with open(os.path.join(folder, "block.json"), "w", encoding="utf-8") as handle:
            json.dump(manifest, handle, ensure_ascii=False, indent=2)
        for number, (file, _) in enumerate(files):
            lines = [f"// {type_name} file {number}, line {n}: {'changed upstream' if n == 5 and version != '1.0.0' else 'as published'}\n"
                     for n in range(80)]
            with open(os.path.join(folder, file), "w", encoding="utf-8") as handle:
                handle.write("".join(lines))


def bench_update(runs):
    """`blocks update` of 50 modified blocks (150 files, each changed on both sides) from a
    local registry, against `git merge-file` run on the same 150 (base, yours, theirs)."""
    catalog = os.path.join(WORK, "update-catalog")
    registry = os.path.join(WORK, "update-registry")
    pristine = os.path.join(WORK, "update-pristine")
    write_update_catalog(catalog, "1.0.0")
    sh([BLOCKS, "build", "--catalog", catalog, "--out", registry])
    make_project(pristine)
    names = sorted(os.listdir(catalog))
    sh([BLOCKS, "-C", pristine, "--registry", registry, "add", *names, "--yes"])
    blocks = os.path.join(pristine, "Sources/App/Blocks")
    triples = os.path.join(WORK, "merge-files")
    os.makedirs(triples)
    count = 0
    for name in names:
        for file in sorted(os.listdir(os.path.join(blocks, name))):
            path = os.path.join(blocks, name, file)
            with open(path, encoding="utf-8") as handle:
                base = handle.read()
            ours = base.replace("line 50: as published", "line 50: my change")
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(ours)
            for side, text in (("base", base), ("ours", ours)):
                with open(os.path.join(triples, f"{count}.{side}"), "w", encoding="utf-8") as handle:
                    handle.write(text)
            count += 1
    shutil.rmtree(catalog)
    write_update_catalog(catalog, "1.1.0")
    sh([BLOCKS, "build", "--catalog", catalog, "--out", registry])
    # theirs: the new version as update sees it, from a throwaway project that adds 1.1.0.
    newest = os.path.join(WORK, "update-newest")
    make_project(newest)
    sh([BLOCKS, "-C", newest, "--registry", registry, "add", *names, "--yes"])
    count = 0
    for name in names:
        for file in sorted(os.listdir(os.path.join(newest, "Sources/App/Blocks", name))):
            shutil.copyfile(os.path.join(newest, "Sources/App/Blocks", name, file), os.path.join(triples, f"{count}.theirs"))
            count += 1
    assert count == 150, count
    project = os.path.join(WORK, "update-project")
    merged = os.path.join(WORK, "merged")

    def fresh():
        discard(project)
        discard(merged)
        shutil.copytree(pristine, project, symlinks=True)
        os.makedirs(merged)
        os.sync()
    # git merge-file -p writes the merge to stdout and exits 0 for a clean merge.
    script = " && ".join(f"git merge-file -p {triples}/{i}.ours {triples}/{i}.base {triples}/{i}.theirs > {merged}/{i}"
                         for i in range(count))
    compare("update 50 modified blocks (local registry)", [BLOCKS, "-C", project, "update"],
            script, "git merge-file x150", runs, 1.0, prepare=fresh)


def main():
    if not os.path.exists(BLOCKS):
        raise SystemExit("build first: swift build -c release --static-swift-stdlib")
    if "--only-update" in sys.argv:
        bench_update(5 if QUICK else 21)
        report()
        shutil.rmtree(WORK, ignore_errors=True)
        return
    if "--only-dependencies" in sys.argv:
        dependencies_case(os.path.join(WORK, "project"), 5 if QUICK else 21)
        report()
        shutil.rmtree(WORK, ignore_errors=True)
        return
    if "--only-signed" in sys.argv:
        catalog = os.path.join(WORK, "catalog-1000")
        sh(["python3", os.path.join(ROOT, "Scripts/bench/make-catalog.py"), "1000", catalog])
        signed_search_case(catalog, 11 if QUICK else 41)
        report()
        shutil.rmtree(WORK, ignore_errors=True)
        return
    floor = os.path.join(WORK, "floor")
    sh(["swiftc", "-O", "-static-stdlib", os.path.join(ROOT, "Scripts/bench/floor.swift"), "-o", floor])
    small = 5 if QUICK else 21
    heavy = 3 if QUICK else 5
    sizes = [1000, 10000] if not QUICK else [1000]

    print("start-up and search", file=sys.stderr)
    compare("search tabs (embedded)", [BLOCKS, "search", "tabs"], [floor], "floor", small, 2.0)
    catalogs = {}
    for size in sizes:
        catalog = os.path.join(WORK, f"catalog-{size}")
        sh(["python3", os.path.join(ROOT, "Scripts/bench/make-catalog.py"), str(size), catalog])
        os.sync()  # the catalog's writeback must not slow the timed runs that follow
        catalogs[size] = catalog
        sh([BLOCKS, "--registry", catalog, "search", "tabs"])  # warm the search index
        compare(f"search {size} blocks", [BLOCKS, "--registry", catalog, "search", "scroling", "tabs", "--limit", "10"],
                ["grep", "-ril", "--include=block.json", "tabs", catalog], "grep -ril", small, None,
                absolute_goal=0.050 if size == 10000 else None)
    if SEARCH_ONLY:
        report()
        shutil.rmtree(WORK, ignore_errors=True)
        return

    print("MCP server", file=sys.stderr)
    for label, registry, goal in [("embedded", "", 0.002)] + [(f"{size} blocks", catalogs[size], 0.030) for size in sizes if size == 10000]:
        median = mcp_search_median(registry)
        rows.append((f"mcp search_blocks, warm ({label})", median, "goal", goal, median / goal, None, goal, median <= goal, 200, None))
        print(f"  mcp search_blocks ({label}): median {median * 1000:.2f} ms", file=sys.stderr, flush=True)

    print("signed registry", file=sys.stderr)
    signed_search_case(catalogs[sizes[0]], small * 2)

    print("add", file=sys.stderr)
    project = os.path.join(WORK, "project")
    compare("add scrolling-strip (fresh project)", [BLOCKS, "-C", project, "add", "scrolling-strip", "--yes"], [floor], "floor",
            small, 3.0, prepare=lambda: make_project(project))

    print("add with dependencies from two registries", file=sys.stderr)
    dependencies_case(project, small)

    print("build", file=sys.stderr)
    big = catalogs[sizes[-1]]
    out = os.path.join(WORK, "public")
    def clean_out():
        discard(out)
    compare(f"build {sizes[-1]} blocks (tar.gz + zip)", [BLOCKS, "build", "--catalog", big, "--out", out],
            ["bsdtar", "-czf", os.path.join(WORK, "tree.tar.gz"), "-C", big, "."], "bsdtar -czf", heavy, 3.0, prepare=clean_out)
    sh([BLOCKS, "build", "--catalog", big, "--out", out])
    os.sync()

    print("update", file=sys.stderr)
    bench_update(heavy if QUICK else small)

    print("registry over nginx", file=sys.stderr)
    server = nginx.Nginx(out, WORK)
    try:
        names = sorted(os.listdir(big))
        first = names[0]
        version = subprocess.run(["python3", "-c", f"import json;print(json.load(open('{big}/{first}/block.json'))['version'])"],
                                 capture_output=True, text=True).stdout.strip()
        archive_url = f"{server.url}/archives/{first}-{version}.tar.gz"
        extract = os.path.join(WORK, "extract")
        def fresh():
            make_project(project)
            discard(ENV["XDG_CACHE_HOME"])
            discard(extract)
            os.makedirs(extract)
        compare("add 1 block over nginx", [BLOCKS, "-C", project, "--registry", server.url, "add", first, "--yes"],
                f"curl -s {archive_url} | tar -xz -C {extract}", "curl | tar -xz", small, 1.5, prepare=fresh)

        fifty = names[:50]
        urls = []
        for name in fifty:
            manifest = os.path.join(big, name, "block.json")
            v = subprocess.run(["python3", "-c", f"import json;print(json.load(open('{manifest}'))['version'])"],
                               capture_output=True, text=True).stdout.strip()
            urls.append(f"{server.url}/archives/{name}-{v}.tar.gz")
        curl_args = " ".join(f"-o {extract}/{i}.tar.gz {u}" for i, u in enumerate(urls))
        # What a user without the tool would do: fetch the 50 archives in parallel, then
        # unpack each one. The goal is against that pair; curl alone is the transfer's floor.
        unpack = " && ".join(f"tar -xzf {extract}/{i}.tar.gz -C {extract}" for i in range(len(urls)))
        compare("add 50 blocks over nginx", [BLOCKS, "-C", project, "--registry", server.url, "add", *fifty, "--yes"],
                f"curl -s --parallel --parallel-max 8 {curl_args} && {unpack}", "curl --parallel + tar -xzf", heavy, 1.2,
                prepare=fresh)
        compare("add 50 blocks over nginx (transfer floor)", [BLOCKS, "-C", project, "--registry", server.url, "add", *fifty, "--yes"],
                f"curl -s --parallel --parallel-max 8 {curl_args}", "curl --parallel", heavy, None, prepare=fresh)

        mirror = os.path.join(WORK, "mirror")
        all_urls = os.path.join(WORK, "urls.txt")
        with open(os.path.join(out, "index.json")) as handle:
            index = json.load(handle)
        with open(all_urls, "w") as handle:
            handle.write(f'url = "{server.url}/index.json"\noutput = "{WORK}/curl-mirror/index.json"\n')
            for entry in index["blocks"]:
                # A mirror is a complete registry: metadata files as well as archives.
                handle.write(f'url = "{server.url}/{entry["metadata"]}"\noutput = "{WORK}/curl-mirror/{entry["metadata"]}"\n')
                for archive in entry["archives"].values():
                    handle.write(f'url = "{server.url}/{archive["path"]}"\noutput = "{WORK}/curl-mirror/{archive["path"]}"\n')
        def clean_mirror():
            discard(mirror)
            discard(os.path.join(WORK, "curl-mirror"))
        compare(f"mirror {sizes[-1]} blocks", [BLOCKS, "mirror", server.url, mirror, "--jobs", "8", "-q"],
                f"curl -s --create-dirs --parallel --parallel-max 8 -K {all_urls}", "curl --parallel", heavy, 1.2, prepare=clean_mirror)
        memory = peak_memory_kb([BLOCKS, "mirror", server.url, mirror, "--jobs", "8", "-q"], prepare=clean_mirror)
        rows.append((f"mirror {sizes[-1]} blocks peak memory", memory / 1024, "goal", 64, memory / 1024 / 64, 1.0, None, memory <= 64 * 1024, 1, None))
        print(f"  mirror peak memory: {memory / 1024:.1f} MiB", file=sys.stderr)
        sh([BLOCKS, "mirror", server.url, mirror, "-q"])
        compare("mirror re-sync, nothing changed", [BLOCKS, "mirror", server.url, mirror, "-q"],
                ["curl", "-s", "-o", "/dev/null", f"{server.url}/index.json"], "curl index.json", small, None, absolute_goal=0.3)
    finally:
        server.stop()

    report()
    shutil.rmtree(WORK, ignore_errors=True)


def signed_search_case(catalog, runs):
    """`search` over nginx of the same registry built signed and unsigned (issue 18):
    the signed side fetches index.json.minisig too and verifies it (Ed25519 over the
    index, the trusted comment, the rollback record) on every run. Goal: at most 1 ms more."""
    keys = os.path.join(WORK, "signing-keys")
    sh([BLOCKS, "keygen", "--out", keys])
    with open(os.path.join(keys, "blocks.pub")) as handle:
        public_key = handle.read().split()[-1]
    served = os.path.join(WORK, "signed-served")
    # The build's clock is now, not ENV's fixed SOURCE_DATE_EPOCH, so the index is current.
    clock = dict(ENV)
    clock.pop("SOURCE_DATE_EPOCH", None)
    subprocess.run([BLOCKS, "build", "--catalog", catalog, "--out", os.path.join(served, "unsigned")], env=clock, check=True, stdout=subprocess.DEVNULL)
    subprocess.run([BLOCKS, "build", "--catalog", catalog, "--out", os.path.join(served, "signed"), "--sign", os.path.join(keys, "blocks.key")],
                   env=clock, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.sync()
    server = nginx.Nginx(served, WORK)
    try:
        unsigned = [BLOCKS, "--registry", f"{server.url}/unsigned", "search", "scroling", "tabs", "--limit", "10"]
        signed = [BLOCKS, "--registry", f"{server.url}/signed", "--key", public_key, "search", "scroling", "tabs", "--limit", "10"]
        sh(unsigned)  # warm both search indexes
        sh(signed)
        compare("search 1000 blocks over nginx, signed", signed, unsigned, "unsigned", runs, None)
        name, ours, _, anchor, *_ = rows[-1]
        extra = ours - anchor
        rows.append(("  signed minus unsigned", extra, "goal", 0.001, extra / 0.001, None, 0.001, extra <= 0.001, runs, None))
        print(f"  verifying adds {extra * 1000:.2f} ms", file=sys.stderr, flush=True)
    finally:
        server.stop()


def dependencies_case(project, runs):
    """`add @team/root`, which needs 10 blocks: 5 more in the private @team registry
    (which answers only with its token) and 5 in the public @pub one, two levels deep,
    against curl --parallel fetching the same 11 metadata files and 11 archives."""
    import json
    token = "bench-token"
    graph = {
        "team": {"root": ["t1", "t2", "t3", "t4", "t5", "@pub/p1", "@pub/p2", "@pub/p3"], "t1": ["@pub/p4"],
                 "t2": [], "t3": [], "t4": [], "t5": []},
        "pub": {"p1": ["p5"], "p2": [], "p3": [], "p4": [], "p5": []},
    }
    servers = {}
    metadata_url, archive_url = {}, {}
    try:
        for registry, blocks in graph.items():
            catalog = os.path.join(WORK, f"dependencies-{registry}")
            discard(catalog)
            for name, needs in blocks.items():
                shutil.copytree(os.path.join(ROOT, "Catalog/pager"), os.path.join(catalog, name))
                manifest_file = os.path.join(catalog, name, "block.json")
                with open(manifest_file) as handle:
                    manifest = json.load(handle)
                manifest["name"] = name
                if needs:
                    manifest["dependencies"] = {"blocks": needs}
                with open(manifest_file, "w") as handle:
                    json.dump(manifest, handle)
            out = os.path.join(WORK, f"dependencies-{registry}-out")
            discard(out)
            sh([BLOCKS, "build", "--catalog", catalog, "--out", out])
            check = f'if ($http_authorization != "Bearer {token}") {{ return 401; }}' if registry == "team" else ""
            servers[registry] = nginx.Nginx(out, WORK, check)
            for name in blocks:
                with open(os.path.join(out, "blocks", f"{name}.json")) as handle:
                    metadata = json.load(handle)
                metadata_url[f"@{registry}/{name}"] = f"{servers[registry].url}/blocks/{name}.json"
                archive_url[f"@{registry}/{name}"] = f"{servers[registry].url}/{next(iter(metadata['archives'].values()))['path']}"
        config = {"registries": {"@pub": servers["pub"].url,
                                 "@team": {"url": servers["team"].url, "headers": {"Authorization": "Bearer ${TEAM_TOKEN}"}}}}
        ENV["TEAM_TOKEN"] = token
        def fresh():
            make_project(project)
            with open(os.path.join(project, "blocks.json"), "w") as handle:
                json.dump(config, handle)
            discard(ENV["XDG_CACHE_HOME"])
        curl = " ".join(f"-o /dev/null {url}" for key in metadata_url for url in (metadata_url[key], archive_url[key]))
        curl_command = f"curl -s --parallel --parallel-max 8 -H 'Authorization: Bearer {token}' {curl}"
        ours = [BLOCKS, "-C", project, "add", "@team/root", "--yes"]
        compare("add 1 block with 10 dependencies, two registries", ours, curl_command, "curl --parallel", runs, 1.5, prepare=fresh)
        ENV["FLOOR_HEADER"] = f"Authorization: Bearer {token}"
        floors = add_floors(graph, metadata_url, archive_url)
        if floors:
            out = os.path.join(WORK, "floor-out")
            def fresh_out():
                fresh()
                discard(out)
                os.makedirs(out)
            (c_floor, swift_floor), rounds = floors
            compare("  the floor in C (same libraries, no checks)", [c_floor, out, *rounds], curl_command, "curl --parallel", runs, None,
                    prepare=fresh_out)
            compare("  the same floor started by Swift", [swift_floor, out, *rounds], curl_command, "curl --parallel", runs, None,
                    prepare=fresh_out)
            compare("  blocks add against the Swift floor", ours, [swift_floor, out, *rounds], "the Swift floor", runs, None,
                    prepare=fresh_out)
    finally:
        ENV.pop("TEAM_TOKEN", None)
        ENV.pop("FLOOR_HEADER", None)
        for server in servers.values():
            server.stop()


def add_floors(graph, metadata_url, archive_url):
    """Builds Scripts/bench/add_floor.c as a C program and, with add_floor.swift, as a
    static Swift one, and returns both with the rounds a resolver at its best would fetch
    for `graph`: each depth level's metadata files alongside the archives of the level
    before (whose versions are known by then), then the last level's archives. None, with
    a note, when there is no C compiler or no libcurl and libarchive headers."""
    source = os.path.join(ROOT, "Scripts/bench/add_floor.c")
    program, swift_program, swift_object = (os.path.join(WORK, name) for name in ["add_floor", "add_floor_swift", "add_floor.o"])
    for command in [["cc", "-O2", source, "-o", program, "-lcurl", "-ldl", "-lpthread"],
                    ["cc", "-O2", "-c", source, "-Dmain=add_floor_main", "-o", swift_object],
                    ["swiftc", "-O", "-static-stdlib", os.path.join(ROOT, "Scripts/bench/add_floor.swift"), swift_object,
                     "-o", swift_program, "-lcurl", "-ldl"]]:
        built = subprocess.run(command, env=ENV, capture_output=True, text=True)
        if built.returncode != 0:
            print(f"  (no floor rows: {command[0]} failed: {built.stderr.strip()[:200]})", file=sys.stderr)
            return None
    def needs(key):
        registry = key.split("/")[0][1:]
        return [need if need.startswith("@") else f"@{registry}/{need}" for need in graph[registry][key.split("/")[1]]]
    levels, seen = [["@team/root"]], {"@team/root"}
    while True:
        following = list(dict.fromkeys(need for key in levels[-1] for need in needs(key) if need not in seen))
        if not following:
            break
        seen.update(following)
        levels.append(following)
    rounds = [[metadata_url[key] for key in level] + [archive_url[key] for key in before]
              for level, before in zip(levels, [[]] + levels)] + [[archive_url[key] for key in levels[-1]]]
    arguments = []
    for number, urls in enumerate(rounds):
        arguments += (["--"] if number else []) + urls
    # A floor that fetched or wrote nothing would make any ratio look good: each must
    # write every block's files (a block has at least its manifest and one source file).
    for binary in [program, swift_program]:
        check = os.path.join(WORK, "floor-check")
        discard(check)
        os.makedirs(check)
        written = subprocess.run([binary, check, *arguments], env=ENV, capture_output=True, text=True)
        files = len(os.listdir(check))
        if written.returncode != 0 or written.stdout.strip() != f"{files} files" or files < 2 * len(seen):
            raise SystemExit(f"{binary} wrote {files} files for {len(seen)} blocks: {written.stdout} {written.stderr}")
    print(f"  the floors fetch {len(rounds)} rounds and write {files} files", file=sys.stderr)
    return (program, swift_program), arguments


def report():
    print()
    if MARKDOWN:
        print("| case | blocks | anchor | anchor time | ratio | goal | met | runs | CPU ratio |")
        print("|---|---|---|---|---|---|---|---|---|")
    for name, ours, anchor_name, anchor, ratio, goal, absolute, verdict, runs, cpu_ratio in rows:
        if "memory" in name:
            ours_text, anchor_text, goal_text = f"{ours:.1f} MiB", f"{anchor} MiB", "≤ 64 MiB"
        else:
            ours_text, anchor_text = f"{ours * 1000:.1f} ms", f"{anchor * 1000:.1f} ms"
            parts = []
            if goal:
                parts.append(f"≤ {goal}×")
            if absolute is not None:
                parts.append(f"≤ {absolute * 1000:.0f} ms")
            goal_text = ", ".join(parts) or "—"
        met = "yes" if verdict else "NO"
        if MARKDOWN:
            anchor_cell = anchor_name.replace("|", "\\|")
            print(f"| {name} | {ours_text} | {anchor_cell} | {anchor_text} | {ratio:.2f}× | {goal_text} | {met} | {runs} | {cpu_text(cpu_ratio)} |")
        else:
            print(f"{name:42} {ours_text:>11}  vs {anchor_name:16} {anchor_text:>11}  {ratio:5.2f}x  goal {goal_text:18} {met:3}  CPU {cpu_text(cpu_ratio)}")


if __name__ == "__main__":
    main()

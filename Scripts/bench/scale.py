#!/usr/bin/env python3
"""A registry of 100,000 blocks built with --split-index, served by nginx on loopback.

    Scripts/benchmark-scale [--blocks N] [--runs R]   (builds the release binary, then runs this)
    python3 Scripts/bench/scale.py [--blocks N] [--runs R]

N is 100,000 and R (the repetitions each timed case's median is of) 5 unless given.
The split index (schemaVersion 3): index.json lists a dictionary, name ranges, digest
files and a change feed, each at index/<sha256>.json with a .gz beside it; search reads
index.json, the dictionary and every range, `add` and `info` of a pinned registry one
digest file; a client one build behind reads index.json and the feed.

Measures, side by side where a user's other tool exists:
- `build --split-index` of the synthetic catalog (`make-catalog.py`): time and peak memory;
  then rebuilds after one block changed, first without the build record (every block read),
  then with it (blocks whose files are unchanged are skipped unread), and with nothing changed;
- the files: index.json, the dictionary, the ranges, the digest files and the feed, raw and
  gzipped (the .gz is what nginx's gzip_static sends);
- a cold `search tabs` (empty cache): time, requests and bytes nginx sent, against `curl`
  fetching index.json, the dictionary and the ranges compressed, in parallel;
- a warm `search tabs`, against `grep` over the dictionary and the ranges on disk;
- peak memory of search (and `search tabs --json`, every match), list (and list --json), info
  and add;
- `mirror` of the registry into an empty folder: time, peak memory, requests and bytes nginx
  sent, against `curl` fetching the same paths, 8 in parallel, and `cp -r` of the registry
  folder; the median of R runs, or 1 run when the first takes over a minute;
- after one block changed upstream: the requests the next search makes and their bytes
  (which one is the feed), then the requests of a second `mirror` into the same folder and
  its peak memory;
- last, the registry signed (`keygen`, then the rebuild with --sign): the requests and peak
  memory of a pinned `info` and `add` (--key) with an empty cache.
Every loop is bounded; traffic stays on 127.0.0.1.
"""
import gzip
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import nginx

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BLOCKS = os.path.join(ROOT, ".build/release/blocks")
if "--help" in sys.argv or "-h" in sys.argv:
    print(__doc__.strip())
    sys.exit(0)
N = int(sys.argv[sys.argv.index("--blocks") + 1]) if "--blocks" in sys.argv else 100000
RUNS = int(sys.argv[sys.argv.index("--runs") + 1]) if "--runs" in sys.argv else 5
WORK = tempfile.mkdtemp(prefix="blocks-scale-")
ENV = dict(os.environ, XDG_CACHE_HOME=os.path.join(WORK, "cache"), NO_COLOR="1", SOURCE_DATE_EPOCH="1790000000")
ENV.pop("BLOCKS_REGISTRY", None)
# Builds keep their record (which blocks they may skip unread) in a cache of their own,
# which the client runs below, each starting from an empty cache, leave alone.
BUILD_ENV = dict(ENV, XDG_CACHE_HOME=os.path.join(WORK, "build-cache"))


def run(command, cwd=None, check=True):
    result = subprocess.run(command, cwd=cwd, env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=1800)
    if check and result.returncode != 0:
        raise SystemExit(f"failed: {' '.join(command)}\n{result.stderr.decode()[-2000:]}")
    return result


def measured(command, cwd=None, env=None):
    """Wall seconds and peak resident memory (MiB), from GNU time."""
    start = time.perf_counter()
    result = subprocess.run(["/usr/bin/time", "-f", "%M"] + command, cwd=cwd, env=env or ENV,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=1800)
    elapsed = time.perf_counter() - start
    if result.returncode != 0:
        raise SystemExit(f"failed: {' '.join(command)}\n{result.stderr.decode()[-2000:]}")
    return elapsed, int(result.stderr.decode().strip().splitlines()[-1]) / 1024


def size_line(name, raw, compressed):
    return f"| {name} | {raw / 1e6:.2f} MB | {compressed / 1e6:.2f} MB |"


def sizes(registry, paths):
    """Raw and gzipped bytes of `paths` together: each file and the .gz beside it."""
    return (sum(os.path.getsize(os.path.join(registry, path)) for path in paths),
            sum(os.path.getsize(os.path.join(registry, path + ".gz")) for path in paths))


def part_kinds(index):
    """Each part's path under index/ and what it is, from index.json."""
    kinds = {index["dictionary"]["path"]: "dictionary", index["feed"]["path"]: "feed"}
    kinds.update({part["path"]: "range" for part in index["ranges"]})
    kinds.update({part["path"]: "digest file" for part in index["digestFiles"]})
    return kinds


def label(path, kinds):
    """What a requested path is: index.json, a part of the index, metadata or an archive."""
    bare = path.split("?")[0].lstrip("/")
    if bare.endswith(".gz") and bare[:-3] in kinds:
        return kinds[bare[:-3]] + ", gzipped"
    if bare in kinds:
        return kinds[bare]
    if bare.startswith("index/"):
        return "a part the new index.json does not list"
    if bare.startswith("blocks/"):
        return "metadata file"
    if bare.startswith("archives/"):
        return "archive"
    return bare


def print_requests(requests, kinds):
    for path, status, sent in requests:
        print(f"- {path} {status} {sent / 1e3:.1f} KB ({label(path, kinds)})")


def request_summary(requests):
    """How many requests of each status, and the bytes nginx sent."""
    statuses = {}
    for _, status, _ in requests:
        statuses[status] = statuses.get(status, 0) + 1
    spelled = ", ".join(f"{count} × {status}" for status, count in sorted(statuses.items()))
    return f"{len(requests)} requests ({spelled}), {sum(item[2] for item in requests) / 1e6:.2f} MB sent by nginx"


def bump_one_block(catalog, position=0):
    """Publishes a new version of a block, as a publisher's next upload would."""
    first = sorted(os.listdir(catalog))[position]
    manifest_path = os.path.join(catalog, first, "block.json")
    with open(manifest_path) as handle:
        manifest = json.load(handle)
    major, minor, patch = manifest["version"].split(".")
    manifest["version"] = f"{major}.{minor}.{int(patch) + 1}"
    with open(manifest_path, "w") as handle:
        json.dump(manifest, handle, indent=2)
    return first


def main():
    catalog = os.path.join(WORK, "catalog")
    registry = os.path.join(WORK, "registry")
    run(["python3", os.path.join(ROOT, "Scripts/bench/make-catalog.py"), str(N), catalog])
    print(f"# {N} blocks, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {os.cpu_count()} cores\n")

    build_seconds, build_memory = measured([BLOCKS, "build", "--catalog", catalog, "--out", registry, "--split-index"], env=BUILD_ENV)
    index = json.load(open(os.path.join(registry, "index.json")))
    assert index["schemaVersion"] == 3, f"index.json has schemaVersion {index['schemaVersion']}, not 3"
    dictionary_path = index["dictionary"]["path"]
    range_paths = sorted({part["path"] for part in index["ranges"]})
    digest_paths = sorted({part["path"] for part in index["digestFiles"]})
    # What a search reads besides index.json, as the client fetches it: each file once.
    search_paths = [dictionary_path] + [path for path in range_paths if path != dictionary_path]
    index_raw = os.path.getsize(os.path.join(registry, "index.json"))
    index_gz = (os.path.getsize(os.path.join(registry, "index.json.gz")) if os.path.exists(os.path.join(registry, "index.json.gz"))
                else len(gzip.compress(open(os.path.join(registry, "index.json"), "rb").read())))
    largest_range = max(range_paths, key=lambda path: os.path.getsize(os.path.join(registry, path + ".gz")))
    print("| file | raw | gzipped |\n|---|---|---|")
    print(size_line(f"index.json (epoch {index['epoch']}: the dictionary, {len(index['ranges'])} ranges, "
                    f"{len(index['digestFiles'])} digest files)", index_raw, index_gz))
    print(size_line("dictionary", *sizes(registry, [dictionary_path])))
    print(size_line(f"{len(range_paths)} ranges, all", *sizes(registry, range_paths)))
    largest_blocks = next(part["blocks"] for part in index["ranges"] if part["path"] == largest_range)
    print(size_line(f"largest range ({largest_blocks} blocks)", *sizes(registry, [largest_range])))
    print(size_line("what a cold search reads: index.json, dictionary, ranges",
                    *[index_size + part for index_size, part in zip((index_raw, index_gz), sizes(registry, search_paths))]))
    print(size_line(f"{len(digest_paths)} digest files, all", *sizes(registry, digest_paths)))
    feed_path = index["feed"]["path"]
    feed_changes = len(json.load(open(os.path.join(registry, feed_path)))["changes"])
    print(size_line(f"feed, as built ({feed_changes} changes)", *sizes(registry, [feed_path])))
    print()

    server = nginx.Nginx(registry, WORK, logged=True)
    project = os.path.join(WORK, "project")
    os.makedirs(os.path.join(project, "Sources/App"))
    with open(os.path.join(project, "Package.swift"), "w") as handle:
        handle.write('// swift-tools-version:6.0\nimport PackageDescription\n'
                     'let package = Package(name: "App", platforms: [.iOS(.v18)], targets: [.target(name: "App")])\n')
    rows = []
    try:
        # Cold: an empty cache each run; curl fetches the very files, compressed, in parallel.
        curl = ["curl", "--silent", "--compressed", "--parallel", "--parallel-max", "8", "-o", "/dev/null"]
        urls = [f"{server.url}/index.json"] + [f"{server.url}/{path}" for path in search_paths]
        curl_command = curl + sum([[url, "-o", "/dev/null"] for url in urls[1:]], [urls[0]])
        cold, curl_times, requests = [], [], []
        # The build above leaves hundreds of megabytes for the kernel to write back; written
        # first, that work does not land in the searches' times.
        os.sync()
        for _ in range(RUNS):
            shutil.rmtree(ENV["XDG_CACHE_HOME"], ignore_errors=True)
            server.requests()
            start = time.perf_counter()
            run([BLOCKS, "search", "tabs", "--registry", server.url], cwd=project)
            cold.append(time.perf_counter() - start)
            requests = server.requests()
            start = time.perf_counter()
            run(curl_command)
            curl_times.append(time.perf_counter() - start)
            server.requests()
        sent = sum(item[2] for item in requests)
        rows.append(("first search tabs, cold cache", statistics.median(cold), "curl, same files", statistics.median(curl_times)))
        print(f"Cold search: {len(requests)} requests, {sent / 1e6:.2f} MB sent by nginx (headers included).")

        warm, grep_times = [], []
        search_files_on_disk = [os.path.join(registry, path) for path in search_paths]
        for _ in range(RUNS):
            start = time.perf_counter()
            run([BLOCKS, "search", "tabs", "--registry", server.url], cwd=project)
            warm.append(time.perf_counter() - start)
            start = time.perf_counter()
            run(["grep", "-c", "tabs"] + search_files_on_disk, check=False)
            grep_times.append(time.perf_counter() - start)
        server.requests()
        rows.append(("search tabs, warm cache", statistics.median(warm), "grep over dictionary + ranges", statistics.median(grep_times)))

        memory = {}
        first_name = sorted(os.listdir(catalog))[1]
        memory["search (warm)"] = measured([BLOCKS, "search", "tabs", "--registry", server.url], cwd=project)[1]
        memory["list"] = measured([BLOCKS, "list", "--registry", server.url], cwd=project)[1]
        memory["list --json"] = measured([BLOCKS, "list", "--json", "--registry", server.url], cwd=project)[1]
        memory["search tabs --json (every match)"] = measured([BLOCKS, "search", "tabs", "--json", "--registry", server.url], cwd=project)[1]
        memory["info"] = measured([BLOCKS, "info", first_name, "--registry", server.url], cwd=project)[1]
        memory["add"] = measured([BLOCKS, "add", first_name, "--registry", server.url], cwd=project)[1]
        shutil.rmtree(ENV["XDG_CACHE_HOME"], ignore_errors=True)
        memory["search (cold)"] = measured([BLOCKS, "search", "tabs", "--registry", server.url], cwd=project)[1]
        server.requests()

        # The mirror from an empty folder; curl fetches the paths it fetched, 8 at a time as its
        # --jobs default, into a folder, --compressed (the two totals of bytes sent compare).
        mirror = os.path.join(WORK, "mirror")
        copy = os.path.join(WORK, "copy")
        mirror_times, mirror_memory, mirror_curl_times, cp_times = [], [], [], []
        for attempt in range(RUNS):
            shutil.rmtree(mirror, ignore_errors=True)
            shutil.rmtree(ENV["XDG_CACHE_HOME"], ignore_errors=True)
            server.requests()
            seconds, peak = measured([BLOCKS, "mirror", server.url, mirror])
            mirror_times.append(seconds)
            mirror_memory.append(peak)
            mirror_requests = server.requests()
            config = os.path.join(WORK, "curl-mirror.txt")
            with open(config, "w") as handle:
                for path, _, _ in mirror_requests:
                    handle.write(f'url = "{server.url}{path}"\noutput = "{copy}{path.split("?")[0]}"\n')
            shutil.rmtree(copy, ignore_errors=True)
            start = time.perf_counter()
            run(["curl", "--silent", "--compressed", "--create-dirs", "--parallel", "--parallel-max", "8", "-K", config])
            mirror_curl_times.append(time.perf_counter() - start)
            curl_requests = server.requests()
            shutil.rmtree(copy, ignore_errors=True)
            start = time.perf_counter()
            run(["cp", "-r", registry, copy])
            cp_times.append(time.perf_counter() - start)
            shutil.rmtree(copy, ignore_errors=True)
            if attempt == 0 and seconds > 60:
                break
        mirror_runs = len(mirror_times)
        rows.append((f"mirror into an empty folder ({'median of ' + str(mirror_runs) + ' runs' if mirror_runs > 1 else '1 run'})",
                     statistics.median(mirror_times), "curl, same paths, 8 in parallel", statistics.median(mirror_curl_times)))
        rows.append(("", statistics.median(mirror_times), "cp -r of the registry folder", statistics.median(cp_times)))
        memory["mirror (empty folder; the most of its runs)"] = max(mirror_memory)
        mirror_files = sum(len(files) for _, _, files in os.walk(mirror))
        registry_files = sum(len(files) for _, _, files in os.walk(registry))
        differences = run(["diff", "-rq", "--exclude=.blocks-mirror", "--exclude=.blocks-mirror.lock", registry, mirror],
                          check=False).stdout.decode().splitlines()
        print(f"Mirror into an empty folder: {request_summary(mirror_requests)} (headers included); "
              f"curl of the same paths: {request_summary(curl_requests)}; "
              f"the mirror holds {mirror_files} files, the registry {registry_files}; "
              f"{'byte for byte the same, its own state aside' if not differences else str(len(differences)) + ' differences, e.g. ' + differences[0]}.")
        # A rebuild after one change without the build record (a build cache emptied), which
        # reads every block; then one with the record that build left, and one with nothing
        # changed. The catalog was written minutes ago: every block is settled.
        bump_one_block(catalog, position=2)
        shutil.rmtree(BUILD_ENV["XDG_CACHE_HOME"], ignore_errors=True)
        unrecorded_seconds, unrecorded_memory = measured([BLOCKS, "build", "--catalog", catalog, "--out", registry, "--split-index"], env=BUILD_ENV)
        # The runs above emptied the cache: a search fills it again, so the client is one build
        # behind when the block changes below.
        run([BLOCKS, "search", "tabs", "--registry", server.url], cwd=project)
        server.requests()

        changed = bump_one_block(catalog)
        rebuild_seconds, rebuild_memory = measured([BLOCKS, "build", "--catalog", catalog, "--out", registry, "--split-index"], env=BUILD_ENV)
        unchanged_seconds, unchanged_memory = measured([BLOCKS, "build", "--catalog", catalog, "--out", registry, "--split-index"], env=BUILD_ENV)
        # nginx's ETag is the mtime's second and the size: make sure the new index.json (and
        # the .gz gzip_static sends in its place) has a new one.
        later = time.time() + 2
        for name in ["index.json", "index.json.gz"]:
            if os.path.exists(os.path.join(registry, name)):
                os.utime(os.path.join(registry, name), (later, later))
        run([BLOCKS, "search", "tabs", "--registry", server.url], cwd=project)
        after = server.requests()
        new_index = json.load(open(os.path.join(registry, "index.json")))
        kinds = part_kinds(new_index)
        new_feed = new_index["feed"]["path"]
        new_feed_changes = len(json.load(open(os.path.join(registry, new_feed)))["changes"])
        new_feed_raw, new_feed_gz = sizes(registry, [new_feed])

        mirror_again_seconds, memory["mirror (after one change)"] = measured([BLOCKS, "mirror", server.url, mirror])
        mirror_after = server.requests()

        # Signed: the same registry rebuilt with --sign (nothing changed but index.json and its
        # signature), then a pinned info and add, each with an empty cache. The signature's time
        # is SOURCE_DATE_EPOCH's, so it expires in ten years rather than 30 days.
        keys = os.path.join(WORK, "keys")
        run([BLOCKS, "keygen", "--output", keys])
        public_key = [line for line in open(os.path.join(keys, "blocks.pub")).read().splitlines() if line.strip()][-1]
        signed_seconds, signed_memory = measured([BLOCKS, "build", "--catalog", catalog, "--out", registry, "--split-index",
                                                  "--sign", os.path.join(keys, "blocks.key"), "--expires", "3650d"], env=BUILD_ENV)
        later = time.time() + 4
        for name in ["index.json", "index.json.gz", "index.json.minisig"]:
            if os.path.exists(os.path.join(registry, name)):
                os.utime(os.path.join(registry, name), (later, later))
        signed_kinds = part_kinds(json.load(open(os.path.join(registry, "index.json"))))
        pinned = {}
        server.requests()
        for command in ["info", "add"]:
            shutil.rmtree(ENV["XDG_CACHE_HOME"], ignore_errors=True)
            peak = measured([BLOCKS, command, changed, "--registry", server.url, "--key", public_key], cwd=project)[1]
            pinned[command] = (peak, server.requests())
            memory[f"{command}, pinned (cold cache)"] = peak
    finally:
        server.stop()

    print(f"After {changed} changed upstream, the next search made {len(after)} requests, "
          f"{sum(item[2] for item in after) / 1e3:.1f} KB sent by nginx (headers included):")
    print_requests(after, kinds)
    feeds = [path for path, _, _ in after if label(path, kinds).startswith("feed")]
    print(f"The feed is request {', '.join(str(after.index(next(item for item in after if item[0] == path)) + 1) for path in feeds) or 'none'}; "
          f"it now holds {new_feed_changes} changes: {new_feed_raw / 1e3:.1f} KB raw, {new_feed_gz / 1e3:.1f} KB gzipped.")
    print(f"\nThen a second mirror into the same folder ({mirror_again_seconds:.1f} s, peak "
          f"{memory['mirror (after one change)']:.0f} MiB) made {len(mirror_after)} requests, "
          f"{sum(item[2] for item in mirror_after) / 1e3:.1f} KB sent by nginx (headers included):")
    print_requests(mirror_after, kinds)
    print(f"\nSigned (rebuild with --sign: {signed_seconds:.1f} s, peak {signed_memory:.0f} MiB), with an empty cache:")
    for command, (peak, requests) in pinned.items():
        print(f"- pinned {command} {changed}: {len(requests)} requests, "
              f"{sum(item[2] for item in requests) / 1e3:.1f} KB sent, peak {peak:.0f} MiB")
        for path, status, sent in requests:
            print(f"  - {path} {status} {sent / 1e3:.1f} KB ({label(path, signed_kinds)})")
    print()
    print("| case | blocks | anchor | anchor | ratio |\n|---|---|---|---|---|")
    for name, ours, anchor_name, anchor in rows:
        print(f"| {name} | {ours * 1000:.0f} ms | {anchor_name} | {anchor * 1000:.0f} ms | {ours / anchor:.2f}x |" if name else
              f"| | | {anchor_name} | {anchor * 1000:.0f} ms | {ours / anchor:.2f}x |")
    print(f"\n| build --split-index | {build_seconds:.1f} s | peak {build_memory:.0f} MiB |")
    print(f"| rebuild after one block changed, no build record (reads every block) | {unrecorded_seconds:.1f} s | peak {unrecorded_memory:.0f} MiB |")
    print(f"| rebuild after one block changed | {rebuild_seconds:.1f} s | peak {rebuild_memory:.0f} MiB |")
    print(f"| rebuild with nothing changed | {unchanged_seconds:.1f} s | peak {unchanged_memory:.0f} MiB |\n")
    print("| command | peak memory |\n|---|---|")
    for name, value in memory.items():
        print(f"| {name} | {value:.0f} MiB |")
    shutil.rmtree(WORK, ignore_errors=True)


if __name__ == "__main__":
    main()

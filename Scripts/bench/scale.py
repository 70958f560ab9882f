#!/usr/bin/env python3
"""A registry of 100,000 blocks built with --split-index, served by nginx on loopback.

    Scripts/benchmark-scale [--blocks N] [--runs R]   (builds the release binary, then runs this)
    python3 Scripts/bench/scale.py [--blocks N] [--runs R]

N is 100,000 and R (the repetitions each timed case's median is of) 5 unless given.
The split index (schemaVersion 3): index.json lists a dictionary, name ranges and digest
files, each at index/<sha256>.json with a .gz beside it; search reads index.json, the
dictionary and every range, `add` and `info` of a pinned registry one digest file.

Measures, side by side where a user's other tool exists:
- `build --split-index` of the synthetic catalog (`make-catalog.py`): time and peak memory;
  then a rebuild after one block changed (the incremental build);
- the files: index.json, the dictionary, the ranges and the digest files, raw and gzipped
  (the .gz is what nginx's gzip_static sends);
- a cold `search tabs` (empty cache): time, requests and bytes nginx sent, against `curl`
  fetching index.json, the dictionary and the ranges compressed, in parallel;
- a warm `search tabs`, against `grep` over the dictionary and the ranges on disk;
- peak memory of search, list, info and add;
- after one block changed upstream: the requests the next search makes and their bytes.
Every loop is bounded; traffic stays on 127.0.0.1.
"""
import gzip
import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time

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


def run(command, cwd=None, check=True):
    result = subprocess.run(command, cwd=cwd, env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=1800)
    if check and result.returncode != 0:
        raise SystemExit(f"failed: {' '.join(command)}\n{result.stderr.decode()[-2000:]}")
    return result


def measured(command, cwd=None):
    """Wall seconds and peak resident memory (MiB), from GNU time."""
    start = time.perf_counter()
    result = subprocess.run(["/usr/bin/time", "-f", "%M"] + command, cwd=cwd, env=ENV,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=1800)
    elapsed = time.perf_counter() - start
    if result.returncode != 0:
        raise SystemExit(f"failed: {' '.join(command)}\n{result.stderr.decode()[-2000:]}")
    return elapsed, int(result.stderr.decode().strip().splitlines()[-1]) / 1024


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Nginx:
    """nginx serving `root` with gzip_static, logging each request's path, status and bytes sent."""

    def __init__(self, root):
        self.folder = tempfile.mkdtemp(prefix="nginx-", dir=WORK)
        self.port = free_port()
        self.log = os.path.join(self.folder, "access.log")
        for temp in ["body", "proxy", "fastcgi", "uwsgi", "scgi"]:
            os.makedirs(os.path.join(self.folder, "temp", temp))
        config = os.path.join(self.folder, "nginx.conf")
        with open(config, "w") as handle:
            handle.write(f"""daemon off; master_process off; worker_processes 1;
pid {self.folder}/nginx.pid; error_log {self.folder}/error.log warn;
events {{ worker_connections 1024; }}
http {{ log_format sent '$request_uri $status $bytes_sent'; access_log {self.log} sent;
  sendfile on; etag on; keepalive_requests 100000; gzip_static on;
  client_body_temp_path {self.folder}/temp/body; proxy_temp_path {self.folder}/temp/proxy;
  fastcgi_temp_path {self.folder}/temp/fastcgi; uwsgi_temp_path {self.folder}/temp/uwsgi;
  scgi_temp_path {self.folder}/temp/scgi;
  server {{ listen 127.0.0.1:{self.port}; root {root}; }} }}
""")
        self.process = subprocess.Popen(["/usr/sbin/nginx", "-p", self.folder, "-e", f"{self.folder}/error.log", "-c", config],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(200):
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", self.port)) == 0:
                    break
            time.sleep(0.02)
        self.url = f"http://127.0.0.1:{self.port}"

    def requests(self):
        """(path, status, bytes sent) of every request since the last call."""
        time.sleep(0.2)
        with open(self.log) as handle:
            lines = handle.read().splitlines()
        open(self.log, "w").close()
        return [(path, status, int(sent)) for path, status, sent in (line.split(" ") for line in lines)]

    def stop(self):
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()


def size_line(name, raw, compressed):
    return f"| {name} | {raw / 1e6:.2f} MB | {compressed / 1e6:.2f} MB |"


def sizes(registry, paths):
    """Raw and gzipped bytes of `paths` together: each file and the .gz beside it."""
    return (sum(os.path.getsize(os.path.join(registry, path)) for path in paths),
            sum(os.path.getsize(os.path.join(registry, path + ".gz")) for path in paths))


def bump_one_block(catalog):
    """Publishes a new version of the first block, as a publisher's next upload would."""
    first = sorted(os.listdir(catalog))[0]
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

    build_seconds, build_memory = measured([BLOCKS, "build", "--catalog", catalog, "--out", registry, "--split-index"])
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
    print()

    server = Nginx(registry)
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
        memory["info"] = measured([BLOCKS, "info", first_name, "--registry", server.url], cwd=project)[1]
        memory["add"] = measured([BLOCKS, "add", first_name, "--registry", server.url], cwd=project)[1]
        shutil.rmtree(ENV["XDG_CACHE_HOME"], ignore_errors=True)
        memory["search (cold)"] = measured([BLOCKS, "search", "tabs", "--registry", server.url], cwd=project)[1]
        server.requests()

        changed = bump_one_block(catalog)
        rebuild_seconds, rebuild_memory = measured([BLOCKS, "build", "--catalog", catalog, "--out", registry, "--split-index"])
        # nginx's ETag is the mtime's second and the size: make sure the new index.json (and
        # the .gz gzip_static sends in its place) has a new one.
        later = time.time() + 2
        for name in ["index.json", "index.json.gz"]:
            if os.path.exists(os.path.join(registry, name)):
                os.utime(os.path.join(registry, name), (later, later))
        run([BLOCKS, "search", "tabs", "--registry", server.url], cwd=project)
        after = server.requests()
    finally:
        server.stop()

    print(f"After {changed} changed upstream, the next search made {len(after)} requests, "
          f"{sum(item[2] for item in after) / 1e3:.1f} KB sent by nginx (headers included):")
    for path, status, sent in after:
        print(f"- {path} {status} {sent / 1e3:.1f} KB")
    print()
    print("| case | blocks | anchor | anchor | ratio |\n|---|---|---|---|---|")
    for name, ours, anchor_name, anchor in rows:
        print(f"| {name} | {ours * 1000:.0f} ms | {anchor_name} | {anchor * 1000:.0f} ms | {ours / anchor:.2f}x |")
    print(f"\n| build --split-index | {build_seconds:.1f} s | peak {build_memory:.0f} MiB |")
    print(f"| rebuild after one block changed | {rebuild_seconds:.1f} s | peak {rebuild_memory:.0f} MiB |\n")
    print("| command | peak memory |\n|---|---|")
    for name, value in memory.items():
        print(f"| {name} | {value:.0f} MiB |")
    shutil.rmtree(WORK, ignore_errors=True)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""The `build --site` goals of issue 21, measured on a synthetic catalog.

    python3 Scripts/bench/site.py [--blocks N] [--runs R] [--build-only]

1. `blocks build` with and without `--site`, alternated R times into fresh folders: the
   site may add at most 50% to the build's time (medians).
2. The index page's search data (the JSON in assets/search-data.js) gzipped: at most
   2 MB for 10,000 blocks.
3. Headless Chromium (through Tests/BlocksKitTests/Support/cdp_driver.py) opens the
   index from file:// three times; the time from navigation start to the script's
   `blocks-first-results` mark, and to the first contentful paint, must be under 200 ms
   (the best load counts; all are printed). It also prints when the search data was ready
   and times one search over every block.

Uses the release binary (`swift build -c release --static-swift-stdlib`). Prints one line
per goal with the numbers and "yes" or "no", and the builds' CPU time (user + system),
steadier than the clock on a shared machine; `--build-only` stops after the first goal.
"""
import gzip
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# BLOCKS_BENCH_BINARY measures another build of blocks (an older commit's, to compare).
BLOCKS = os.environ.get("BLOCKS_BENCH_BINARY") or os.path.join(ROOT, ".build/release/blocks")
DRIVER = os.path.join(ROOT, "Tests/BlocksKitTests/Support/cdp_driver.py")


def argument(name, default):
    return int(sys.argv[sys.argv.index(name) + 1]) if name in sys.argv else default


def main():
    count, runs = argument("--blocks", 10000), argument("--runs", 3)
    if not os.access(BLOCKS, os.X_OK):
        raise SystemExit("build first: swift build -c release --static-swift-stdlib")
    work = tempfile.mkdtemp(prefix="blocks-site-bench-")
    env = dict(os.environ, SOURCE_DATE_EPOCH="1790000000", NO_COLOR="1", XDG_CACHE_HOME=os.path.join(work, "cache"))
    try:
        catalog = os.path.join(work, "catalog")
        subprocess.run([sys.executable, os.path.join(ROOT, "Scripts/bench/make-catalog.py"), str(count), catalog], check=True)
        subprocess.run(["sync"], check=False)
        plain, site = [], []
        # CPU time (user + system) of each build: steadier than the clock on a shared machine.
        plain_cpu, site_cpu = [], []
        for run in range(runs):
            # Fresh folder names each time, deleted only at the end (see docs/BENCHMARKS.md).
            for label, extra, times, cpu in (("plain", [], plain, plain_cpu), ("site", ["--site"], site, site_cpu)):
                out = os.path.join(work, f"{label}-{run}")
                before = os.times()
                start = time.perf_counter()
                subprocess.run([BLOCKS, "build", "--catalog", catalog, "--out", out] + extra, env=env, check=True,
                               stdout=subprocess.DEVNULL)
                times.append(time.perf_counter() - start)
                after = os.times()
                cpu.append(after.children_user - before.children_user + after.children_system - before.children_system)
        plain_median, site_median = statistics.median(plain), statistics.median(site)
        added = site_median / plain_median - 1
        print(f"build {count} blocks: {plain_median:.2f} s, with --site {site_median:.2f} s: +{added * 100:.0f}% "
              f"(goal <= +50%): {'yes' if added <= 0.5 else 'no'}  runs {[round(t, 2) for t in plain]} / {[round(t, 2) for t in site]}")
        plain_cpu_median, site_cpu_median = statistics.median(plain_cpu), statistics.median(site_cpu)
        print(f"CPU time (user + system): {plain_cpu_median:.2f} s, with --site {site_cpu_median:.2f} s: "
              f"+{(site_cpu_median / plain_cpu_median - 1) * 100:.0f}%  runs {[round(t, 2) for t in plain_cpu]} / {[round(t, 2) for t in site_cpu]}")
        print(f"load average at the end: {' '.join(f'{value:.2f}' for value in os.getloadavg())}")
        if "--build-only" in sys.argv:
            return

        index_path = os.path.join(work, "site-0", "index.html")
        with open(index_path, "rb") as handle:
            page = handle.read()
        with open(os.path.join(work, "site-0", "assets", "search-data.js"), "rb") as handle:
            data = re.match(rb"window.blocksSearchData = (.*);\n$", handle.read(), re.S).group(1)
        packed = len(gzip.compress(data, 9))
        print(f"search data for {count} blocks: {len(data) / 1e6:.2f} MB, gzipped {packed / 1e6:.2f} MB (goal <= 2 MB): "
              f"{'yes' if packed <= 2_000_000 else 'no'}; index.html {len(page) / 1e6:.2f} MB, gzipped {len(gzip.compress(page, 9)) / 1e6:.2f} MB")

        url = "file://" + index_path
        measure = ("[performance.getEntriesByName('blocks-first-results')[0].startTime, "
                   "(performance.getEntriesByName('first-contentful-paint')[0] || {startTime: -1}).startTime, "
                   "performance.getEntriesByName('blocks-search-ready')[0].startTime]")
        steps = []
        for load in range(3):
            steps += [{"open": f"{url}?load={load}", "timeout": 60}, {"eval": measure, "name": f"load{load}"}]
        steps.append({"eval": "(() => { const t = performance.now(); const r = window.blocksSearch('pestanas scroling'); "
                              "return [performance.now() - t, r.names.length]; })()", "name": "search"})
        chromium = shutil.which("chromium") or "/usr/bin/chromium"
        result = subprocess.run([sys.executable, DRIVER, chromium, write_plan(work, steps)], capture_output=True, text=True, check=True)
        outcome = json.loads(result.stdout)
        if outcome.get("failure"):
            raise SystemExit("browser: " + outcome["failure"])
        loads = [outcome["values"][f"load{load}"] for load in range(3)]
        ready = min(load[0] for load in loads)
        paint = min(load[1] for load in loads)
        searchable = min(load[2] for load in loads)
        print(f"first results in headless Chromium: shown {ready:.0f} ms, first contentful paint {paint:.0f} ms "
              f"(goal < 200 ms): {'yes' if max(ready, paint) < 200 else 'no'}; search ready {searchable:.0f} ms  "
              f"loads [shown, paint, search ready] {[[round(v) for v in load] for load in loads]}")
        took, found = outcome["values"]["search"]
        print(f"one search over {count} blocks in the page: {took:.0f} ms, {found} results")
    finally:
        shutil.rmtree(work, ignore_errors=True)


def write_plan(work, steps):
    path = os.path.join(work, "plan.json")
    with open(path, "w", encoding="utf-8") as handle:
        json.dump(steps, handle)
    return path


if __name__ == "__main__":
    main()

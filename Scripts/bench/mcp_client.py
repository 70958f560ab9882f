#!/usr/bin/env python3
"""A small MCP client for the benchmark: starts `blocks mcp`, sends `search_blocks` calls
(2026-07-28 requests) one after another, and prints the median wall time of a warm call in
seconds. Usage: mcp_client.py BLOCKS [REGISTRY] [CALLS]. The first calls warm the server
(its corpus, the index file's pages) and are not counted."""
import json
import statistics
import subprocess
import sys
import time

blocks = sys.argv[1]
registry = sys.argv[2] if len(sys.argv) > 2 and sys.argv[2] else None
calls = int(sys.argv[3]) if len(sys.argv) > 3 else 200
warm_up = 10
meta = {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}
queries = ["tabs", "scroling tabs", "pestañas", "pager"]
server = subprocess.Popen([blocks, "mcp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                          text=True, bufsize=1)
times = []
for number in range(warm_up + calls):
    arguments = {"query": queries[number % len(queries)], "limit": 10}
    if registry:
        arguments["registry"] = registry
    request = {"jsonrpc": "2.0", "id": number, "method": "tools/call",
               "params": {"name": "search_blocks", "arguments": arguments, "_meta": meta}}
    start = time.perf_counter()
    server.stdin.write(json.dumps(request) + "\n")
    server.stdin.flush()
    answer = json.loads(server.stdout.readline())
    elapsed = time.perf_counter() - start
    if answer.get("id") != number or answer.get("result", {}).get("isError"):
        raise SystemExit(f"unexpected answer: {answer}")
    if number >= warm_up:
        times.append(elapsed)
server.stdin.close()
server.wait(timeout=30)
print(f"{statistics.median(times):.6f}")

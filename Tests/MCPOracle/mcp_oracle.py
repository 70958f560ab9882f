#!/usr/bin/env python3
"""Drives `blocks mcp` with the official MCP Python SDK (a client no one here wrote).

For one protocol mode (`legacy`: the 2025-11-25 initialize handshake; `auto`: the SDK's
server/discover probe, which must settle on 2026-07-28), it lists the tools, calls every
one, and holds each result to what `blocks ... --json` prints for the same arguments. It
checks that a file the user changed is never overwritten without `overwrite`, that a
cancelled call stops (a call stuck on a registry that never answers must not hold up the
next), and that stdout carries nothing but protocol messages: the SDK reports any other
line, and the message handler below fails the run on it.

Usage: mcp_oracle.py BINARY MODE. Prints one line per check and 'N passed, N failed'.
"""

import asyncio
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time

from mcp import Client, MCPError, StdioServerParameters

BINARY, MODE = os.path.abspath(sys.argv[1]), sys.argv[2]
EXPECTED_TOOLS = ["search_blocks", "list_blocks", "get_block", "project_status", "plan_add", "add_blocks", "diff_block", "update_blocks"]
BLOCK = "scrolling-strip"
BLOCK_FILE = "Sources/App/Blocks/scrolling-strip/ScrollingStrip.swift"

passed, failed = 0, 0


def check(condition, what, detail=""):
    global passed, failed
    if condition:
        passed += 1
        print(f"ok: {what}")
    else:
        failed += 1
        print(f"FAIL: {what} {detail}")


def make_project(folder):
    os.makedirs(os.path.join(folder, "Sources", "App"))
    with open(os.path.join(folder, "Package.swift"), "w") as f:
        f.write('// swift-tools-version:6.0\nimport PackageDescription\n\n'
                'let package = Package(name: "App", platforms: [.iOS(.v18)], targets: [.target(name: "App")])\n')
    with open(os.path.join(folder, "Sources", "App", "App.swift"), "w") as f:
        f.write("struct App {}\n")


def tree(folder):
    """Every file under folder with its bytes, to show that nothing changed."""
    found = {}
    for root, _, files in os.walk(folder):
        for name in files:
            path = os.path.join(root, name)
            with open(path, "rb") as f:
                found[os.path.relpath(path, folder)] = f.read()
    return found


def cli(environment, *arguments, cwd=None):
    """`blocks ARGUMENTS --json`, parsed."""
    run = subprocess.run([BINARY, *arguments, "--json"], capture_output=True, text=True, env=environment, cwd=cwd, timeout=60)
    return json.loads(run.stdout)


def start_silent_server():
    """A loopback server that accepts connections and never answers: a registry stuck for good."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    held = []

    def accept():
        deadline = time.time() + 60
        listener.settimeout(1)
        while time.time() < deadline:
            try:
                connection, _ = listener.accept()
                held.append(connection)
            except OSError:
                continue

    threading.Thread(target=accept, daemon=True).start()
    return listener.getsockname()[1], listener


async def main():
    work = tempfile.mkdtemp(prefix="blocks-mcp-oracle-")
    project = os.path.join(work, "project")
    make_project(project)
    environment = dict(os.environ)
    environment.update({
        "HOME": os.path.join(work, "home"), "XDG_CACHE_HOME": os.path.join(work, "cache"),
        "SOURCE_DATE_EPOCH": "1767225600", "NO_COLOR": "1",
    })
    environment.pop("BLOCKS_REGISTRY", None)
    unexpected = []

    async def on_message(message):
        if isinstance(message, Exception):
            unexpected.append(repr(message))

    server = StdioServerParameters(command=BINARY, args=["mcp"], env=environment, cwd=project)
    try:
        async with Client(server, mode=MODE, message_handler=on_message, read_timeout_seconds=60) as client:
            expected_version = "2025-11-25" if MODE == "legacy" else "2026-07-28"
            check(client.protocol_version == expected_version, f"negotiated {expected_version}", client.protocol_version)

            listed = await client.list_tools()
            names = [tool.name for tool in listed.tools]
            check(names == EXPECTED_TOOLS, "tools/list names every tool in order", names)
            check(all(tool.output_schema and tool.input_schema.get("type") == "object" and tool.description for tool in listed.tools),
                  "every tool has an input schema, an output schema and a description")

            async def call(name, arguments):
                return await client.call_tool(name, arguments)

            # The catalog tools against the command line.
            result = await call("search_blocks", {"query": "tabs"})
            check(not result.is_error and result.structured_content == cli(environment, "search", "tabs", "--limit", "20", cwd=project),
                  "search_blocks is blocks search --limit 20 --json")
            check(json.loads(result.content[0].text) == result.structured_content, "search_blocks' text is its structured content")
            result = await call("search_blocks", {"query": "pestanas", "level": "intermediate", "limit": 3})
            check(result.structured_content == cli(environment, "search", "pestanas", "--level", "intermediate", "--limit", "3", cwd=project),
                  "search_blocks with a typo, a level and a limit is the CLI's")
            result = await call("list_blocks", {})
            listing = cli(environment, "list", cwd=project)
            check(result.structured_content["blocks"] == listing["blocks"] and result.structured_content["total"] == len(listing["blocks"]),
                  "list_blocks is blocks list --json")
            result = await call("get_block", {"name": BLOCK})
            check(result.structured_content == cli(environment, "info", BLOCK, cwd=project), "get_block is blocks info --json")
            with_source = await call("get_block", {"name": BLOCK, "includeSource": True})
            sources = {f["path"]: f.get("source") for f in with_source.structured_content["files"]}
            check(all(s is not None for s in sources.values()), "get_block includeSource returns every file's code")
            result = await call("get_block", {"name": "no-such-block"})
            check(result.is_error and "no-such-block" in result.content[0].text, "an unknown block is a tool error")

            # The project tools, in a real project folder.
            before = tree(project)
            result = await call("project_status", {"projectPath": project})
            check(result.structured_content == cli(environment, "status", cwd=project), "project_status is blocks status --json")
            plan = await call("plan_add", {"projectPath": project, "names": [BLOCK]})
            check(not plan.is_error and plan.structured_content["dryRun"] is True and tree(project) == before,
                  "plan_add plans and writes nothing")
            added = await call("add_blocks", {"projectPath": project, "names": [BLOCK]})
            check(not added.is_error and os.path.exists(os.path.join(project, BLOCK_FILE)), "add_blocks adds the block", added.content[0].text)
            check(added.structured_content["folder"] == "Sources/App/Blocks", "add_blocks reports the target folder")
            with open(os.path.join(project, BLOCK_FILE)) as f:
                written = f.read()
            check(written == sources["ScrollingStrip.swift"] and written.startswith("// SPDX-License-Identifier: MIT"),
                  "get_block's source is the file add writes, MIT header included")
            status = await call("project_status", {"projectPath": project})
            check(status.structured_content == cli(environment, "status", cwd=project), "project_status after add is the CLI's")

            # A user's change is never overwritten without consent.
            changed = written + "\n// the user's own line\n"
            with open(os.path.join(project, BLOCK_FILE), "w") as f:
                f.write(changed)
            diff = await call("diff_block", {"projectPath": project})
            check([{"path": e["path"], "state": e["state"]} for e in diff.structured_content["files"]]
                  == cli(environment, "diff", cwd=project)["files"] and "the user's own line" in json.dumps(diff.structured_content),
                  "diff_block shows the user's change, as blocks diff --json")
            conflict = await call("add_blocks", {"projectPath": project, "names": [BLOCK]})
            with open(os.path.join(project, BLOCK_FILE)) as f:
                kept = f.read()
            check(conflict.is_error and conflict.structured_content["conflicts"] == [BLOCK_FILE] and kept == changed,
                  "a conflict is a tool error listing the file, and the file is untouched", conflict.content[0].text)
            check("overwrite" in conflict.content[0].text, "the conflict error names the choices")
            plan = await call("plan_add", {"projectPath": project, "names": [BLOCK]})
            check([d["path"] for d in plan.structured_content["diffs"]] == [BLOCK_FILE] and "the user's own line" in plan.structured_content["diffs"][0]["diff"],
                  "plan_add shows the diff of the changed file")
            updated = await call("update_blocks", {"projectPath": project})
            with open(os.path.join(project, BLOCK_FILE)) as f:
                check(not updated.is_error and f.read() == changed, "update_blocks keeps the user's change", updated.content[0].text)
            overwritten = await call("add_blocks", {"projectPath": project, "names": [BLOCK], "overwrite": True})
            with open(os.path.join(project, BLOCK_FILE)) as f:
                check(not overwritten.is_error and f.read() == written, "add_blocks with overwrite: true replaces it")

            # Paths that do not resolve to a project are refused.
            for bad in ["/", "relative/path", project + "/../../..", os.path.join(work, "missing")]:
                refused = await call("add_blocks", {"projectPath": bad, "names": [BLOCK]})
                check(refused.is_error, f"projectPath {bad!r} is refused", refused.content[0].text)

            # Protocol errors.
            try:
                await call("no_such_tool", {})
                check(False, "an unknown tool is a protocol error")
            except MCPError as error:
                check(error.error.code == -32602, "an unknown tool is -32602", error.error.code)
            try:
                await call("search_blocks", {"query": 5})
                check(False, "arguments that break the schema are a protocol error")
            except MCPError as error:
                check(error.error.code == -32602, "arguments that break the schema are -32602")

            # Cancel: a call stuck on a registry that never answers is cancelled by the SDK's
            # timeout (it sends notifications/cancelled); the next call must not wait for it.
            port, listener = start_silent_server()
            started = time.time()
            try:
                await client.call_tool("search_blocks", {"query": "tabs", "registry": f"http://127.0.0.1:{port}/"}, read_timeout_seconds=1.5)
                check(False, "the stuck call times out")
            except Exception:
                check(True, "the stuck call times out and is cancelled")
            after = await call("list_blocks", {"limit": 1})
            elapsed = time.time() - started
            check(not after.is_error and elapsed < 10, f"the next call answers at once after the cancel ({elapsed:.1f} s)")
            listener.close()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    check(not unexpected, "stdout carried only protocol messages", unexpected)


asyncio.run(main())
print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)

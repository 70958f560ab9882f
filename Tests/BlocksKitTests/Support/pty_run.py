#!/usr/bin/env python3
"""Runs a program under a pseudo-terminal, as a person at a terminal would, for the tests.

    pty_run.py --columns N --timeout S [--watch TEXT]... [--signal-on TEXT] [--signal-after S]
               [--signal INT|TERM] [--cwd DIR] -- PROGRAM ARG...

The terminal is N columns wide (TIOCSWINSZ on the pty, and COLUMNS in the environment).
With --signal-on, the signal goes to the program S seconds (--signal-after, default 0) after
TEXT first appears in its output; with only --signal-after, S seconds after the start
(SIGINT is sent as a typed Ctrl-C, so the terminal echoes ^C as it would). The
program is killed with SIGKILL after --timeout seconds in all. Prints one JSON object:
{"code": exit status (or 128 + signal if killed by one), "timedOut": bool,
 "transcript": all output, as text, "seen": {TEXT: seconds after start when first seen}}.
Loopback only; nothing here touches the network.
"""

import argparse
import fcntl
import json
import os
import pty
import select
import signal
import struct
import sys
import termios
import time


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--columns", type=int, default=100)
    parser.add_argument("--timeout", type=float, default=30)
    parser.add_argument("--watch", action="append", default=[])
    parser.add_argument("--signal-on")
    parser.add_argument("--signal-after", type=float)
    parser.add_argument("--signal", default="INT")
    parser.add_argument("--cwd")
    parser.add_argument("command", nargs=argparse.REMAINDER)
    options = parser.parse_args()
    command = options.command[1:] if options.command[:1] == ["--"] else options.command
    number = {"INT": signal.SIGINT, "TERM": signal.SIGTERM}[options.signal]

    environment = dict(os.environ)
    environment["COLUMNS"] = str(options.columns)
    environment.setdefault("TERM", "xterm")
    pid, master = pty.fork()
    if pid == 0:
        # As a shell starts a program: Ctrl-C and SIGTERM neither blocked nor ignored (a test
        # runner may block them, and a blocked signal's mask survives exec).
        for number in (signal.SIGINT, signal.SIGTERM):
            signal.signal(number, signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT, signal.SIGTERM})
        if options.cwd:
            os.chdir(options.cwd)
        os.execvpe(command[0], command, environment)
    fcntl.ioctl(master, termios.TIOCSWINSZ, struct.pack("HHHH", 24, options.columns, 0, 0))
    os.kill(pid, signal.SIGWINCH)

    started = time.monotonic()
    output = bytearray()
    seen = {}
    signal_at = None
    if options.signal_after is not None and not options.signal_on:
        signal_at = started + options.signal_after
    signalled = False
    status = None
    timed_out = False
    while True:
        now = time.monotonic()
        if now - started > options.timeout:
            timed_out = True
            os.kill(pid, signal.SIGKILL)
            _, status = os.waitpid(pid, 0)
            break
        if signal_at is not None and not signalled and now >= signal_at:
            if number == signal.SIGINT:
                # Ctrl-C as typed: the terminal echoes ^C and signals the foreground group.
                os.write(master, b"\x03")
            else:
                os.kill(pid, number)
            signalled = True
        readable, _, _ = select.select([master], [], [], 0.02)
        if readable:
            try:
                chunk = os.read(master, 65536)
            except OSError:
                chunk = b""
            if chunk:
                output.extend(chunk)
                text = output.decode("utf-8", "replace")
                for watched in options.watch + ([options.signal_on] if options.signal_on else []):
                    if watched not in seen and watched in text:
                        seen[watched] = round(time.monotonic() - started, 3)
                if options.signal_on and signal_at is None and options.signal_on in seen:
                    signal_at = started + seen[options.signal_on] + (options.signal_after or 0)
                continue
        done, result = os.waitpid(pid, os.WNOHANG)
        if done:
            status = result
            # What is still buffered in the pty.
            while True:
                readable, _, _ = select.select([master], [], [], 0.05)
                if not readable:
                    break
                try:
                    chunk = os.read(master, 65536)
                except OSError:
                    break
                if not chunk:
                    break
                output.extend(chunk)
            break
    code = os.WEXITSTATUS(status) if os.WIFEXITED(status) else 128 + os.WTERMSIG(status)
    text = output.decode("utf-8", "replace")
    for watched in options.watch:
        if watched not in seen and watched in text:
            seen[watched] = round(time.monotonic() - started, 3)
    json.dump({"code": code, "timedOut": timed_out, "transcript": text, "seen": seen}, sys.stdout)


if __name__ == "__main__":
    main()

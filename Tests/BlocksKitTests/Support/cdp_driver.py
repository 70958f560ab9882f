#!/usr/bin/env python3
"""Drives a headless Chromium through the DevTools protocol for the site's browser tests.

    python3 cdp_driver.py CHROMIUM PLAN.json

The protocol runs over --remote-debugging-pipe (file descriptors 3 and 4, one JSON message
per NUL byte), so no port is opened and no WebSocket library is needed. PLAN.json is a list
of steps, run in order in one tab; the driver prints one JSON object: the value of every
named step, every URL the page requested, and every script exception or console error.
The assertions live in the Swift tests. Every wait is bounded, and the whole run is
bounded by a deadline; the browser is killed when the driver ends.

Steps (one key each, plus options):
  {"open": URL}                          navigate and wait for the load event
  {"eval": JS, "name": N}                evaluate (promises awaited), keep the value as N
  {"wait": JS, "timeout": S}             evaluate until truthy (at most S seconds)
  {"type": TEXT, "selector": CSS}        focus the element, then type key by key
  {"key": NAME}                          press one key (Tab, Enter, Backspace, Escape)
  {"click": CSS}                         a real mouse click at the element's centre
  {"clipboard": N}                       read the clipboard's text as N
  {"darkMode": BOOL}                     emulate prefers-color-scheme
  {"viewport": [W, H]}                   set the window size
  {"screenshot": PATH}                   save a PNG of the viewport (full page with "full": true)
"""
import base64
import fcntl
import json
import os
import select
import signal
import subprocess
import sys
import tempfile
import time

DEADLINE = time.monotonic() + float(os.environ.get("CDP_DRIVER_SECONDS", "150"))
KEYS = {
    "Tab": ("Tab", 9, ""), "Enter": ("Enter", 13, "\r"), "Backspace": ("Backspace", 8, ""),
    "Escape": ("Escape", 27, ""), "ArrowDown": ("ArrowDown", 40, ""), "Space": (" ", 32, " "),
}


class Failure(Exception):
    pass


class Browser:
    def __init__(self, executable):
        self.profile = tempfile.mkdtemp(prefix="blocks-chromium-")
        to_browser_read, self.to_browser = os.pipe()
        self.from_browser, from_browser_write = os.pipe()

        def wire():
            # Chromium reads commands on fd 3 and writes replies on fd 4. Both ends are
            # first copied above 10, so neither can be overwritten by the other's move.
            reading = fcntl.fcntl(to_browser_read, fcntl.F_DUPFD, 10)
            writing = fcntl.fcntl(from_browser_write, fcntl.F_DUPFD, 10)
            os.dup2(reading, 3)
            os.dup2(writing, 4)

        self.process = subprocess.Popen(
            [executable, "--headless", "--no-sandbox", "--disable-gpu", "--remote-debugging-pipe",
             "--user-data-dir=" + self.profile, "--no-first-run", "--no-default-browser-check",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             "--disable-default-apps", "--disable-extensions", "--disable-domain-reliability",
             "--disable-client-side-phishing-detection", "--disable-features=Translate,MediaRouter,OptimizationHints",
             "--allow-file-access-from-files=false", "--window-size=1280,900",
             # Nothing may leave loopback: any other host fails to resolve.
             "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
             "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            pass_fds=(3, 4), preexec_fn=wire)
        os.close(to_browser_read)
        os.close(from_browser_write)
        self.buffer = b""
        self.next_id = 0
        self.events = []
        self.session = None

    def send(self, method, params=None, session=True, timeout=20):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session and self.session:
            message["sessionId"] = self.session
        os.write(self.to_browser, json.dumps(message).encode() + b"\0")
        wanted = self.next_id
        end = min(time.monotonic() + timeout, DEADLINE)
        while True:
            reply = self.read(end)
            if reply is None:
                raise Failure(f"{method} got no reply in {timeout} s")
            if reply.get("id") == wanted:
                if "error" in reply:
                    raise Failure(f"{method}: {reply['error'].get('message')}")
                return reply.get("result", {})
            self.events.append(reply)

    def read(self, end):
        """The next message, or None once `end` has passed."""
        while b"\0" not in self.buffer:
            left = end - time.monotonic()
            if left <= 0:
                return None
            ready, _, _ = select.select([self.from_browser], [], [], left)
            if not ready:
                return None
            chunk = os.read(self.from_browser, 1 << 20)
            if not chunk:
                raise Failure("the browser closed the pipe")
            self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(message)

    def wait_for_event(self, method, timeout):
        end = min(time.monotonic() + timeout, DEADLINE)
        for index, event in enumerate(self.events):
            if event.get("method") == method:
                del self.events[index]
                return event
        while True:
            event = self.read(end)
            if event is None:
                raise Failure(f"no {method} in {timeout} s")
            if event.get("method") == method:
                return event
            self.events.append(event)

    def close(self):
        try:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=10)
        except Exception:
            pass
        subprocess.run(["rm", "-rf", self.profile], check=False)


def evaluate(browser, expression, timeout=20):
    result = browser.send("Runtime.evaluate", {
        "expression": expression, "returnByValue": True, "awaitPromise": True, "userGesture": True}, timeout=timeout)
    if "exceptionDetails" in result:
        details = result["exceptionDetails"]
        text = details.get("exception", {}).get("description") or details.get("text")
        raise Failure(f"script failed: {text}: {expression[:120]}")
    return result.get("result", {}).get("value")


def evaluate_unless_navigating(browser, expression):
    """`evaluate`, or None while a click's navigation replaces the page the expression was
    sent to (Chromium then answers "Inspected target navigated or closed"): a wait asks
    again, within its own time limit."""
    try:
        return evaluate(browser, expression)
    except Failure as failure:
        if "navigated or closed" in str(failure) or "Cannot find context" in str(failure):
            return None
        raise


def press(browser, name):
    key, code, text = KEYS.get(name, (name, 0, name))
    down = {"type": "keyDown", "key": key, "code": key if len(key) > 1 else "", "windowsVirtualKeyCode": code}
    if text:
        down["text"] = text
    browser.send("Input.dispatchKeyEvent", down)
    browser.send("Input.dispatchKeyEvent", {"type": "keyUp", "key": key, "windowsVirtualKeyCode": code})


def type_text(browser, text):
    for character in text:
        browser.send("Input.dispatchKeyEvent", {"type": "keyDown", "key": character, "text": character})
        browser.send("Input.dispatchKeyEvent", {"type": "keyUp", "key": character})


def click(browser, selector):
    box = evaluate(browser, "(() => { const e = document.querySelector(%s); if (!e) return null; "
                            "e.scrollIntoView({block: 'center'}); const r = e.getBoundingClientRect(); "
                            "return [r.left + r.width / 2, r.top + r.height / 2]; })()" % json.dumps(selector))
    if box is None:
        raise Failure(f"nothing matches {selector}")
    for kind in ("mouseMoved", "mousePressed", "mouseReleased"):
        params = {"type": kind, "x": box[0], "y": box[1]}
        if kind != "mouseMoved":
            params.update({"button": "left", "clickCount": 1})
        browser.send("Input.dispatchMouseEvent", params)


def run(executable, steps):
    browser = Browser(executable)
    output = {"values": {}, "requests": [], "exceptions": [], "consoleErrors": []}
    try:
        target = browser.send("Target.createTarget", {"url": "about:blank"}, session=False)
        attached = browser.send("Target.attachToTarget", {"targetId": target["targetId"], "flatten": True}, session=False)
        browser.session = attached["sessionId"]
        for domain in ("Page", "Runtime", "Network"):
            browser.send(domain + ".enable")
        browser.send("Emulation.setFocusEmulationEnabled", {"enabled": True})
        browser.send("Browser.grantPermissions", {"permissions": ["clipboardReadWrite", "clipboardSanitizedWrite"]}, session=False)
        for step in steps:
            if time.monotonic() > DEADLINE:
                raise Failure("the plan ran past its deadline")
            if "open" in step:
                browser.events = [e for e in browser.events if e.get("method") != "Page.loadEventFired"]
                browser.send("Page.navigate", {"url": step["open"]})
                browser.wait_for_event("Page.loadEventFired", step.get("timeout", 30))
            elif "eval" in step:
                value = evaluate(browser, step["eval"], step.get("timeout", 20))
                if "name" in step:
                    output["values"][step["name"]] = value
            elif "wait" in step:
                end = time.monotonic() + step.get("timeout", 10)
                while not evaluate_unless_navigating(browser, step["wait"]):
                    if time.monotonic() > end:
                        raise Failure(f"still false after {step.get('timeout', 10)} s: {step['wait']}")
                    time.sleep(0.05)
            elif "type" in step:
                evaluate(browser, "document.querySelector(%s).focus()" % json.dumps(step["selector"]))
                type_text(browser, step["type"])
            elif "key" in step:
                press(browser, step["key"])
            elif "click" in step:
                click(browser, step["click"])
            elif "clipboard" in step:
                output["values"][step["clipboard"]] = evaluate(browser, "navigator.clipboard.readText()")
            elif "darkMode" in step:
                browser.send("Emulation.setEmulatedMedia", {"features": [
                    {"name": "prefers-color-scheme", "value": "dark" if step["darkMode"] else "light"}]})
            elif "viewport" in step:
                width, height = step["viewport"]
                browser.send("Emulation.setDeviceMetricsOverride", {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
            elif "screenshot" in step:
                params = {"format": "png"}
                if step.get("full"):
                    params["captureBeyondViewport"] = True
                shot = browser.send("Page.captureScreenshot", params, timeout=30)
                with open(step["screenshot"], "wb") as handle:
                    handle.write(base64.b64decode(shot["data"]))
            else:
                raise Failure(f"unknown step {step}")
        # Collect what arrived while the steps ran.
        end = time.monotonic() + 0.3
        while (event := browser.read(end)) is not None:
            browser.events.append(event)
    except Failure as failure:
        output["failure"] = str(failure)
    finally:
        for event in browser.events:
            method, params = event.get("method"), event.get("params", {})
            if method == "Network.requestWillBeSent":
                output["requests"].append(params["request"]["url"])
            elif method == "Runtime.exceptionThrown":
                details = params.get("exceptionDetails", {})
                output["exceptions"].append(details.get("exception", {}).get("description") or details.get("text"))
            elif method == "Runtime.consoleAPICalled" and params.get("type") == "error":
                output["consoleErrors"].append(" ".join(str(a.get("value", a.get("description"))) for a in params.get("args", [])))
        browser.close()
    return output


def main():
    executable, plan = sys.argv[1], sys.argv[2]
    with open(plan, encoding="utf-8") as handle:
        steps = json.load(handle)
    print(json.dumps(run(executable, steps)))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Drives headless Chromium over the DevTools protocol (--remote-debugging-pipe,
Python's standard library only) against pages written by `spatial-replay report`.

  report_browser.py test BINARY WORKDIR SHOTS   every check of docs/report.md; exit 0 when all pass
  report_browser.py bench PAGE                  page ready time and one cursor step, as JSON
  report_browser.py scale BINARY JOURNAL WORKDIR [SHOT]   the checks of a real app's scale on one journal
  report_browser.py focus BINARY JOURNAL WORKDIR [N] [REPORT OPTIONS]   the focus box and state panel against
                                                at --json at N random events of the page's window

Every assertion compares the page's DOM with the project's own command line
output (`at --json`, `check --json`, `diff --json`) of the same journal.
"""
import json
import os
import random
import re
import select
import subprocess
import sys
import tempfile
import time

CHROMIUM = os.environ.get("CHROMIUM", "/usr/lib/chromium/chromium")
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class Browser:
    """One headless Chromium with one page, spoken to over fds 3 and 4."""

    def __init__(self, width=1400, height=1500):
        to_child_r, self.to_child = os.pipe()
        self.from_child, from_child_w = os.pipe()
        self.profile = tempfile.mkdtemp(prefix="report-chromium-")

        # The child reads commands on fd 3 and writes replies on fd 4.
        def fds():
            a, b = os.dup(to_child_r), os.dup(from_child_w)
            os.dup2(a, 3)
            os.dup2(b, 4)
            os.set_inheritable(3, True)
            os.set_inheritable(4, True)

        self.proc = subprocess.Popen(
            [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--remote-debugging-pipe",
             "--user-data-dir=" + self.profile, "--no-first-run", "--no-default-browser-check",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             "--window-size=%d,%d" % (width, height)] + os.environ.get("CHROMIUM_FLAGS", "").split() + ["about:blank"],
            pass_fds=(3, 4, to_child_r, from_child_w), preexec_fn=fds, close_fds=True,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_child_r)
        os.close(from_child_w)
        self.buffer = b""
        self.next_id = 0
        self.events = []
        self.documents = {"about:blank"}
        target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        for domain in ["Page", "Runtime", "Network", "Log"]:
            self.call(domain + ".enable", session=True)
        self.call("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False}, session=True)

    def send(self, method, params=None, session=False):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = self.session
        os.write(self.to_child, json.dumps(message).encode() + b"\0")
        return self.next_id

    def read(self, timeout):
        while b"\0" not in self.buffer:
            ready, _, _ = select.select([self.from_child], [], [], timeout)
            if not ready:
                raise TimeoutError("no message from chromium in %ss" % timeout)
            chunk = os.read(self.from_child, 1 << 20)
            if not chunk:
                raise RuntimeError("chromium closed the pipe")
            self.buffer += chunk
        raw, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(raw)

    def call(self, method, params=None, session=False, timeout=60):
        wanted = self.send(method, params, session)
        while True:
            message = self.read(timeout)
            if message.get("id") == wanted:
                if "error" in message:
                    raise RuntimeError("%s: %s" % (method, message["error"]))
                return message.get("result", {})
            self.note(message)

    def note(self, message):
        if "method" in message:
            self.events.append(message)
            if message["method"] == "Page.javascriptDialogOpening":
                self.send("Page.handleJavaScriptDialog", {"accept": False}, session=True)

    def evaluate(self, expression, wait=False):
        result = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True, "awaitPromise": wait},
                           session=True)
        if "exceptionDetails" in result:
            raise RuntimeError("evaluate %r: %s" % (expression[:80], result["exceptionDetails"]))
        return result["result"].get("value")

    def open(self, url, timeout=60):
        # A new document every time (a fragment alone would be a same-document navigation).
        self.call("Page.navigate", {"url": "about:blank"}, session=True)
        self.documents.add(url.split("#")[0])
        self.call("Page.navigate", {"url": url}, session=True)
        deadline = time.time() + timeout
        while time.time() < deadline:
            try:
                # Parsed to the end too: a page without script (the fleet's) is ready from its
                # <body>, and under load the rest of it may still be on its way.
                if self.evaluate(
                    "document.readyState === 'complete' && document.body && document.body.dataset.ready === 'true'"
                ):
                    return
            except RuntimeError:
                pass
            time.sleep(0.02)
        raise TimeoutError("page not ready: " + url)

    def wait_event(self, method, predicate=lambda params: True, timeout=120):
        """The parameters of the first event `method` (seen so far or to come) that `predicate` accepts."""
        deadline = time.time() + timeout
        seen = 0
        while True:
            for e in self.events[seen:]:
                if e["method"] == method and predicate(e.get("params", {})):
                    return e["params"]
            seen = len(self.events)
            remaining = deadline - time.time()
            if remaining <= 0:
                raise TimeoutError("no %s in %ss" % (method, timeout))
            self.note(self.read(remaining))

    def key(self, key, shift=False):
        codes = {"ArrowLeft": 37, "ArrowRight": 39, "Home": 36, "End": 35, "]": 221, "[": 219, "/": 191}
        base = {"key": key, "windowsVirtualKeyCode": codes.get(key, 0), "modifiers": 8 if shift else 0}
        if len(key) == 1:
            self.call("Input.dispatchKeyEvent", dict(base, type="keyDown", text=key), session=True)
        else:
            self.call("Input.dispatchKeyEvent", dict(base, type="rawKeyDown"), session=True)
        self.call("Input.dispatchKeyEvent", dict(base, type="keyUp"), session=True)

    def screenshot(self, path, selector=None):
        params = {"format": "png"}
        if selector:
            box = self.evaluate(
                "(() => { const r = document.querySelector(%s).getBoundingClientRect();"
                " return [r.left + scrollX, r.top + scrollY, r.width, r.height]; })()" % json.dumps(selector))
            params["clip"] = {"x": box[0], "y": box[1], "width": box[2], "height": box[3], "scale": 1}
            params["captureBeyondViewport"] = True
        data = self.call("Page.captureScreenshot", params, session=True)["data"]
        import base64
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))

    def problems(self, page_url=None):
        """Console errors, uncaught exceptions, dialogs and requests for anything but the pages opened, so far."""
        out = []
        for e in self.events:
            m, p = e["method"], e.get("params", {})
            if m == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
                out.append("console %s: %s" % (p["type"], p.get("args")))
            elif m == "Runtime.exceptionThrown":
                out.append("exception: %s" % p.get("exceptionDetails", {}).get("text"))
            elif m == "Page.javascriptDialogOpening":
                out.append("dialog: %s" % p.get("message"))
            elif m == "Log.entryAdded" and p.get("entry", {}).get("level") == "error":
                out.append("log error: %s" % p["entry"].get("text"))
            elif m == "Network.requestWillBeSent":
                url = p.get("request", {}).get("url", "")
                if url.split("#")[0] not in self.documents:
                    out.append("network request: %s" % url)
        self.events = []
        return out

    def close(self):
        try:
            self.send("Browser.close")
            self.proc.wait(10)
        except Exception:
            self.proc.kill()
        subprocess.run(["rm", "-rf", self.profile])


DOM_STATE = """(() => {
  const q = (s) => Array.from(document.querySelectorAll(s));
  return {
    seq: Number(document.body.dataset.seq),
    controllers: q('#panels [data-controller]').map(e => e.getAttribute('data-controller')).sort(),
    focus: q('#panels [data-focus="true"]').map(e => e.getAttribute('data-controller')),
    modals: q('#panels [data-modal="true"]').map(e => e.getAttribute('data-controller')).sort(),
    edges: q('#panels [data-edge]').map(e => [[e.getAttribute('data-a'), e.getAttribute('data-b')].sort(),
      Number(e.getAttribute('data-lines')), e.querySelectorAll('line, path').length]),
    hash: location.hash,
    active: document.activeElement ? document.activeElement.id : null,
  };
})()"""

OPPOSITE = {"left": "right", "right": "left", "up": "down", "down": "up"}


def expected_state(binary, journal, seq):
    at = json.loads(subprocess.run([binary, "at", "--json", journal, str(seq)], capture_output=True, text=True,
                                   check=True).stdout)
    alive = {c["id"]: c for c in at["controllers"] if c["alive"]}
    edges = {}
    for c in alive.values():
        for direction, other in c["links"].items():
            if other is None or other not in alive:
                continue
            double = c["minTouches"][direction] >= 2 or alive[other]["minTouches"][OPPOSITE[direction]] >= 2
            key = tuple(sorted([c["id"], other]))
            edges[key] = 2 if double or edges.get(key) == 2 else 1
    return {
        "controllers": sorted(alive),
        "focus": [at["focus"]] if at["focus"] in alive else [],
        "modals": sorted(i for i, c in alive.items() if c["modal"]),
        "edges": sorted([list(k), n, n] for k, n in edges.items()),
    }


def journal_records(journal):
    out = []
    with open(journal, encoding="utf-8") as f:
        for line_number, text in enumerate(f, 1):
            try:
                out.append((line_number, json.loads(text)))
            except ValueError:
                pass
    return out


class Failures:
    def __init__(self):
        self.items = []
        self.checks = 0

    def expect(self, condition, what):
        self.checks += 1
        if not condition:
            self.items.append(what)


def check_single(browser, binary, journal, html, shots, f, shot_prefix=None):
    url = "file://" + html
    browser.open(url)
    f.expect(browser.problems(url) == [], "%s: problems on load: %s" % (journal, browser.problems(url)))
    records = journal_records(journal)
    seqs = [r["seq"] for _, r in records]
    last = seqs[-1]
    # The end, then several moments opened from the fragment.
    moments = [None] + sorted(set([seqs[0], seqs[len(seqs) // 3], seqs[len(seqs) // 2], seqs[(3 * len(seqs)) // 4]]))
    for seq in moments:
        if seq is not None:
            browser.open(url + "#seq=%d" % seq)
        dom = browser.evaluate(DOM_STATE)
        want = expected_state(binary, journal, last if seq is None else seq)
        f.expect(dom["seq"] == (last if seq is None else seq), "%s: cursor at %s, wanted %s" % (journal, dom["seq"], seq))
        got = {"controllers": dom["controllers"], "focus": dom["focus"], "modals": dom["modals"],
               "edges": sorted(dom["edges"])}
        f.expect(got == want, "%s at seq %s: DOM %s\n  at --json %s" % (journal, seq, got, want))
    # Findings rows against check --json, rule by rule.
    check = subprocess.run([binary, "check", "--json", journal], capture_output=True, text=True).stdout
    want = sorted((d["rule"], d["line"], d.get("seq", -1) if d.get("seq") is not None else -1)
                  for d in map(json.loads, check.splitlines()) if "rule" in d)
    rows = browser.evaluate("Array.from(document.querySelectorAll('#findings-body [data-rule]')).map(r => "
                            "[r.dataset.rule, Number(r.dataset.line), Number(r.dataset.seq)])")
    f.expect(sorted(tuple(r) for r in rows) == want, "%s: findings rows %s\n  check --json %s" % (journal, rows, want))
    # Filtering by rule from the header.
    if want:
        rule = want[0][0]
        n = browser.evaluate("(() => { document.querySelector('[data-filter=%s]').click();"
                             " return document.querySelectorAll('#findings-body [data-rule]').length; })()"
                             % json.dumps(rule))
        f.expect(n == sum(1 for w in want if w[0] == rule), "%s: filter %s shows %s rows" % (journal, rule, n))
    # Keys.
    browser.open(url)
    browser.key("Home")
    f.expect(browser.evaluate(DOM_STATE)["seq"] == seqs[0], "%s: Home" % journal)
    browser.key("ArrowRight")
    # The fragment follows once the cursor rests (100 ms after the last step).
    browser.evaluate("new Promise((r) => setTimeout(r, 300))", wait=True)
    dom = browser.evaluate(DOM_STATE)
    f.expect(dom["seq"] == seqs[1], "%s: → from the first event gives %s" % (journal, dom["seq"]))
    f.expect(dom["hash"] == "#seq=%d" % seqs[1], "%s: fragment %s after →" % (journal, dom["hash"]))
    browser.key("ArrowLeft")
    f.expect(browser.evaluate(DOM_STATE)["seq"] == seqs[0], "%s: ←" % journal)
    moves = [r["seq"] for _, r in records if r.get("type") == "move"]
    if moves:
        browser.key("ArrowRight", shift=True)
        f.expect(browser.evaluate(DOM_STATE)["seq"] == moves[0], "%s: Shift+→ to the first move" % journal)
        browser.key("ArrowLeft", shift=True)
    browser.key("End")
    f.expect(browser.evaluate(DOM_STATE)["seq"] == last, "%s: End" % journal)
    if want:
        # ] from the start: the event of the first finding (the last record at or before its line).
        browser.key("Home")
        line_of = [ln for ln, _ in records]
        first_line = min(w[1] for w in want if w[1] > line_of[0]) if any(w[1] > line_of[0] for w in want) else None
        if first_line is not None:
            target = [r["seq"] for ln, r in records if ln <= first_line][-1]
            browser.key("]")
            f.expect(browser.evaluate(DOM_STATE)["seq"] == target, "%s: ] to seq %s" % (journal, target))
            browser.key("]")
            second = browser.evaluate(DOM_STATE)["seq"]
            f.expect(second >= target, "%s: ] again goes forward (%s)" % (journal, second))
            if second > target:
                browser.key("[")
                f.expect(browser.evaluate(DOM_STATE)["seq"] == target, "%s: [ back to seq %s" % (journal, target))
    browser.key("/")
    f.expect(browser.evaluate(DOM_STATE)["active"] == "search", "%s: / focuses the search" % journal)
    f.expect(browser.problems(url) == [], "%s: problems: %s" % (journal, browser.problems(url)))
    if shot_prefix:
        browser.open(url + "#seq=%d" % seqs[len(seqs) // 2])
        browser.screenshot(os.path.join(shots, shot_prefix + ".png"))
        browser.screenshot(os.path.join(shots, shot_prefix + "-lanes.png"), "#lanes-panel")


def check_trace_download(browser, binary, html, trace_args, workdir, f, what):
    """The page's "download trace" link: it exists, names the file as the page's data says, and what the
    browser saves when it is clicked (a real download, Browser.setDownloadBehavior) is, byte for byte, what
    `trace --format chrome TRACE_ARGS` writes; no console error, exception or request on the way."""
    url = "file://" + html
    browser.open(url)
    link = browser.evaluate("""(() => {
      const a = document.getElementById('trace-download'), data = document.getElementById('trace-data');
      return a && data ? {file: a.getAttribute('download'), text: a.textContent, dataFile: data.dataset.file,
                          bytes: Number(data.dataset.bytes), encoding: data.dataset.encoding} : null;
    })()""")
    f.expect(link is not None, "%s: no download trace link (#trace-download) or no #trace-data" % what)
    if link is None:
        return
    want = subprocess.run([binary, "trace", "--format", "chrome"] + trace_args, capture_output=True, check=True).stdout
    f.expect(link["text"] == "download trace" and link["file"] == link["dataFile"] and link["file"].endswith(".trace.json")
             and link["encoding"] == "gzip+base64", "%s: link %s" % (what, link))
    f.expect(link["bytes"] == len(want), "%s: data-bytes %s, trace writes %d" % (what, link["bytes"], len(want)))
    downloads = tempfile.mkdtemp(prefix="trace-download-", dir=workdir)
    browser.call("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": downloads, "eventsEnabled": True})
    browser.call("Runtime.evaluate", {"expression": "document.getElementById('trace-download').click()",
                                      "userGesture": True}, session=True)
    begin = browser.wait_event("Browser.downloadWillBegin")
    end = browser.wait_event("Browser.downloadProgress",
                             lambda p: p.get("guid") == begin["guid"] and p.get("state") in ("completed", "canceled"))
    f.expect(end["state"] == "completed", "%s: the download ended %s" % (what, end["state"]))
    f.expect(begin["suggestedFilename"] == link["file"], "%s: saved as %s, the link says %s"
             % (what, begin["suggestedFilename"], link["file"]))
    path = os.path.join(downloads, begin["suggestedFilename"])
    got = open(path, "rb").read() if os.path.exists(path) else b""
    f.expect(got == want, "%s: the downloaded trace (%d bytes) differs from trace --format chrome %s (%d bytes)"
             % (what, len(got), " ".join(trace_args), len(want)))
    size = browser.evaluate("Number(document.getElementById('trace-download').dataset.traceBytes)")
    f.expect(size == len(want), "%s: the link's Blob holds %s bytes, the trace %d" % (what, size, len(want)))
    browser.call("Browser.setDownloadBehavior", {"behavior": "default"})
    subprocess.run(["rm", "-rf", downloads])
    problems = browser.problems(url)
    f.expect(problems == [], "%s: problems after the download: %s" % (what, problems))


HOSTILE_IDS = [
    "</script><script>alert(1)</script>",
    "<img src=x onerror=alert(2)>",
    "\"><svg onload=alert(3)>",
    "bell\u0007\u001b[2J",
    "bidi\u202egnp.exe\u202c",
    "amp&lt;&#60;\u2028\u2029<!--",
]


def hostile_journal(path):
    t = [0]

    def line(seq, kind, **fields):
        t[0] += 1
        record = {"seq": seq, "time": "2026-11-29T09:00:%02d.%06dZ" % (t[0] // 1000, (t[0] % 1000) * 1000),
                  "type": kind}
        record.update(fields)
        return json.dumps(record, ensure_ascii=False, separators=(",", ":"))

    ids = HOSTILE_IDS
    lines = [line(0, "session", v=1, session="<script>alert(4)</script>", app="<b onmouseover=alert(5)>",
                  build="1", device="\u202ephone", profile="intended", scenario="</script>")]
    for i, c in enumerate(ids):
        lines.append(line(len(lines), "alloc", controller=c, **{"class": "<svg/onload=alert(%d)>" % (6 + i)}))
    lines.append(line(len(lines), "root", controller=ids[0]))
    lines.append(line(len(lines), "link", **{"from": ids[0], "direction": "right", "to": ids[1]}))
    lines.append(line(len(lines), "link", **{"from": ids[1], "direction": "down", "to": ids[2]}))
    lines.append(line(len(lines), "touches", controller=ids[1], direction="down", min=2))
    for cb in ["didLoad", "willAppear", "didAppear"]:
        lines.append(line(len(lines), "lifecycle", controller=ids[0], callback=cb))
    lines.append(line(len(lines), "move", **{"from": ids[0], "to": ids[1], "direction": "right", "trigger": "pan",
                                             "animated": True}))
    lines.append(line(len(lines), "lifecycle", controller=ids[0], callback="willDisappear"))
    lines.append(line(len(lines), "mark", label="</script><img src=x onerror=alert(12)>"))
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")


def check_hostile(browser, binary, workdir, f):
    journal = os.path.join(workdir, "hostile.ndjson")
    html = os.path.join(workdir, "hostile.html")
    hostile_journal(journal)
    r = subprocess.run([binary, "report", "--trace", journal, "-o", html], capture_output=True, text=True)
    f.expect(r.returncode == 0, "hostile: report exit %s: %s" % (r.returncode, r.stderr))
    url = "file://" + html
    browser.open(url)
    counts = browser.evaluate("""(() => ({
      scripts: document.querySelectorAll('script').length,
      img: document.querySelectorAll('img').length,
      svg: document.querySelectorAll('svg').length,
      b: document.querySelectorAll('header b').length - document.querySelectorAll('.facts b').length,
      handlers: Array.from(document.querySelectorAll('*')).filter(e => Array.from(e.attributes).some(a => /^on/i.test(a.name))).length,
      ids: Array.from(document.querySelectorAll('#panels [data-controller]')).map(e => e.getAttribute('data-controller')).sort(),
      text: document.body.textContent,
    }))()""")
    f.expect(counts["scripts"] == 3, "hostile: %d script elements (the data, the trace, the script)" % counts["scripts"])
    f.expect(counts["img"] == 0, "hostile: an injected <img>")
    f.expect(counts["svg"] == 1, "hostile: %d svg elements (the map is the only one)" % counts["svg"])
    f.expect(counts["handlers"] == 0, "hostile: %d elements with on* attributes" % counts["handlers"])
    f.expect(counts["ids"] == sorted(HOSTILE_IDS), "hostile: controllers %s" % counts["ids"])
    f.expect("<script>alert(4)</script>" in counts["text"], "hostile: the session shown as text")
    problems = browser.problems(url)
    f.expect(problems == [], "hostile: %s" % problems)
    # The session id is markup: the file is named with letters, digits and '_' only.
    check_trace_download(browser, binary, html, [journal], workdir, f, "hostile")
    name = browser.evaluate("document.getElementById('trace-download').getAttribute('download')")
    f.expect(name == "_script_alert_4_script_.trace.json", "hostile: trace saved as %r" % name)


def check_two_runs(browser, binary, workdir, shots, f, screenshots):
    a = "Journals/bisect/build-07.ndjson"
    b = "Journals/bisect/build-08.ndjson"
    html = os.path.join(workdir, "two.html")
    r = subprocess.run([binary, "report", "--trace", a, b, "-o", html], capture_output=True, text=True)
    f.expect(r.returncode == 0, "two runs: exit %s %s" % (r.returncode, r.stderr))
    diff = json.loads(subprocess.run([binary, "diff", "--json", a, b], capture_output=True, text=True).stdout)
    url = "file://" + html
    browser.open(url)
    dom = browser.evaluate("""(() => ({
      div: Array.from(document.querySelectorAll('[data-divergence]')).map(e => [e.dataset.a, e.dataset.b]),
      hunks: Array.from(document.querySelectorAll('[data-hunk]')).map(e => [e.dataset.hunk, e.dataset.a, e.dataset.b]),
    }))()""")
    fd = diff["firstDivergence"]
    want_div = [[str(fd["a"].get("seq", "")), str(fd["b"].get("seq", ""))]] if fd else []
    f.expect(dom["div"] == want_div, "two runs: divergence %s, diff --json %s" % (dom["div"], want_div))
    want_hunks = [[h["kind"], "%d-%d" % (h["a"]["from"], h["a"]["to"]), "%d-%d" % (h["b"]["from"], h["b"]["to"])]
                  for h in diff["hunks"]]
    f.expect(dom["hunks"] == want_hunks, "two runs: hunks %s, diff --json %s" % (dom["hunks"], want_hunks))
    # The cursor moves both sides: on the divergence row, A and B stand where the diff says.
    browser.evaluate("document.querySelector('[data-divergence]').click()")
    sides = browser.evaluate("Array.from(document.querySelectorAll('[data-run] .state .kv .v')).map(e => e.textContent)")
    f.expect(len(sides) >= 2, "two runs: two state panels")
    browser.key("ArrowRight")
    f.expect(browser.evaluate("document.body.dataset.row") is not None, "two runs: row after →")
    f.expect(browser.problems(url) == [], "two runs: %s" % browser.problems(url))
    check_trace_download(browser, binary, html, [a, b], workdir, f, "two runs")
    if screenshots:
        browser.evaluate("document.querySelector('[data-divergence]').click()")
        browser.screenshot(os.path.join(shots, "report-two-runs.png"))


SCALE_STATE = """(() => {
  const focus = document.querySelector('#panels [data-focus="true"]');
  const id = focus ? focus.getAttribute('data-controller') : null;
  const inside = (a, b) => a.left >= b.left - 0.5 && a.right <= b.right + 0.5 && a.top >= b.top - 0.5 && a.bottom <= b.bottom + 0.5;
  const wrap = document.getElementById('lanes-wrap');
  const w = wrap.getBoundingClientRect();
  const visible = { left: w.left, top: w.top, right: w.left + wrap.clientWidth, bottom: w.top + wrap.clientHeight };
  const lane = id === null ? null : document.querySelector('[data-lane="' + CSS.escape(id) + '"]');
  const svg = document.querySelector('#panels svg.map').getBoundingClientRect();
  const label = focus ? focus.querySelector('text.id').getBoundingClientRect() : null;
  const mini = document.querySelector('[data-minimap]');
  const mark = document.querySelector('[data-minimap-focus]');
  return {
    focus: id,
    lane: lane !== null && inside(lane.getBoundingClientRect(), visible),
    laneTop: lane !== null ? lane.getBoundingClientRect().top - w.top : null,
    scrollTop: wrap.scrollTop,
    box: focus !== null && inside(focus.getBoundingClientRect(), svg),
    labelPx: label ? label.height : 0,
    minimaps: document.querySelectorAll('[data-minimap]').length,
    mark: mark ? mark.getAttribute('data-minimap-focus') : null,
    markInside: mark !== null && mini !== null && inside(mark.getBoundingClientRect(), mini.getBoundingClientRect()),
    lanes: document.querySelectorAll('[data-lane]').length,
    alive: document.querySelectorAll('#panels [data-controller]').length,
    nonScaling: Array.from(document.querySelectorAll('#panels [data-edge] line')).every(l => getComputedStyle(l).vectorEffect === 'non-scaling-stroke'),
  };
})()"""


BOX_LABELS = """Array.from(document.querySelectorAll('#panels g.box')).map((g) => [
  g.getAttribute('data-controller'), g.querySelector('text.id').textContent.replace(/^\\* /, ''),
  (g.querySelector('title') || {}).textContent || ''])"""


def check_box_labels(browser, journal, f):
    """Every map box's label is its id, or its id shortened in the middle (its start, "…", its end) that
    keeps the id's instance number (#n, the recording guide's ids); the whole id is on hover (<title>)."""
    boxes = browser.evaluate(BOX_LABELS)
    bad = []
    for ident, label, title in boxes:
        head, cut, tail = label.partition("…")
        number = re.search(r"#[0-9]+$", ident)
        whole = label == ident
        middle = cut and head and ident.startswith(head) and ident.endswith(tail)
        if not (whole or middle) or (number and not label.endswith(number.group(0))) or not title.startswith(ident + " ("):
            bad.append((ident, label, title))
    f.expect(boxes and not bad, "%s: %d boxes, labels that lose their start or #n, or no whole id on hover: %s"
             % (journal, len(boxes), bad[:5]))


def check_scale(browser, binary, journal, html, f, shot=None):
    """A real app's scale: the focus's lane, box and minimap mark in view at the end and at several #seq=N,
    the DOM against at --json there, the filter box, the deallocated lanes' toggle, and a cursor step that
    touches only what changed."""
    url = "file://" + html
    browser.open(url, timeout=180)
    f.expect(browser.problems(url) == [], "%s: problems on load" % journal)
    records = journal_records(journal)
    seqs = [r["seq"] for _, r in records]
    for seq in [None, seqs[len(seqs) // 5], seqs[len(seqs) // 2], seqs[(4 * len(seqs)) // 5], seqs[1]]:
        if seq is not None:
            browser.open(url + "#seq=%d" % seq, timeout=180)
        where = "%s at %s" % (journal, "the end" if seq is None else "#seq=%d" % seq)
        got = browser.evaluate(SCALE_STATE)
        want = expected_state(binary, journal, seqs[-1] if seq is None else seq)
        dom = browser.evaluate(DOM_STATE)
        f.expect(dom["controllers"] == want["controllers"] and dom["focus"] == want["focus"]
                 and sorted(dom["edges"]) == want["edges"], "%s: DOM differs from at --json" % where)
        check_box_labels(browser, where, f)
        if not want["focus"]:
            continue
        f.expect(got["focus"] == want["focus"][0], "%s: focus %s" % (where, got["focus"]))
        f.expect(got["lane"] and got["scrollTop"] == 0, "%s: the focus's lane is not in view (%s)" % (where, got))
        f.expect(got["box"], "%s: the focus's box is not inside the map (%s)" % (where, got))
        f.expect(got["labelPx"] >= 8, "%s: the focus's label is %.1f px tall" % (where, got["labelPx"]))
        f.expect(got["minimaps"] == 1 and got["mark"] == got["focus"] and got["markInside"],
                 "%s: the minimap does not mark the focus (%s)" % (where, got))
        f.expect(got["lanes"] == got["alive"], "%s: %d lanes for %d alive" % (where, got["lanes"], got["alive"]))
        f.expect(got["nonScaling"], "%s: an edge's lines scale with the zoom" % where)
    # A cursor step touches only what changed: few mutations of the map and the lanes' labels.
    browser.open(url, timeout=180)
    touched = browser.evaluate("""(() => {
      let n = 0;
      const o = new MutationObserver((ms) => { n += ms.length; });
      o.observe(document.querySelector('#panels svg.map'), { subtree: true, attributes: true, childList: true, characterData: true });
      o.observe(document.getElementById('lane-labels'), { subtree: true, attributes: true, childList: true });
      document.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowLeft' }));
      n += o.takeRecords().length;
      o.disconnect();
      return [n, document.querySelectorAll('#panels [data-controller]').length];
    })()""")
    f.expect(touched[0] < max(60, touched[1] // 2), "%s: one step made %d changes to the map and lanes for %d boxes"
             % (journal, touched[0], touched[1]))
    # The filter box narrows lanes, state rows and log to a class.
    cls = browser.evaluate("document.querySelector('#panels [data-focus=\"true\"] title').textContent.replace(/^.*\\((.*)\\)$/, '$1')")
    narrowed = browser.evaluate("""(() => {
      const box = document.getElementById('filter');
      box.value = %s; box.dispatchEvent(new Event('input'));
      const q = %s.toLowerCase();
      const lanes = Array.from(document.querySelectorAll('[data-lane]')).map(e => e.title.toLowerCase());
      const rows = Array.from(document.querySelectorAll('.state [data-row]')).map(e => e.textContent.toLowerCase());
      const out = [lanes.length, lanes.every(t => t.includes(q)), rows.length, rows.every(t => t.includes(q))];
      box.value = ''; box.dispatchEvent(new Event('input'));
      return out;
    })()""" % (json.dumps(cls), json.dumps(cls)))
    f.expect(narrowed[0] >= 1 and narrowed[1] and narrowed[2] >= 1 and narrowed[3],
             "%s: filter %r gives %s" % (journal, cls, narrowed))
    counts = browser.evaluate("""(() => {
      const before = document.querySelectorAll('[data-lane]').length;
      const gone = document.getElementById('gone'); gone.click();
      const after = document.querySelectorAll('[data-lane]').length;
      gone.click();
      return [before, after, document.querySelectorAll('[data-lane]').length];
    })()""")
    f.expect(counts[1] >= counts[0] and counts[2] == counts[0], "%s: deallocated toggle %s" % (journal, counts))
    f.expect(browser.problems(url) == [], "%s: problems: %s" % (journal, browser.problems(url)))
    if shot:
        browser.open(url + "#seq=%d" % seqs[len(seqs) // 2], timeout=180)
        browser.screenshot(shot)


FOCUS_STATE = """(() => {
  const box = document.querySelector('#panels [data-focus="true"]');
  const row = document.querySelector('.state [data-row].focus');
  const text = (e, s) => { const t = e ? e.querySelector(s) : null; return t ? t.textContent : null; };
  return {
    seq: Number(document.body.dataset.seq),
    box: box ? box.getAttribute('data-controller') : null,
    boxTitle: text(box, 'title'),
    boxPhase: text(box, 'text.phase'),
    row: row ? row.getAttribute('data-row') : null,
    rowPhase: text(row, '.ph'),
  };
})()"""


def focus(binary, journal, workdir, count=50, window=()):
    """The page's focus box and its state panel agree with each other and with at --json at COUNT random
    events of the page's window (the automatic window of a large journal, or --from/--to)."""
    f = Failures()
    browser = Browser()
    try:
        html = os.path.join(workdir, os.path.basename(journal) + ".focus.html")
        r = subprocess.run([binary, "report", journal, "-o", html] + list(window), capture_output=True, text=True)
        f.expect(r.returncode in (0, 1), "%s: report exit %s %s" % (journal, r.returncode, r.stderr[-300:]))
        url = "file://" + html
        browser.open(url, timeout=600)
        # The window: the first and last seq of the page's events, from its data block.
        first, last = browser.evaluate("""(() => {
          const run = JSON.parse(document.querySelector('script[type="application/json"]').textContent).runs[0];
          let last = run.seq0; for (const x of run.dseq) last += x; return [run.seq0, last]; })()""")
        rng = random.Random(7)
        seqs = sorted(rng.randint(first, last) for _ in range(count))
        for seq in seqs:
            browser.open(url + "#seq=%d" % seq, timeout=600)
            got = browser.evaluate(FOCUS_STATE)
            at = json.loads(subprocess.run([binary, "at", "--json", journal, str(got["seq"])], capture_output=True,
                                           text=True, check=True).stdout)
            want = at["focus"]
            phase = next((c["phase"] for c in at["controllers"] if c["id"] == want and c["alive"]), None)
            where = "%s #seq=%d (shown %s)" % (journal, seq, got["seq"])
            f.expect(got["box"] == want, "%s: focus box %s, at says %s" % (where, got["box"], want))
            f.expect(got["row"] == want, "%s: state panel's focus %s, at says %s" % (where, got["row"], want))
            f.expect(want is None or (got["boxTitle"] or "").startswith(want + " ("),
                     "%s: focus box titled %r" % (where, got["boxTitle"]))
            f.expect(phase is None or (got["boxPhase"] or "").startswith(phase),
                     "%s: focus box says %r, at says %s" % (where, got["boxPhase"], phase))
            f.expect(phase is None or got["rowPhase"] == phase,
                     "%s: state panel says %r, at says %s" % (where, got["rowPhase"], phase))
    finally:
        browser.close()
    for item in f.items[:20]:
        print("FAIL: " + item)
    print("%d checks, %d failures" % (f.checks, len(f.items)))
    return 1 if f.items else 0


def scale(binary, journal, workdir, shot=None):
    f = Failures()
    browser = Browser()
    try:
        html = os.path.join(workdir, os.path.basename(journal) + ".html")
        r = subprocess.run([binary, "report", journal, "-o", html], capture_output=True, text=True)
        f.expect(r.returncode == 0, "%s: report exit %s %s" % (journal, r.returncode, r.stderr))
        check_scale(browser, binary, journal, html, f, shot)
    finally:
        browser.close()
    for item in f.items:
        print("FAIL: " + item)
    print("%d checks, %d failures" % (f.checks, len(f.items)))
    return 1 if f.items else 0


def test(binary, workdir, shots, screenshots):
    f = Failures()
    browser = Browser()
    # Journals by their paths from the repository's root, as a reader would type them (and as the screenshots show).
    os.chdir(ROOT)
    try:
        journals = sorted(os.path.join("Journals", n) for n in os.listdir("Journals") if n.endswith(".ndjson"))
        for journal in journals:
            html = os.path.join(workdir, os.path.basename(journal) + ".html")
            r = subprocess.run([binary, "report", "--trace", journal, "-o", html], capture_output=True, text=True)
            f.expect(r.returncode == 0, "%s: report exit %s %s" % (journal, r.returncode, r.stderr))
            prefix = "report" if screenshots and journal.endswith("notes.legacy.ndjson") else None
            check_single(browser, binary, journal, html, shots, f, prefix)
            check_trace_download(browser, binary, html, [journal], workdir, f, journal)
        # A window and a controller: the page's trace is trace's of the same options.
        journal = "Journals/demo.legacy.ndjson"
        html = os.path.join(workdir, "demo-window.html")
        options = ["--from", "20", "--to", "200", "--controller", "home,editor"]
        r = subprocess.run([binary, "report", "--trace"] + options + [journal, "-o", html], capture_output=True, text=True)
        f.expect(r.returncode == 0, "%s %s: report exit %s %s" % (journal, options, r.returncode, r.stderr))
        check_trace_download(browser, binary, html, options + [journal], workdir, f, "window and controllers")
        # A real app's scale: simulate's churn shape (200 screens, a new controller per modal).
        churn = os.path.join(workdir, "churn.ndjson")
        events = os.environ.get("SPATIAL_REPLAY_CHURN_EVENTS", "20000")
        subprocess.run([binary, "simulate", "--shape", "churn", "--events", events, "--seed", "5", "-o", churn],
                       check=True)
        html = os.path.join(workdir, "churn.html")
        r = subprocess.run([binary, "report", "--trace", churn, "-o", html], capture_output=True, text=True)
        f.expect(r.returncode == 0, "churn: report exit %s %s" % (r.returncode, r.stderr))
        check_scale(browser, binary, churn, html, f, os.path.join(shots, "report-churn.png") if screenshots else None)
        check_trace_download(browser, binary, html, [churn], workdir, f, "churn")
        check_hostile(browser, binary, workdir, f)
        check_two_runs(browser, binary, workdir, shots, f, screenshots)
    finally:
        browser.close()
    for item in f.items:
        print("FAIL: " + item)
    print("%d checks, %d failures" % (f.checks, len(f.items)))
    return 1 if f.items else 0


def bench(page, steps=40):
    """Ready time (navigation start to data-ready, ms) and one cursor step (ms): `steps` presses of ←
    from the middle (each replays from a keyframe: the worst case), then as many of → (one delta each)."""
    browser = Browser()
    try:
        url = "file://" + os.path.abspath(page)
        browser.open(url, timeout=120)
        ready = float(browser.evaluate("document.body.dataset.readyMs"))
        seq = browser.evaluate("Number(document.body.dataset.seq)")
        browser.open(url + "#seq=%d" % (seq // 2), timeout=120)
        times = browser.evaluate("""(() => {
          const step = (key) => {
            const t0 = performance.now();
            document.dispatchEvent(new KeyboardEvent('keydown', {key: key}));
            document.body.offsetHeight;
            return performance.now() - t0;
          };
          const back = [], forward = [];
          for (let k = 0; k < %d; k++) back.push(step('ArrowLeft'));
          for (let k = 0; k < %d; k++) forward.push(step('ArrowRight'));
          return [back, forward];
        })()""" % (steps, steps))
        # The same presses timed until the next frame has been drawn (a requestAnimationFrame, then a task).
        browser.open(url + "#seq=%d" % (seq // 2), timeout=120)
        frames = browser.evaluate("""(async () => {
          const frame = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
          await frame();
          const out = [];
          for (let k = 0; k < %d; k++) {
            const t0 = performance.now();
            document.dispatchEvent(new KeyboardEvent('keydown', {key: 'ArrowLeft'}));
            await frame();
            out.push(performance.now() - t0);
          }
          return out;
        })()""" % steps, wait=True)
        # Real key presses (DevTools input, trusted events), sent at random moments as a user's
        # are, so that they fall anywhere in the display's frame: from the event's time stamp to
        # the next frame drawn after the step (a requestAnimationFrame, then a task). The loop
        # above presses right after a frame, so it always waits a whole frame for the next.
        browser.open(url + "#seq=%d" % (seq // 2), timeout=120)
        browser.evaluate("""(() => {
          window.__latency = [];
          document.addEventListener('keydown', (e) => {
            const t0 = e.timeStamp;
            requestAnimationFrame(() => setTimeout(() => window.__latency.push(performance.now() - t0), 0));
          }, true);
        })()""")
        rng = random.Random(steps)
        for _ in range(steps):
            time.sleep(rng.uniform(0.04, 0.09))
            browser.key("ArrowLeft")
        time.sleep(0.2)
        presses = browser.evaluate("window.__latency")
        problems = browser.problems(url)
    finally:
        browser.close()
    median = lambda xs: sorted(xs)[len(xs) // 2]
    return {"readyMs": ready, "stepBackMedianMs": round(median(times[0]), 2),
            "stepForwardMedianMs": round(median(times[1]), 2), "stepMedianMs": round(median(times[0] + times[1]), 2),
            "stepMaxMs": round(max(times[0] + times[1]), 2), "frameMedianMs": round(median(frames), 2),
            "pressFrameMedianMs": round(median(presses), 2), "pressFrameMaxMs": round(max(presses), 2),
            "presses": len(presses), "problems": problems}


if __name__ == "__main__":
    if len(sys.argv) >= 2 and sys.argv[1] == "test":
        sys.exit(test(sys.argv[2], sys.argv[3], sys.argv[4], os.environ.get("SPATIAL_REPLAY_SCREENSHOTS") == "1"))
    if len(sys.argv) >= 5 and sys.argv[1] == "scale":
        sys.exit(scale(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5] if len(sys.argv) > 5 else None))
    if len(sys.argv) >= 5 and sys.argv[1] == "focus":
        rest = sys.argv[5:]
        n = int(rest.pop(0)) if rest and rest[0].isdigit() else 50
        sys.exit(focus(sys.argv[2], sys.argv[3], sys.argv[4], n, rest))
    if len(sys.argv) >= 3 and sys.argv[1] == "bench":
        print(json.dumps(bench(sys.argv[2])))
        sys.exit(0)
    print(__doc__, file=sys.stderr)
    sys.exit(64)

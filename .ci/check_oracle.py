#!/usr/bin/env python3
"""An independent oracle for the lifecycle and graph rules of `check`.

Written from the behaviour contract alone (the model's "Lifecycle rules" and the
journal format), not from the Swift checker, so that the two can be compared:
any difference is a bug in one of them or a gap in the contract.

Usage: check_oracle.py JOURNAL.ndjson... [--controllers]

Reads an NDJSON journal that is assumed well formed (a header at seq 0, seq
contiguous, every line a JSON object of a known or unknown type) and prints the
findings of the lifecycle and graph rules, one JSON object per line, sorted by
line: {"rule": ..., "seq": ..., "line": ...} (line: 1-based line in the file).
With --controllers each finding also lists the controllers involved; given
several journals, each finding starts with "file" (the path as given).
The journal integrity rules (malformed, seq-gap, unknown-type, ...) are not
judged here. Python 3.11, standard library only.

The rules, as this oracle reads them
------------------------------------
The fold: the graph (a link sets both ends and clears the links it replaces; an
unlink clears both ends), the root, the focus, the transition in flight, every
controller's appearance phase, last appearance callback, didLoad count,
fingers minimums, modals and presenters.

One defect, one finding:
- a lifecycle callback naming a controller never allocated (deallocated) gets
  unknown-controller (use-after-dealloc) only and changes nothing;
- an appearance callback gets at most one of appear-before-load, will-repeated,
  did-repeated, did-without-will, misattributed: the first that applies; its
  phase advances anyway;
- appear-before-load once per instance;
- a didAppear (didDisappear) while not appearing (disappearing) and not
  did-repeated makes its missing willAppear (willDisappear) count as arrived
  in the transition in flight, for incomplete-transition and for order;
- order once per transition, at the callback that arrives after one that
  should follow it;
- modal-leak once per modal; a leaked modal makes no slot-occupied (a modal
  presented into the slot it holds) and no dealloc-forbidden of its presenter.

Readings of points the contract leaves open (each one a choice; see the
numbered notes in the code, R1..R14):
R1  A non-lifecycle event naming a controller never allocated or deallocated
    gets one unknown-controller / use-after-dealloc per distinct such id and is
    otherwise ignored (changes no state), like a lifecycle callback. An `alloc`
    of a known id is id-reused only (and changes nothing).
R2  A self-link is reported and not applied.
R3  slot-occupied: the link that presents a modal is the first `link` whose
    `to` is a modal M never linked before and whose `from` is M's presenter;
    it is slot-occupied when `from`'s slot already holds another controller
    that is not a modal with a modal-leak. The link is applied anyway
    (replacing the occupant, as any link does).
R4  A `dealloc` is applied even when it is dealloc-forbidden (the instance is
    gone: later events naming it are use-after-dealloc). A dealloc also clears
    the links the controller still had (and their reverse links). One
    dealloc-forbidden per dealloc event, whatever the number of reasons.
R5  "Part of the transition in flight" means being its `from` or its `to` (the
    root, for the initial display). A callback of such a controller that is
    not one of the transition's expected callbacks (e.g. A.willAppear in a move
    from A) is not misattributed and arrives nowhere.
R6  An arrival is the first occurrence of one of the transition's expected
    callbacks (move: A.W-, B.W+, A.D-, B.D+; initial display: R.W+, R.D+),
    whatever other finding the callback itself got (will-repeated,
    did-repeated, ...). A did-repeated didAppear never stands for its will.
R7  order is judged for moves only (the contract names a move's four
    callbacks). A will that counts as arrived because of its did (see above)
    is never itself judged as late, but does count as arrived when later
    callbacks are judged.
R8  The transition in flight ends when all its expected callbacks have arrived
    (then the map is at rest) or when the next `move` starts.
R9  visible-count: a period at rest starts when a transition completes and ends
    at the next move; the state before the first transition completes is not
    "at rest" (nothing is on screen yet). The count of controllers whose phase
    is appeared is judged after every event of the period, reported at the
    first event where it is not 1. A deallocated controller keeps its last
    phase and still counts (a dealloc of the focus is dealloc-forbidden, not
    also a visible-count). A stray callback at rest that changes the count
    (e.g. a didAppear of another controller: did-without-will) does give a
    visible-count too: the contract names no exception for it.
R10 modal-leak, the cleanup window: it opens at the didAppear of P that is the
    arrival of the transition into P (a move with `to` P, or P's initial
    display) and holds P's didAppear and every event after it that is an
    `unlink`, a `dealloc` or a lifecycle callback of P; it closes at the first
    other event (or at the end of the journal) and is judged then: each modal
    of P (P is its presenter; nested modals of P's modals are not P's) that
    is alive at that point, has no modal-leak yet, is not the focus, and is
    linked to P or was unlinked from P by an unlink inside the window gets a
    modal-leak at P's didAppear line.
R11 modal-leak, a transition into P whose didAppear never arrives: judged when
    the next move is processed (its target already the focus), at that move's
    line, or at the journal's last line when none comes; there only the modals
    still linked to P count. A transition into P whose didAppear arrived but
    that is incomplete otherwise is judged by its window only.
R12 incomplete-transition, order, visible-count and the other findings are
    reported at the seq and line of the event they are reported at; end-of-
    journal findings at the last line.
R13 focus-mismatch and not-neighbour are judged independently (a move can get
    both); the move sets the focus to its `to` in every case.
R14 touches-violated: a pan with outcome `committed` whose `touches` is below
    the controller's minimum for that direction at that moment.
"""

import json
import sys

DIRECTIONS = ("left", "right", "up", "down")
OPPOSITE = {"left": "right", "right": "left", "up": "down", "down": "up"}
APPEARANCE = ("willAppear", "didAppear", "willDisappear", "didDisappear")
WILL_OF = {"didAppear": "willAppear", "didDisappear": "willDisappear"}
# The phase each appearance callback enters.
PHASE_AFTER = {
    "willAppear": "appearing",
    "didAppear": "appeared",
    "willDisappear": "disappearing",
    "didDisappear": "disappeared",
}


class Controller:
    def __init__(self, cid):
        self.id = cid
        self.alive = True
        self.links = {}  # direction -> controller id
        self.loads = 0
        self.phase = "disappeared"
        self.last_callback = None
        self.appear_before_load_reported = False
        self.presenter = None  # set by a `modal` event
        self.modals = []  # ids of the modals presented by this one, in order
        self.ever_linked = False
        self.leaked = False  # modal-leak reported
        self.minimums = {}  # direction -> fingers


class Transition:
    def __init__(self, kind, a, b):
        self.kind = kind  # "move" or "initial"
        self.a = a
        self.b = b
        if kind == "move":
            self.expected = [(a, "willDisappear"), (b, "willAppear"), (a, "didDisappear"), (b, "didAppear")]
        else:
            self.expected = [(b, "willAppear"), (b, "didAppear")]
        self.arrived = set()
        self.order_reported = False
        self.target_appeared = False

    def involves(self, cid):
        return cid == self.b or (self.kind == "move" and cid == self.a)

    def complete(self):
        return len(self.arrived) == len(self.expected)


class Oracle:
    def __init__(self):
        self.controllers = {}
        self.root = None
        self.focus = None
        self.transition = None  # the transition in flight
        self.at_rest = False
        self.visible_reported = False
        self.window = None  # the cleanup window after a presenter's didAppear
        self.findings = []
        self.line = 0
        self.seq = 0

    # -- findings ---------------------------------------------------------------

    def report(self, rule, controllers, seq=None, line=None):
        self.findings.append(
            {
                "rule": rule,
                "seq": self.seq if seq is None else seq,
                "line": self.line if line is None else line,
                "controllers": list(controllers),
            }
        )

    # -- helpers ----------------------------------------------------------------

    def known(self, ids):
        """R1: reports every named id that is unknown or deallocated; True when all are alive."""
        ok = True
        seen = set()
        for cid in ids:
            if cid in seen:
                continue
            seen.add(cid)
            c = self.controllers.get(cid)
            if c is None:
                self.report("unknown-controller", [cid])
                ok = False
            elif not c.alive:
                self.report("use-after-dealloc", [cid])
                ok = False
        return ok

    def clear_slot(self, cid, d):
        c = self.controllers[cid]
        other = c.links.pop(d, None)
        if other is not None:
            o = self.controllers[other]
            if o.links.get(OPPOSITE[d]) == cid:
                del o.links[OPPOSITE[d]]
        return other

    def linked(self, x, y):
        return y in self.controllers[x].links.values()

    def appeared_count(self):
        return sum(1 for c in self.controllers.values() if c.phase == "appeared")

    def judge_leaks(self, presenter, unlinked, seq, line):
        p = self.controllers[presenter]
        for mid in p.modals:
            m = self.controllers[mid]
            if not m.alive or m.leaked or mid == self.focus:
                continue
            if self.linked(presenter, mid) or mid in unlinked:
                m.leaked = True
                self.report("modal-leak", [mid, presenter], seq=seq, line=line)

    def close_window(self):
        w = self.window
        self.window = None
        self.judge_leaks(w["presenter"], w["unlinked"], w["seq"], w["line"])

    # -- events -----------------------------------------------------------------

    def event(self, rec):
        kind = rec.get("type")
        w = self.window
        if w is not None:
            stays = kind in ("unlink", "dealloc") or (kind == "lifecycle" and rec.get("controller") == w["presenter"])
            if not stays:
                self.close_window()
        handler = getattr(self, "on_" + str(kind), None)
        if handler is not None:
            handler(rec)
        if self.at_rest and not self.visible_reported:
            n = self.appeared_count()
            if n != 1:
                self.visible_reported = True
                appeared = sorted(c.id for c in self.controllers.values() if c.phase == "appeared")
                self.report("visible-count", appeared)

    def on_alloc(self, rec):
        cid = rec["controller"]
        if cid in self.controllers:
            self.report("id-reused", [cid])
            return
        self.controllers[cid] = Controller(cid)

    def on_root(self, rec):
        cid = rec["controller"]
        if not self.known([cid]):
            return
        self.root = cid
        if self.focus is None:
            self.focus = cid
            self.transition = Transition("initial", None, cid)
            self.at_rest = False

    def on_link(self, rec):
        a, d, b = rec["from"], rec["direction"], rec["to"]
        if not self.known([a, b]):
            return
        if a == b:  # R2
            self.report("self-link", [a])
            return
        ca, cb = self.controllers[a], self.controllers[b]
        if ca.links.get(d) == b:
            return
        # R3: the link that presents a modal.
        if cb.presenter == a and not cb.ever_linked:
            occupant = ca.links.get(d)
            if occupant is not None and not self.controllers[occupant].leaked:
                self.report("slot-occupied", [a, occupant, b])
        self.clear_slot(a, d)
        self.clear_slot(b, OPPOSITE[d])
        ca.links[d] = b
        cb.links[OPPOSITE[d]] = a
        ca.ever_linked = cb.ever_linked = True

    def on_unlink(self, rec):
        a, d = rec["from"], rec["direction"]
        if not self.known([a]):
            return
        other = self.clear_slot(a, d)
        w = self.window
        if w is not None and other is not None:
            p = w["presenter"]
            if a == p and self.controllers[other].presenter == p:
                w["unlinked"].add(other)
            elif other == p and self.controllers[a].presenter == p:
                w["unlinked"].add(a)

    def on_modal(self, rec):
        m, p = rec["controller"], rec["presenter"]
        if not self.known([m, p]):
            return
        cm = self.controllers[m]
        if cm.presenter is None:
            cm.presenter = p
            self.controllers[p].modals.append(m)

    def on_touches(self, rec):
        a, d, n = rec["controller"], rec["direction"], rec["min"]
        if not self.known([a]):
            return
        ca = self.controllers[a]
        ca.minimums[d] = n
        nb = ca.links.get(d)
        if nb is not None:
            self.controllers[nb].minimums[OPPOSITE[d]] = n

    def on_pan(self, rec):
        a, d = rec["controller"], rec["direction"]
        if not self.known([a]):
            return
        if rec.get("outcome") == "committed":  # R14
            needed = self.controllers[a].minimums.get(d, 1)
            if rec.get("touches", 1) < needed:
                self.report("touches-violated", [a])

    def on_move(self, rec):
        a, b, d = rec["from"], rec["to"], rec["direction"]
        if not self.known([a, b]):
            return
        if a != self.focus:  # R13
            self.report("focus-mismatch", [a] + ([self.focus] if self.focus is not None else []))
        if self.controllers[a].links.get(d) != b:
            self.report("not-neighbour", [a, b])
        ended = self.transition
        self.transition = None
        if ended is not None and not ended.complete():
            missing = [f"{c}.{cb}" for c, cb in ended.expected if (c, cb) not in ended.arrived]
            involved = [ended.b] if ended.kind == "initial" else [ended.a, ended.b]
            self.report("incomplete-transition", involved + missing)
        self.focus = b
        self.transition = Transition("move", a, b)
        self.at_rest = False
        # R11: a transition into P whose didAppear never came.
        if ended is not None and not ended.target_appeared and self.controllers[ended.b].alive:
            self.judge_leaks(ended.b, set(), self.seq, self.line)

    def on_dealloc(self, rec):
        x = rec["controller"]
        if not self.known([x]):
            return
        cx = self.controllers[x]
        t = self.transition
        forbidden = (
            x == self.root
            or x == self.focus
            or (t is not None and t.involves(x))
            or any(self.controllers[m].alive and not self.controllers[m].leaked for m in cx.modals)
        )
        if forbidden:  # R4
            self.report("dealloc-forbidden", [x])
        for d in DIRECTIONS:
            self.clear_slot(x, d)
        cx.alive = False

    def on_lifecycle(self, rec):
        cid, cb = rec["controller"], rec["callback"]
        if not self.known([cid]):
            return
        c = self.controllers[cid]
        if cb == "didLoad":
            c.loads += 1
            if c.loads > 1:
                self.report("load-repeated", [cid])
            return
        if cb not in APPEARANCE:
            return
        t = self.transition
        is_will = cb in ("willAppear", "willDisappear")
        repeated_did = not is_will and c.last_callback == cb
        wrong_phase_did = not is_will and c.phase != ("appearing" if cb == "didAppear" else "disappearing")
        if c.loads == 0 and not c.appear_before_load_reported:
            c.appear_before_load_reported = True
            self.report("appear-before-load", [cid])
        elif is_will and c.phase in (
            ("appearing", "appeared") if cb == "willAppear" else ("disappearing", "disappeared")
        ):
            self.report("will-repeated", [cid])
        elif repeated_did:
            self.report("did-repeated", [cid])
        elif wrong_phase_did:
            self.report("did-without-will", [cid])
        elif t is None or not t.involves(cid):
            self.report("misattributed", [cid])
        # A did standing for its missing will (R7: never judged late itself).
        if t is not None and wrong_phase_did and not repeated_did:
            key = (cid, WILL_OF[cb])
            if key in t.expected:
                t.arrived.add(key)
        # Arrival (R6) and order (R7).
        key = (cid, cb)
        if t is not None and key in t.expected and key not in t.arrived:
            if t.kind == "move" and not t.order_reported:
                later = t.expected[t.expected.index(key) + 1 :]
                if any(k in t.arrived for k in later):
                    t.order_reported = True
                    self.report("order", [t.a, t.b])
            t.arrived.add(key)
            if cb == "didAppear" and cid == t.b:
                t.target_appeared = True
                self.window = {"presenter": cid, "seq": self.seq, "line": self.line, "unlinked": set()}  # R10
            if t.complete():
                self.transition = None
                self.at_rest = True
                self.visible_reported = False
        c.phase = PHASE_AFTER[cb]
        c.last_callback = cb

    def finish(self):
        if self.window is not None:
            self.close_window()
        t = self.transition
        if t is not None and not t.complete():
            missing = [f"{c}.{cb}" for c, cb in t.expected if (c, cb) not in t.arrived]
            involved = [t.b] if t.kind == "initial" else [t.a, t.b]
            self.report("incomplete-transition", involved + missing)
            if not t.target_appeared and self.controllers[t.b].alive:
                self.judge_leaks(t.b, set(), self.seq, self.line)


def check_lines(lines):
    """The findings of one journal given as its lines (without line ends)."""
    oracle = Oracle()
    for number, text in enumerate(lines, start=1):
        if not text.strip():
            continue
        rec = json.loads(text)
        oracle.line = number
        oracle.seq = rec.get("seq", number - 1)
        oracle.event(rec)
    oracle.finish()
    return sorted(oracle.findings, key=lambda f: f["line"])


def main(argv):
    options = [a for a in argv[1:] if a.startswith("--")]
    paths = [a for a in argv[1:] if not a.startswith("--")]
    if not paths or any(o != "--controllers" for o in options):
        print("usage: check_oracle.py JOURNAL.ndjson... [--controllers]", file=sys.stderr)
        return 2
    for path in paths:
        with open(path, encoding="utf-8-sig") as f:
            lines = f.read().split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        for finding in check_lines([line.rstrip("\r") for line in lines]):
            if "--controllers" not in options:
                del finding["controllers"]
            if len(paths) > 1:
                finding = {"file": path, **finding}
            print(json.dumps(finding, separators=(",", ":")))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

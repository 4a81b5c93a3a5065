(function () {
  "use strict";
  const SVG = "http://www.w3.org/2000/svg";
  const D = JSON.parse(document.getElementById("report-data").textContent);
  const $ = (id) => document.getElementById(id);

  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  // Elements kept and refilled in place: a step changes texts and classes, not elements
  // (making and laying out new ones cost more than the rest of a step on a large map).
  function setText(e, t) { if (e.shownText !== t) { e.shownText = t; e.textContent = t; } }
  function setClass(e, c) { if (e.shownClass !== c) { e.shownClass = c; e.className = c; } }
  // The first n of host's kept children (made by make), the rest taken away.
  function keep(host, n, make, after) {
    const pool = host.pool || (host.pool = []);
    while (pool.length < n) pool.push(make());
    const base = after ? 1 : 0;
    for (let k = 0; k < n; k++) if (host.childNodes[base + k] !== pool[k]) host.insertBefore(pool[k], host.childNodes[base + k] || null);
    while (host.childNodes.length > base + n) host.removeChild(host.lastChild);
    return pool;
  }
  function svg(tag, attrs) {
    const e = document.createElementNS(SVG, tag);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    return e;
  }
  function prefix(first, deltas) {
    const out = new Float64Array(deltas.length);
    let v = first;
    for (let i = 0; i < deltas.length; i++) { v += deltas[i]; out[i] = v; }
    return out;
  }
  function upper(arr, v) { let lo = 0, hi = arr.length; while (lo < hi) { const m = (lo + hi) >> 1; if (arr[m] <= v) lo = m + 1; else hi = m; } return lo; }
  function lower(arr, v) { let lo = 0, hi = arr.length; while (lo < hi) { const m = (lo + hi) >> 1; if (arr[m] < v) lo = m + 1; else hi = m; } return lo; }
  // The offset of the first span (start, end, ...; `stride` numbers each, in order) ending at or after `from`.
  function firstSpan(arr, stride, from) {
    let lo = 0, hi = arr.length / stride;
    while (lo < hi) { const m = (lo + hi) >> 1; if (arr[m * stride + 1] < from) lo = m + 1; else hi = m; }
    return lo * stride;
  }
  // Sizes and scroll offsets read from the layout once and kept (on scroll and resize), so that a
  // cursor step writes to the DOM without reading it back: no forced layout in a step.
  const geom = { dirty: true, wrapW: 0, wrapH: 0, sx: 0, sy: 0, svgW: 0, svgH: 0 };
  function measure() {
    if (!geom.dirty) return geom;
    const wrap = document.getElementById("lanes-wrap"), map = document.querySelector("svg.map");
    geom.wrapW = wrap.clientWidth; geom.wrapH = wrap.clientHeight; geom.sx = wrap.scrollLeft; geom.sy = wrap.scrollTop;
    if (map) { geom.svgW = map.clientWidth || 600; geom.svgH = map.clientHeight || 360; }
    geom.dirty = false;
    return geom;
  }
  window.addEventListener("resize", () => { geom.dirty = true; });
  // A label in at most `max` characters: whole when it fits, else shortened in the middle, its start, "…"
  // and its end (Checkout…Controller#115), as TextWidth.middle shortens every label in Swift: the end keeps
  // at least the instance number (#115), the start half the room, less when a camel-case word ends a little
  // before. Characters are code points here (the page's font is proportional; the box's <title> has it all).
  function middle(text, max) {
    const c = Array.from(text);
    if (c.length <= max) return text;
    if (max <= 1) return max === 1 ? "…" : "";
    const room = max - 1;
    const m = /#[0-9]+$/.exec(text);
    const number = m ? Array.from(m[0]).length : 0;
    let start = Math.min(Math.floor(room / 2), room - Math.min(number, room));
    for (let i = Math.min(start, c.length - 1); i >= 1 && i >= start - Math.floor(room / 4); i--) {
      if (/\p{Lu}/u.test(c[i]) && /\p{Ll}/u.test(c[i - 1])) { start = i; break; }
    }
    return c.slice(0, start).join("") + "…" + c.slice(c.length - (room - start)).join("");
  }
  function fmtInt(n) { return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ","); }
  function timeOfDay(us) {
    const day = 86400000000; let m = us % day; if (m < 0) m += day;
    const ms = Math.floor(m / 1000);
    const two = (v) => (v < 10 ? "0" : "") + v;
    const f = ms % 1000;
    return two(Math.floor(ms / 3600000)) + ":" + two(Math.floor(ms / 60000) % 60) + ":" + two(Math.floor(ms / 1000) % 60) + "." + (f < 10 ? "00" : f < 100 ? "0" : "") + f;
  }
  function duration(us) {
    if (us < 1000) return us + " µs";
    if (us < 1000000) return (us / 1000).toFixed(1) + " ms";
    const s = us / 1000000;
    if (s < 120) return s.toFixed(2) + " s";
    const m = Math.floor(s / 60);
    return m < 120 ? m + " min " + Math.round(s % 60) + " s" : Math.floor(m / 60) + " h " + (m % 60) + " min";
  }

  // ---- A run: the data block's arrays, and the state after any event (keyframe + deltas).
  function prepare(R, tag) {
    R.tag = tag;
    R.n = R.k.length;
    const S = R.str;
    R.seq = prefix(R.seq0, R.dseq);
    R.line = prefix(R.line0, R.dline);
    R.time = prefix(R.t0, R.dt);
    R.seqIndex = new Map();
    for (let i = R.n - 1; i >= 0; i--) R.seqIndex.set(R.seq[i], i);
    R.ids = R.ids.map((s) => S[s]);
    R.shown = R.shown.map((s) => (s < 0 ? null : S[s]));
    R.classes = R.classes.map((s) => S[s]);
    R.lower = R.ids.map((id, l) => (id + "\u0000" + R.classes[l]).toLowerCase());
    for (const f of R.findings) {
      f[FINDING.message] = S[f[FINDING.message]];
      f[FINDING.source] = f[FINDING.source] < 0 ? "" : S[f[FINDING.source]];
    }
    for (const t of R.transitions) t[TRANSITION.summary] = S[t[TRANSITION.summary]];
    R.label = (l) => (l < 0 ? "none" : R.shown[l] !== null ? R.shown[l] : R.ids[l]);
    const moveType = R.types.indexOf("move");
    const lifeType = R.types.indexOf("lifecycle");
    R.lifeType = lifeType;
    // The event's `log` sentence: a template from the string table with the lanes' names put back.
    R.sentence = (i) => {
      const t = R.text[i];
      if (t < 0) return S[-1 - t];
      const s = S[t];
      if (s.indexOf("\uE000") < 0 && s.indexOf("\uE001") < 0) return s;
      const a = R.label(R.a[i]), b = R.k[i] !== lifeType && R.b[i] >= 0 ? R.label(R.b[i]) : null;
      return s.replace(/[\uE000\uE001]/g, (c) => (c === "\uE000" ? a : b !== null ? b : c));
    };
    R.moveIdx = [];
    R.ticks = R.ids.map(() => []);
    R.marks = R.ids.map(() => []);
    // Every event that names a lane, per lane: what "recently active" is read from.
    R.act = R.ids.map(() => []);
    for (let i = 0; i < R.n; i++) {
      const k = R.k[i], a = R.a[i];
      if (k === moveType) R.moveIdx.push(i);
      else if (k === lifeType && a >= 0) R.ticks[a].push(i);
      else if (a >= 0 && R.types[k] !== "pan") R.marks[a].push(i);
      if (a >= 0) R.act[a].push(i);
      if (k !== lifeType && R.b[i] >= 0 && R.b[i] !== a) R.act[R.b[i]].push(i);
    }
    // Phase bars and alive spans per lane, read off the deltas.
    R.bars = R.ids.map(() => []);
    R.alive = R.ids.map(() => []);
    const phase = new Int8Array(R.ids.length).fill(-1);
    const since = new Int32Array(R.ids.length);
    const born = new Int32Array(R.ids.length).fill(-1);
    function setRow(row, i) {
      const l = row[ROW.lane];
      const p = row.length > 1 ? row[ROW.phase] : -1;
      if (p === phase[l]) return;
      if (phase[l] >= 0 && R.phases[phase[l]] !== "disappeared") R.bars[l].push(since[l], i, phase[l]);
      if (p < 0 && born[l] >= 0) { R.alive[l].push(born[l], i); born[l] = -1; }
      if (p >= 0 && born[l] < 0) born[l] = i;
      phase[l] = p; since[l] = i;
    }
    if (R.n > 0) for (const row of R.keys[0].r) setRow(row, 0);
    for (let i = 1; i < R.n; i++) { const d = R.d[i]; if (d && d.r) for (const row of d.r) setRow(row, i); }
    for (let l = 0; l < R.ids.length; l++) {
      if (phase[l] >= 0 && R.phases[phase[l]] !== "disappeared") R.bars[l].push(since[l], R.n, phase[l]);
      if (born[l] >= 0) R.alive[l].push(born[l], R.n);
    }
    R.keyAt = R.keys.map((k) => k.i);
    R.fullAt = [];
    R.layouts.forEach((L, j) => { if (L.full) R.fullAt.push(j); });
    R.lay = null;
    R.findingIdx = R.findings.map((f) => f[FINDING.event]).filter((i) => i >= 0).sort((x, y) => x - y);
    R.sel = R.sel ? prefix(0, R.sel) : null;
    R.cur = null;
    return R;
  }

  // The state after event i: the keyframe at or before it, then the deltas after it.
  function stateAt(R, i) {
    const c = R.cur;
    if (c && c.i === i) return c;
    // The last few states, so that stepping back and forth replays nothing.
    const recent = R.recent || (R.recent = []);
    for (const r of recent) if (r.i === i) { R.cur = r; return r; }
    let s;
    if (c && c.i === i - 1) {
      s = { i: i, rows: new Map(c.rows), f: c.f, t: c.t, l: c.l };
      apply(s, R.d[i]);
    } else {
      const kf = R.keys[Math.max(0, upper(R.keyAt, i) - 1)];
      s = { i: kf.i, rows: new Map(), f: kf.f, t: kf.t, l: kf.l };
      for (const r of kf.r) s.rows.set(r[ROW.lane], r);
      for (let j = kf.i + 1; j <= i; j++) apply(s, R.d[j]);
      s.i = i;
    }
    R.cur = s;
    recent.push(s);
    if (recent.length > 8) recent.shift();
    return s;
  }
  function apply(s, d) {
    if (!d) return;
    if (d.r) for (const r of d.r) { if (r.length === 1) s.rows.delete(r[ROW.lane]); else s.rows.set(r[ROW.lane], r); }
    if ("f" in d) s.f = d.f;
    if ("t" in d) s.t = d.t;
    if ("l" in d) s.l = d.l;
  }

  // The map's layout number j: the whole layout at or before it, then the changes after it
  // (or only the changes since the layout last materialised, going forward).
  function layoutAt(R, j) {
    let L = R.lay;
    if (L && L.j === j) return L;
    const full = R.fullAt[Math.max(0, upper(R.fullAt, j) - 1)];
    let from;
    if (L && L.j < j && L.j >= full) from = L.j + 1;
    else { L = { j: -1, root: -1, p: new Map(), d: new Map(), e: new Map() }; from = full; }
    for (let k = from; k <= j; k++) {
      const E = R.layouts[k];
      if (E.full) { L.p.clear(); L.d.clear(); L.e.clear(); }
      if ("root" in E) L.root = E.root;
      for (const p of E.p) { if (p.length === 1) L.p.delete(p[PLACEMENT.lane]); else L.p.set(p[PLACEMENT.lane], p); }
      for (const d of E.d) { if (d.length === 1) L.d.delete(d[DETACHED.lane]); else L.d.set(d[DETACHED.lane], d); }
      for (const e of E.e) { const key = e[EDGE.a] + "," + e[EDGE.b]; if (e[EDGE.lines] === 0) L.e.delete(key); else L.e.set(key, e); }
    }
    L.j = j;
    R.lay = L;
    return L;
  }

  // ---- The map (SVG): a box per controller, a line per link, two where a pan needs two fingers.
  // Opened at a legible scale (one unit a pixel) centred on the focus, following it; a minimap
  // in the corner shows the whole map, the visible window and the focus.
  const CW = 150, CH = 78, BW = 118, BH = 38;
  function MapView(R, host) {
    this.R = R;
    this.host = host;
    const frame = el("div", "mapframe");
    this.svg = svg("svg", { class: "map", role: "img", "aria-label": "map of controllers" });
    const defs = svg("defs", {});
    const marker = svg("marker", { id: "arrow-" + R.tag, viewBox: "0 0 10 10", refX: "9", refY: "5", markerWidth: "7", markerHeight: "7", orient: "auto-start-reverse" });
    marker.appendChild(svg("path", { d: "M0,0 L10,5 L0,10 z", class: "arrowhead" }));
    defs.appendChild(marker);
    this.svg.appendChild(defs);
    this.g = svg("g", {});
    this.edgeLayer = svg("g", { class: "edges" });
    this.stripLabel = svg("text", { class: "strip-label" });
    this.stripLabel.textContent = "detached (not reachable from the root)";
    this.boxLayer = svg("g", { class: "boxes" });
    this.arrow = svg("line", { class: "flight", "marker-end": "url(#arrow-" + R.tag + ")" });
    this.arrow.style.display = "none";
    this.g.append(this.edgeLayer, this.stripLabel, this.boxLayer, this.arrow);
    this.svg.appendChild(this.g);
    frame.appendChild(this.svg);
    // The minimap: a canvas of every box, the visible window and the focus's mark.
    this.mini = el("div", "minimap");
    this.mini.setAttribute("data-minimap", "");
    this.miniCanvas = el("canvas");
    this.miniView = el("div", "mm-view");
    this.miniFocus = el("div", "mm-focus");
    this.mini.append(this.miniCanvas, this.miniView, this.miniFocus);
    frame.appendChild(this.mini);
    host.appendChild(frame);
    this.layout = -1;
    this.boxes = new Map();
    this.edges = new Map();
    this.view = null;
    this.bounds = [0, 0, BW, BH];
    this.focus = -1;
    const self = this;
    this.svg.addEventListener("wheel", function (e) {
      e.preventDefault();
      const v = self.view; if (!v) return;
      const r = self.svg.getBoundingClientRect();
      const px = v[0] + (e.clientX - r.left) / r.width * v[2], py = v[1] + (e.clientY - r.top) / r.height * v[3];
      const z = e.deltaY > 0 ? 1.15 : 1 / 1.15;
      self.setView([px - (px - v[0]) * z, py - (py - v[1]) * z, v[2] * z, v[3] * z]);
    }, { passive: false });
    let drag = null;
    this.svg.addEventListener("pointerdown", function (e) { drag = [e.clientX, e.clientY, self.view]; self.svg.setPointerCapture(e.pointerId); });
    this.svg.addEventListener("pointermove", function (e) {
      if (!drag || !drag[2]) return;
      const r = self.svg.getBoundingClientRect(), v = drag[2];
      self.setView([v[0] - (e.clientX - drag[0]) / r.width * v[2], v[1] - (e.clientY - drag[1]) / r.height * v[3], v[2], v[3]]);
    });
    this.svg.addEventListener("pointerup", function () { drag = null; });
    this.svg.addEventListener("dblclick", function () { self.fit(); });
    this.mini.addEventListener("click", function (e) {
      const r = self.miniCanvas.getBoundingClientRect(), m = self.miniScale;
      if (!m) return;
      self.centre(m.x0 + (e.clientX - r.left) / m.k, m.y0 + (e.clientY - r.top) / m.k);
    });
  }
  MapView.prototype.setView = function (v) {
    this.view = v;
    this.svg.setAttribute("viewBox", v.join(" "));
    this.cull();
    this.drawMiniView();
  };
  // Only the boxes and links near the visible window are drawn (the others stay in the page,
  // hidden): a step lays out and paints tens of them, not every controller of a large map.
  MapView.prototype.cull = function () {
    const v = this.view;
    if (!v) return;
    const x0 = v[0] - CW, y0 = v[1] - CH, x1 = v[0] + v[2] + CW, y1 = v[1] + v[3] + CH;
    const show = (e, on) => { if (e.shown !== on) { e.shown = on; e.g.style.display = on ? "" : "none"; } };
    for (const b of this.boxes.values()) show(b, b.x < x1 && b.x + BW > x0 && b.y < y1 && b.y + BH > y0);
    for (const d of this.edges.values()) {
      const c = d.box;
      show(d, c !== null && c[0] < x1 && c[2] > x0 && c[1] < y1 && c[3] > y0);
    }
  };
  // One unit a pixel: labels at their CSS size.
  MapView.prototype.centre = function (x, y) {
    const w = measure().svgW, h = geom.svgH;
    const v = this.view, k = v ? v[2] / w : 1;
    this.setView([x - w * k / 2, y - h * k / 2, w * k, h * k]);
  };
  MapView.prototype.home = function () {
    const w = measure().svgW, h = geom.svgH;
    this.view = [0, 0, w, h];
    const b = this.boxes.get(this.focus);
    if (b) this.centre(b.x + BW / 2, b.y + BH / 2); else this.fit();
  };
  MapView.prototype.fit = function () {
    const b = this.bounds;
    const w = measure().svgW, h = geom.svgH;
    const bw = Math.max(b[2] - b[0] + 40, 300), bh = Math.max(b[3] - b[1] + 40, 160);
    const k = Math.max(bw / w, bh / h);
    this.setView([(b[0] + b[2]) / 2 - w * k / 2, (b[1] + b[3]) / 2 - h * k / 2, w * k, h * k]);
  };
  // Brings the map to layout L: only the boxes and links that changed are touched.
  MapView.prototype.sync = function (L) {
    const R = this.R;
    let minX = 0, minY = 0, maxX = 0, maxY = 0, first = true;
    for (const p of L.p.values()) {
      const x = p[PLACEMENT.x], y = p[PLACEMENT.y];
      if (first) { minX = maxX = x; minY = maxY = y; first = false; }
      if (x < minX) minX = x; if (x > maxX) maxX = x; if (y < minY) minY = y; if (y > maxY) maxY = y;
    }
    const want = new Map();
    for (const p of L.p.values()) want.set(p[PLACEMENT.lane], [p[PLACEMENT.x] * CW, p[PLACEMENT.y] * CH, p[PLACEMENT.modal] === 1, false]);
    // Detached controllers: rows under the map, in lane order.
    const detached = Array.from(L.d.keys()).sort((a, b) => a - b);
    const cols = Math.max(8, maxX - minX + 1);
    const stripY = (first ? 0 : maxY + 1) * CH + 34;
    detached.forEach((l, k) => want.set(l, [(minX + (k % cols)) * CW, stripY + Math.floor(k / cols) * CH, L.d.get(l)[DETACHED.modal] === 1, true]));
    for (const [lane, b] of this.boxes) if (!want.has(lane)) { b.g.remove(); this.boxes.delete(lane); }
    for (const [lane, w] of want) {
      let b = this.boxes.get(lane);
      if (!b) { b = this.box(lane); this.boxes.set(lane, b); }
      if (b.x !== w[0] || b.y !== w[1]) { b.x = w[0]; b.y = w[1]; b.g.setAttribute("transform", "translate(" + w[0] + "," + w[1] + ")"); }
      if (b.modal !== w[2]) {
        b.modal = w[2];
        if (w[2]) b.g.setAttribute("data-modal", "true"); else b.g.removeAttribute("data-modal");
        b.name.textContent = (w[2] ? "* " : "") + b.short;
      }
      if (b.detached !== w[3]) { b.detached = w[3]; b.cls = null; }
      const root = lane === L.root;
      if (b.root !== root) { b.root = root; if (root) b.g.setAttribute("data-root", "true"); else b.g.removeAttribute("data-root"); }
    }
    for (const [key, e] of this.edges) if (!L.e.has(key)) { e.g.remove(); this.edges.delete(key); }
    for (const [key, e] of L.e) {
      const a = this.boxes.get(e[EDGE.a]), b = this.boxes.get(e[EDGE.b]);
      let d = this.edges.get(key);
      const n = e[EDGE.lines];
      if (d && d.n !== n) { d.g.remove(); this.edges.delete(key); d = null; }
      if (!d) {
        const g = svg("g", { "data-edge": "", class: n === 2 ? "edge double" : "edge" });
        g.setAttribute("data-a", R.ids[e[EDGE.a]]);
        g.setAttribute("data-b", R.ids[e[EDGE.b]]);
        g.setAttribute("data-lines", String(n));
        // Two lines: a wide stroke and a narrow one of the background's colour inside it, both
        // of a constant width on screen, so that they stay two lines at every zoom.
        for (let k = 0; k < n; k++) g.appendChild(svg("line", { class: k === 0 ? "outer" : "inner" }));
        d = { g: g, n: n, pos: "", box: null, shown: true };
        this.edgeLayer.appendChild(g);
        this.edges.set(key, d);
      }
      const pos = a.x + "," + a.y + "," + b.x + "," + b.y;
      if (d.pos !== pos) {
        d.pos = pos;
        d.box = [Math.min(a.x, b.x), Math.min(a.y, b.y), Math.max(a.x, b.x) + BW, Math.max(a.y, b.y) + BH];
        for (const line of d.g.childNodes) {
          line.setAttribute("x1", a.x + BW / 2); line.setAttribute("y1", a.y + BH / 2);
          line.setAttribute("x2", b.x + BW / 2); line.setAttribute("y2", b.y + BH / 2);
        }
      }
    }
    this.stripLabel.style.display = detached.length ? "" : "none";
    this.stripLabel.setAttribute("x", minX * CW); this.stripLabel.setAttribute("y", stripY - 10);
    const rows = Math.ceil(detached.length / cols);
    this.bounds = [minX * CW, minY * CH, Math.max(maxX + 1, minX + Math.min(cols, detached.length)) * CW - (CW - BW), detached.length ? stripY + (rows - 1) * CH + BH : (maxY * CH + BH)];
    this.cull();
    this.drawMini();
  };
  MapView.prototype.box = function (lane) {
    const R = this.R;
    const g = svg("g", { class: "box" });
    g.setAttribute("data-controller", R.ids[lane]);
    g.appendChild(svg("rect", { width: BW, height: BH, rx: 6 }));
    const name = svg("text", { x: BW / 2, y: 16, class: "id" });
    const short = middle(R.label(lane), 15);
    name.textContent = short;
    g.appendChild(name);
    const phase = svg("text", { x: BW / 2, y: 30, class: "phase" });
    g.appendChild(phase);
    const title = svg("title", {});
    title.textContent = R.label(lane) + " (" + R.classes[lane] + ")";
    g.appendChild(title);
    g.addEventListener("click", () => showController(R, lane));
    this.boxLayer.appendChild(g);
    return { g: g, name: name, phase: phase, short: short, x: null, y: null, modal: false, detached: false, root: false, cls: null, text: null, shown: true };
  };
  MapView.prototype.draw = function (s) {
    const R = this.R;
    if (s.l !== this.layout) { this.layout = s.l; this.sync(layoutAt(R, s.l)); }
    const focusMoved = s.f !== this.focus;
    if (focusMoved) {
      const old = this.boxes.get(this.focus);
      if (old) old.g.removeAttribute("data-focus");
      this.focus = s.f;
      const now = this.boxes.get(s.f);
      if (now) now.g.setAttribute("data-focus", "true");
    }
    // Only what changed reaches the DOM.
    for (const [lane, b] of this.boxes) {
      const row = s.rows.get(lane);
      const phase = row ? PHASES[row[ROW.phase]] : "gone";
      const cls = (b.detached ? "box detached " : "box ") + phase + (lane === s.f ? " focus" : "");
      if (b.cls !== cls) { b.cls = cls; b.g.setAttribute("class", cls); }
      const text = phase + (row && row[ROW.loads] === 0 ? " · not loaded" : row && row[ROW.loads] > 1 ? " · loaded ×" + row[ROW.loads] : "");
      if (b.text !== text) { b.text = text; b.phase.textContent = text; }
      if (lane === s.f && !b.g.hasAttribute("data-focus")) b.g.setAttribute("data-focus", "true");
    }
    this.follow();
    const t = s.t ? R.transitions[s.t[STATUS.transition]] : null;
    const from = t ? this.boxes.get(t[TRANSITION.from]) : null, to = t ? this.boxes.get(t[TRANSITION.to]) : null;
    if (t && s.t[STATUS.inFlight] === 1 && from && to) {
      const a = [from.x + BW / 2, from.y + BH / 2], b = [to.x + BW / 2, to.y + BH / 2];
      const dx = b[0] - a[0], dy = b[1] - a[1], len = Math.hypot(dx, dy) || 1;
      const sx = Math.min(BW / 2 / Math.abs(dx / len || 1e-9), BH / 2 / Math.abs(dy / len || 1e-9));
      this.arrow.setAttribute("x1", a[0] + dx / len * sx); this.arrow.setAttribute("y1", a[1] + dy / len * sx);
      this.arrow.setAttribute("x2", b[0] - dx / len * (sx + 2)); this.arrow.setAttribute("y2", b[1] - dy / len * (sx + 2));
      this.arrow.style.display = "";
    } else this.arrow.style.display = "none";
    this.drawMiniFocus();
  };
  // Keeps the focus in view: the view moves (at its zoom) when the focus's box leaves its inner part.
  MapView.prototype.follow = function () {
    const b = this.boxes.get(this.focus);
    if (!this.view) { this.home(); return; }
    if (!b) return;
    const v = this.view, mx = Math.min(v[2] / 8, 60), my = Math.min(v[3] / 8, 40);
    if (b.x < v[0] + mx || b.y < v[1] + my || b.x + BW > v[0] + v[2] - mx || b.y + BH > v[1] + v[3] - my) this.centre(b.x + BW / 2, b.y + BH / 2);
  };
  const MINI_W = 180, MINI_H = 110;
  MapView.prototype.drawMini = function () {
    const b = this.bounds, c = this.miniCanvas;
    const pad = 40, x0 = b[0] - pad, y0 = b[1] - pad, w = b[2] - b[0] + 2 * pad, h = b[3] - b[1] + 2 * pad;
    const k = Math.min(MINI_W / w, MINI_H / h);
    const cw = Math.max(24, Math.ceil(w * k)), ch = Math.max(16, Math.ceil(h * k));
    this.miniScale = { x0: x0, y0: y0, k: k };
    const dpr = window.devicePixelRatio || 1;
    c.width = cw * dpr; c.height = ch * dpr; c.style.width = cw + "px"; c.style.height = ch + "px";
    const g = c.getContext("2d");
    g.setTransform(dpr, 0, 0, dpr, 0, 0);
    g.fillStyle = "rgba(251,252,253,0.92)"; g.fillRect(0, 0, cw, ch);
    for (const box of this.boxes.values()) {
      g.fillStyle = box.detached ? "#b9c2cc" : "#7d8a97";
      g.fillRect((box.x - x0) * k, (box.y - y0) * k, Math.max(1.5, BW * k), Math.max(1, BH * k));
    }
    this.drawMiniView();
    this.drawMiniFocus();
  };
  MapView.prototype.drawMiniView = function () {
    const m = this.miniScale, v = this.view;
    if (!m || !v) return;
    const st = this.miniView.style;
    st.left = (v[0] - m.x0) * m.k + "px"; st.top = (v[1] - m.y0) * m.k + "px";
    st.width = v[2] * m.k + "px"; st.height = v[3] * m.k + "px";
  };
  MapView.prototype.drawMiniFocus = function () {
    const m = this.miniScale, b = this.boxes.get(this.focus), f = this.miniFocus;
    if (!m || !b) { f.style.display = "none"; f.removeAttribute("data-minimap-focus"); return; }
    f.style.display = "";
    f.setAttribute("data-minimap-focus", this.R.ids[this.focus]);
    f.style.left = (b.x + BW / 2 - m.x0) * m.k - 4 + "px";
    f.style.top = (b.y + BH / 2 - m.y0) * m.k - 4 + "px";
  };

  // ---- The filter box: narrows lanes, state rows and the log to controllers whose id or class holds the text.
  let filterText = "";
  function matches(R, l) { return !filterText || (l >= 0 && R.lower[l].indexOf(filterText) >= 0); }

  // The alive controllers at the state s, the focus first, then the most recently active.
  function aliveOrder(R, s) {
    const out = [], last = new Map();
    for (const l of s.rows.keys()) {
      if (!matches(R, l)) continue;
      const act = R.act[l];
      last.set(l, l === s.f ? Infinity : act.length ? act[Math.max(0, upper(act, s.i) - 1)] : -1);
      out.push(l);
    }
    out.sort((a, b) => last.get(b) - last.get(a) || a - b);
    return out;
  }

  // ---- The state panel: what `at` prints; the controllers in a virtual list (only the rows in view exist).
  const ROWH = 19;
  function StateView(host) {
    this.host = host;
    this.head = el("div", "kvs");
    this.count = el("div", "kv");
    const table = el("div", "ctl");
    const head = el("div", "ctl-row ctl-head");
    for (const h of ["controller", "class", "phase", "loaded", "modal"]) head.appendChild(el("span", "", h));
    this.list = el("div", "ctl-list");
    this.spacer = el("div", "ctl-spacer");
    this.list.appendChild(this.spacer);
    table.append(head, this.list);
    host.append(this.head, this.count, table);
    this.order = [];
    this.top = 0;
    this.list.addEventListener("scroll", () => { this.top = this.list.scrollTop; this.rows(); }, { passive: true });
  }
  StateView.prototype.draw = function (R, s) {
    this.R = R; this.s = s;
    const lines = [];
    const line = (k, v, cls) => lines.push([k, v, cls]);
    line("event", "#" + R.seq[s.i] + " · line " + R.line[s.i] + " · " + timeOfDay(R.time[s.i]));
    line("focus", R.label(s.f));
    if (s.t) {
      const t = R.transitions[s.t[STATUS.transition]];
      const inFlight = s.t[STATUS.inFlight] === 1;
      line(inFlight ? "in flight" : "transition", t[TRANSITION.summary] + (inFlight ? "" : ", complete"), inFlight ? "warn" : "");
      if (inFlight) {
        const got = t[TRANSITION.arrivals], exp = t[TRANSITION.expected];
        const arr = [];
        for (let k = 0; k < s.t[STATUS.arrived]; k++) arr.push(R.label(got[2 * k]) + " " + R.callbacks[got[2 * k + 1]]);
        const miss = [];
        for (let k = 0; k < exp.length / 2; k++) if (s.t[STATUS.missing] & (1 << k)) miss.push(R.label(exp[2 * k]) + " " + R.callbacks[exp[2 * k + 1]]);
        line("arrived", arr.length ? arr.join(", ") : "none");
        line("missing", miss.join(", "), "bad");
      }
    } else line("transition", "none");
    const kvs = keep(this.head, lines.length, () => {
      const p = el("div", "kv");
      p.k = el("span", "k"); p.v = el("span", "v");
      p.append(p.k, p.v);
      return p;
    });
    lines.forEach((l, k) => { setClass(kvs[k], "kv " + (l[2] || "")); setText(kvs[k].k, l[0]); setText(kvs[k].v, l[1]); });
    this.order = aliveOrder(R, s);
    this.count.textContent = s.rows.size + " alive" + (filterText ? ", " + this.order.length + " matching" : "");
    this.spacer.style.height = this.order.length * ROWH + "px";
    this.rows();
  };
  StateView.prototype.rows = function () {
    const R = this.R, s = this.s;
    if (!R) return;
    // The list is at most the panel's 250 px tall: its scroll offset is kept from its scroll events.
    const top = this.top, h = 250;
    const k0 = Math.max(0, Math.floor(top / ROWH) - 2), k1 = Math.min(this.order.length, Math.ceil((top + h) / ROWH) + 2);
    if (this.list.firstChild !== this.spacer) this.list.insertBefore(this.spacer, this.list.firstChild);
    const rows = keep(this.list, Math.max(0, k1 - k0), () => {
      const row = el("div", "ctl-row");
      row.cells = [0, 1, 2, 3, 4].map(() => el("span"));
      row.append(...row.cells);
      return row;
    }, true);
    for (let k = k0; k < k1; k++) {
      const l = this.order[k], r = s.rows.get(l), row = rows[k - k0], c = row.cells;
      setClass(row, "ctl-row" + (l === s.f ? " focus" : ""));
      if (row.at !== k) { row.at = k; row.style.transform = "translateY(" + k * ROWH + "px)"; }
      if (row.lane !== l || row.R !== R) { row.lane = l; row.R = R; row.setAttribute("data-row", R.ids[l]); }
      setText(c[0], R.label(l));
      setClass(c[1], "dim"); setText(c[1], R.classes[l]);
      const phase = PHASES[r[ROW.phase]];
      setClass(c[2], "ph " + phase); setText(c[2], phase);
      const loads = r[ROW.loads];
      setClass(c[3], loads > 1 ? "bad" : ""); setText(c[3], loads === 0 ? "no" : loads === 1 ? "yes" : loads + " times");
      setText(c[4], r[ROW.modal] ? "by " + R.label(r[ROW.presenter]) : "");
    }
  };

  // ---- The log window: the `log` sentences around the cursor (with a filter, the events naming a match).
  function drawLog(R, i, host) {
    let list = null;
    if (R.sel) {
      const k = lower(R.sel, i);
      list = Array.from(R.sel.subarray(Math.max(0, k - 8), Math.min(R.sel.length, k + 9)));
    }
    if (filterText) {
      const src = list;
      const ok = (j) => matches(R, R.a[j]) || (R.k[j] !== R.lifeType && R.b[j] >= 0 && matches(R, R.b[j]));
      const before = [], after = [];
      if (src) { for (const j of src) if (ok(j)) (j <= i ? before : after).push(j); }
      else {
        for (let j = i, n = 0; j >= 0 && before.length < 9 && n < 50000; j--, n++) if (ok(j)) before.unshift(j);
        for (let j = i + 1, n = 0; j < R.n && after.length < 8 && n < 50000; j++, n++) if (ok(j)) after.push(j);
      }
      list = before.concat(after);
    }
    const from = list ? 0 : Math.max(0, i - 8), to = list ? list.length - 1 : Math.min(R.n - 1, i + 8);
    const rows = keep(host, Math.max(0, to - from + 1), () => {
      const row = el("div", "logline");
      row.tm = el("span", "tm"); row.sq = el("span", "sq"); row.tx = el("span", "tx");
      row.append(row.tm, row.sq, row.tx);
      row.addEventListener("click", () => go(row.j, row.R));
      return row;
    });
    for (let m = from; m <= to; m++) {
      const j = list ? list[m] : m, row = rows[m - from];
      row.j = j; row.R = R;
      setClass(row, "logline" + (j === i ? " cur" : "") + " t-" + R.types[R.k[j]]);
      setText(row.tm, timeOfDay(R.time[j]));
      setText(row.sq, "#" + R.seq[j]);
      setText(row.tx, R.sentence(j));
    }
  }

  // A click on a box: the filter shows that controller.
  function showController(R, lane) {
    const box = $("filter");
    box.value = R.ids[lane];
    setFilter(box.value);
  }

  // ---- The page.
  const two = D.runs.length === 2;
  if (two) document.body.classList.add("two");
  const runs = D.runs.map((R, k) => prepare(R, k === 0 ? "a" : "b"));
  const PHASES = D.runs[0].phases;
  const A = runs[0];
  const cmp = D.cmp;
  if (cmp) { cmp.atA = prefix(0, cmp.atA); cmp.atB = prefix(0, cmp.atB); }
  // The cursor: an event index of A, or a row of the comparison.
  const total = two ? cmp.rows : A.n;
  let cursor = Math.max(0, total - 1);
  const at = (R, c) => (two ? (R === A ? cmp.atA[c] : cmp.atB[c]) : c);

  function header() {
    const h = $("header");
    const brand = el("div", "brand");
    brand.appendChild(el("h1", "", "spatial-replay report"));
    const link = traceLink();
    if (link) brand.appendChild(link);
    h.appendChild(brand);
    for (const R of runs) {
      const box = el("section", "run-head");
      const titleLine = el("div", "title-line");
      if (two) titleLine.appendChild(el("span", "tag", R.tag.toUpperCase()));
      titleLine.appendChild(el("span", "file", R.file));
      box.appendChild(titleLine);
      const facts = el("div", "facts");
      const H = R.header || {};
      const fact = (k, v) => { if (v === null || v === undefined) return; const f = el("span", "fact"); f.appendChild(el("b", "", k)); f.appendChild(document.createTextNode(" " + v)); facts.appendChild(f); };
      fact("session", H.session); fact("app", H.app); fact("build", H.build); fact("device", H.device); fact("profile", H.profile); fact("scenario", H.scenario);
      fact("events", fmtInt(R.n) + (R.n !== R.totalEvents ? " of " + fmtInt(R.totalEvents) : ""));
      fact("moves", fmtInt(R.moves));
      fact("duration", R.n ? duration(R.time[R.n - 1] - R.time[0]) : "0");
      fact("filter", R.filter);
      box.appendChild(facts);
      const rules = el("div", "rules");
      const counts = new Map();
      for (const f of R.findings) counts.set(f[FINDING.rule], (counts.get(f[FINDING.rule]) || 0) + 1);
      if (!counts.size) rules.appendChild(el("span", "clean", "no findings"));
      for (const [r, n] of counts) {
        const a = el("a", "rule", R.rules[r] + " " + n);
        a.href = "#findings";
        a.setAttribute("data-filter", R.rules[r]);
        a.addEventListener("click", (e) => { e.preventDefault(); $("rule-filter").value = R.rules[r]; drawFindings(); $("findings").scrollIntoView(); });
        rules.appendChild(a);
      }
      box.appendChild(rules);
      if (R.note) box.appendChild(el("p", "note", R.note));
      h.appendChild(box);
    }
  }

  // "download trace": the Chrome trace the page carries (gzip, base64 in #trace-data), decompressed
  // on the first click into a Blob the link then saves; the bytes of 'spatial-replay trace --format chrome'.
  function traceLink() {
    const data = $("trace-data");
    if (!data || typeof DecompressionStream !== "function") return null;
    const a = el("a", "trace-link", "download trace");
    a.id = "trace-download";
    a.href = "#";
    a.download = data.dataset.file;
    a.title = "the Chrome trace of this page (" + fmtInt(Number(data.dataset.bytes)) + " bytes): " +
      "open it in Perfetto UI, chrome://tracing or Chrome's Performance panel";
    let url = null, making = false;
    a.addEventListener("click", (e) => {
      if (url) return;  // made: the browser saves it
      e.preventDefault();
      if (making) return;
      making = true;
      traceBlob(data).then((blob) => {
        url = URL.createObjectURL(blob);
        a.href = url;
        a.dataset.traceBytes = String(blob.size);
        a.click();
      });
    });
    return a;
  }
  function traceBlob(data) {
    const text = atob(JSON.parse(data.textContent));
    const bytes = new Uint8Array(text.length);
    for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    return new Response(stream, { headers: { "Content-Type": "application/json" } }).blob();
  }

  const maps = [], states = [], logs = [];
  function panels() {
    for (const R of runs) {
      const col = el("div", "col");
      col.setAttribute("data-run", R.tag);
      if (two) col.appendChild(el("h2", "", "run " + R.tag.toUpperCase() + ": " + R.file));
      const mapBox = el("div", "panel mapbox");
      const mt = el("div", "ptitle", "map");
      const fit = el("button", "small", "fit");
      const home = el("button", "small", "focus");
      mt.append(fit, home);
      mapBox.appendChild(mt);
      const m = new MapView(R, mapBox);
      fit.addEventListener("click", () => m.fit());
      home.addEventListener("click", () => m.home());
      col.appendChild(mapBox);
      const side = el("div", "side");
      const st = el("div", "panel state"); st.appendChild(el("div", "ptitle", "state after the cursor's event"));
      const sb = el("div", "body"); st.appendChild(sb);
      const lg = el("div", "panel log"); lg.appendChild(el("div", "ptitle", "log"));
      const lb = el("div", "body"); lg.appendChild(lb);
      side.appendChild(st); side.appendChild(lg);
      col.appendChild(side);
      $("panels").appendChild(col);
      maps.push(m); states.push(new StateView(sb)); logs.push(lb);
    }
  }

  // ---- Lanes: one per controller, drawn on a canvas, only what is in view.
  const LH = 18, LABEL = 170, TOP = 22;
  const lanes = { px: 4, time: false };
  // The lanes at the cursor: per run, the focus first, then the alive controllers most recently
  // active first, then (with "deallocated" ticked) the others, most recently active first; only
  // those the filter box and --controller select.
  let showGone = false;
  function laneRows() {
    const rows = [];
    for (const R of runs) {
      if (two) rows.push({ R: R, lane: -1, title: "run " + R.tag.toUpperCase() });
      if (!R.n) continue;
      const s = stateAt(R, at(R, cursor));
      const pick = (l) => !R.laneSel || R.laneSel.indexOf(l) >= 0;
      for (const l of aliveOrder(R, s)) if (pick(l)) rows.push({ R: R, lane: l });
      if (showGone) {
        const gone = [], last = new Map();
        for (let l = 0; l < R.ids.length; l++) {
          if (s.rows.has(l) || !pick(l) || !matches(R, l)) continue;
          const act = R.act[l];
          last.set(l, act.length ? act[Math.max(0, upper(act, s.i) - 1)] : -1);
          gone.push(l);
        }
        gone.sort((a, b) => last.get(b) - last.get(a) || a - b);
        for (const l of gone) rows.push({ R: R, lane: l, gone: true });
      }
    }
    return rows;
  }
  // The lanes' labels: one element [data-lane] per lane listed, moved only when its row changes.
  const labels = new Map();
  function orderLanes() {
    laneList = laneRows();
    for (const R of runs) { if (!R.laneRow) R.laneRow = new Int32Array(R.ids.length); R.laneRow.fill(-1); }
    const layer = $("lane-labels"), seen = new Set();
    laneList.forEach((row, k) => {
      if (row.lane < 0) return;
      row.R.laneRow[row.lane] = k;
      const key = row.R.tag + row.lane;
      seen.add(key);
      let e = labels.get(key);
      if (!e) {
        e = el("div", "lane-label", row.R.label(row.lane));
        e.setAttribute("data-lane", row.R.ids[row.lane]);
        if (two) e.setAttribute("data-run", row.R.tag);
        e.title = row.R.label(row.lane) + " (" + row.R.classes[row.lane] + ")";
        e.k = -1; e.gone = null;
        layer.appendChild(e);
        labels.set(key, e);
      }
      // Moved by a transform: no layout of the lanes' area in a step.
      if (e.k !== k) { e.k = k; e.style.transform = "translateY(" + (TOP + k * LH) + "px)"; }
      if (e.gone !== !!row.gone) { e.gone = !!row.gone; e.className = row.gone ? "lane-label gone" : "lane-label"; }
    });
    for (const [key, e] of labels) if (!seen.has(key)) { e.remove(); labels.delete(key); }
    laneList.forEach((row, k) => {
      if (row.lane >= 0) return;
      const key = "title" + row.R.tag;
      let e = labels.get(key);
      if (!e) { e = el("div", "lane-label title", row.title); layer.appendChild(e); labels.set(key, e); }
      e.style.transform = "translateY(" + (TOP + k * LH) + "px)";
    });
  }
  let laneList = [];
  function xOfIndex(R, i) {
    if (two) return (R === A ? rowOfA : rowOfB)[Math.min(i, R.n - 1)] * lanes.px;
    if (lanes.time) return (R.time[Math.min(i, R.n - 1)] - R.time[0]) / lanes.usPerPx;
    return i * lanes.px;
  }
  function indexAtX(x) {
    if (two || !lanes.time) return Math.max(0, Math.min(total - 1, Math.floor(x / lanes.px)));
    const t = A.time[0] + x * lanes.usPerPx;
    return Math.max(0, Math.min(A.n - 1, upper(A.time, t) - 1));
  }
  let rowOfA = null, rowOfB = null;
  // Run R's event at x (two runs: where it stands on the row at x; the rows are in event order).
  function eventAtX(R, x) {
    const c = indexAtX(x);
    return two ? (R === A ? cmp.atA : cmp.atB)[c] : c;
  }
  function rowsOf(R, atArr) {
    const out = new Int32Array(R.n);
    let r = 0;
    for (let i = 0; i < R.n; i++) { while (r < atArr.length - 1 && atArr[r] < i) r++; out[i] = r; }
    return out;
  }
  function setupLanes() {
    orderLanes();
    if (two) { rowOfA = rowsOf(A, cmp.atA); rowOfB = rowsOf(runs[1], cmp.atB); }
    const wrap = $("lanes-wrap");
    const spacer = $("lanes-spacer");
    const canvas = $("lanes");
    const fitPx = () => Math.max(0.02, (wrap.clientWidth - LABEL - 10) / Math.max(1, total));
    lanes.px = Math.min(12, Math.max(fitPx(), total > 2000 ? 2 : fitPx()));
    const span = A.n ? A.time[A.n - 1] - A.time[0] : 1;
    lanes.span = span;
    const size = () => { sizeLanes(); drawLanes(); };
    wrap.addEventListener("scroll", () => { geom.sx = wrap.scrollLeft; geom.sy = wrap.scrollTop; requestAnimationFrame(drawLanes); }, { passive: true });
    window.addEventListener("resize", () => drawLanes());
    $("zoom-in").addEventListener("click", () => { lanes.px *= 2; size(); centreCursor(); });
    $("zoom-out").addEventListener("click", () => { lanes.px = Math.max(0.01, lanes.px / 2); size(); centreCursor(); });
    $("zoom-fit").addEventListener("click", () => { lanes.px = fitPx(); size(); });
    const axis = $("axis");
    if (two) axis.parentNode.style.display = "none";
    axis.addEventListener("change", () => { lanes.time = axis.checked; size(); centreCursor(); });
    canvas.addEventListener("click", (e) => {
      const hit = hitTest(e);
      if (hit && hit.finding) { go(hit.finding[FINDING.event], hit.R); return; }
      const r = canvas.getBoundingClientRect();
      const x = e.clientX - r.left + wrap.scrollLeft - LABEL;
      if (x < 0) return;
      setCursor(indexAtX(x));
    });
    canvas.addEventListener("mousemove", (e) => {
      const tip = $("tip");
      const hit = hitTest(e);
      if (!hit) { tip.hidden = true; return; }
      tip.replaceChildren();
      if (hit.finding) {
        tip.appendChild(el("b", "", hit.R.rules[hit.finding[FINDING.rule]]));
        tip.appendChild(el("div", "", "line " + hit.finding[FINDING.line] + ", seq " + hit.finding[FINDING.seq]));
        tip.appendChild(el("div", "", hit.finding[FINDING.message]));
        if (hit.finding[FINDING.source]) tip.appendChild(el("div", "source", "recorded at " + hit.finding[FINDING.source]));
      } else tip.appendChild(el("div", "", "#" + hit.R.seq[hit.i] + " " + hit.R.sentence(hit.i)));
      tip.hidden = false;
      tip.style.left = Math.min(e.clientX + 14, window.innerWidth - 380) + "px";
      tip.style.top = e.clientY + 14 + "px";
    });
    canvas.addEventListener("mouseleave", () => { $("tip").hidden = true; });
    size();
  }
  // The scrolled area's size: the events across, the lanes listed down.
  function sizeLanes() {
    const wrap = $("lanes-wrap"), spacer = $("lanes-spacer");
    lanes.usPerPx = Math.max(1, lanes.span) / Math.max(1, total * lanes.px);
    const w = LABEL + total * lanes.px + 20 + "px", h = TOP + laneList.length * LH + 4 + "px";
    // The area's height follows the controllers of the whole session, not those at the cursor:
    // a step never changes it (which would lay the page out again).
    const most = runs.reduce((n, R) => n + R.ids.length + (two ? 1 : 0), 0);
    const wh = Math.max(120, Math.min(420, TOP + most * LH + 24)) + "px";
    if (spacer.style.width !== w) spacer.style.width = w;
    if (spacer.style.height !== h) spacer.style.height = h;
    if (wrap.style.height !== wh) { wrap.style.height = wh; geom.dirty = true; }
  }
  function laneY(R, lane) {
    // The top of a lane's row; the first row for none; null for a lane the filter hides.
    if (lane < 0 || lane >= R.laneRow.length) return TOP;
    return R.laneRow[lane] < 0 ? null : TOP + R.laneRow[lane] * LH;
  }
  function hitTest(e) {
    const wrap = $("lanes-wrap"), canvas = $("lanes");
    const r = canvas.getBoundingClientRect();
    const x = e.clientX - r.left + wrap.scrollLeft - LABEL, y = e.clientY - r.top + wrap.scrollTop;
    if (x < 0) return null;
    const k = Math.floor((y - TOP) / LH);
    const row = laneList[k];
    if (!row) return null;
    const R = row.R;
    for (const f of R.findings) {
      if (f[FINDING.event] < 0) continue;
      const fy = laneY(R, f[FINDING.lane]);
      if (fy === null) continue;
      if (Math.abs(xOfIndex(R, f[FINDING.event]) - x) <= 5 && y >= fy && y <= fy + LH) return { R: R, finding: f };
    }
    if (row.lane < 0) return null;
    const i = two ? null : indexAtX(x);
    if (i === null) return null;
    return { R: R, i: i };
  }
  const COLORS = { appearing: "#e0a43a", appeared: "#3aa06a", disappearing: "#8d7bd6" };
  function drawLanes() {
    const wrap = $("lanes-wrap"), canvas = $("lanes");
    measure();
    const W = geom.wrapW, H = Math.min(geom.wrapH, TOP + laneList.length * LH + 4);
    const dpr = window.devicePixelRatio || 1;
    if (canvas.width !== W * dpr || canvas.height !== H * dpr) {
      canvas.width = W * dpr; canvas.height = H * dpr; canvas.style.width = W + "px"; canvas.style.height = H + "px";
      canvas.fontSet = false;
    }
    const sx = geom.sx, sy = geom.sy;
    canvas.style.transform = "translate(" + sx + "px," + sy + "px)";
    const c = canvas.getContext("2d");
    c.setTransform(dpr, 0, 0, dpr, 0, 0);
    c.fillStyle = "#ffffff"; c.fillRect(0, 0, W, H);
    const x0 = sx, x1 = sx + W - LABEL;
    const k0 = Math.max(0, Math.floor(sy / LH) - 1), k1 = Math.min(laneList.length, Math.ceil((sy + H) / LH) + 1);
    // Set once per context (resizing the canvas resets it): parsing a font costs more than
    // drawing the lanes.
    if (!canvas.fontSet) { c.font = "11px system-ui, sans-serif"; c.textBaseline = "middle"; canvas.fontSet = true; }
    // Two runs: hunks shaded across the lanes.
    if (two) {
      for (const h of cmp.hunks) {
        const hx0 = h.rows[0] * lanes.px - sx + LABEL, hx1 = Math.max(h.rows[1] * lanes.px - sx + LABEL, hx0 + 2);
        if (hx1 < LABEL || hx0 > W) continue;
        c.fillStyle = "rgba(214,69,65,0.10)"; c.fillRect(Math.max(hx0, LABEL), TOP, hx1 - Math.max(hx0, LABEL), H);
      }
    }
    for (let k = k0; k < k1; k++) {
      const row = laneList[k];
      const y = TOP + k * LH - sy;
      if (k % 2 === 0) { c.fillStyle = "#f6f7f9"; c.fillRect(LABEL, y, W, LH); }
      if (row.lane < 0) { c.fillStyle = "#22303c"; c.fillRect(LABEL, y, W, LH); continue; }
      const R = row.R, l = row.lane;
      // From the event on the row before the first in view: events between two rows' are drawn on the later row.
      const from = eventAtX(R, Math.max(0, x0 - 2 - lanes.px)) - 1;
      const to = eventAtX(R, x1 + 2) + 1;
      const al = R.alive[l];
      for (let m = firstSpan(al, 2, from); m < al.length && al[m] <= to; m += 2) {
        if (al[m + 1] < from || al[m] > to) continue;
        const a = xOfIndex(R, al[m]) - sx + LABEL, b = xOfIndex(R, al[m + 1] - 1) + Math.max(lanes.px, 1) - sx + LABEL;
        c.fillStyle = "#e4e8ee"; c.fillRect(Math.max(a, LABEL), y + 6, Math.min(b, W) - Math.max(a, LABEL), LH - 12);
      }
      const bars = R.bars[l];
      for (let m = firstSpan(bars, 3, from); m < bars.length && bars[m] <= to; m += 3) {
        if (bars[m + 1] < from || bars[m] > to) continue;
        const a = xOfIndex(R, bars[m]) - sx + LABEL, b = xOfIndex(R, bars[m + 1] - 1) + Math.max(lanes.px, 1) - sx + LABEL;
        const left = Math.max(a, LABEL), right = Math.min(b, W);
        if (right <= left) continue;
        c.fillStyle = COLORS[PHASES[bars[m + 2]]] || "#999"; c.fillRect(left, y + 4, Math.max(1, right - left), LH - 8);
      }
      const ticks = R.ticks[l];
      let lastX = -1;
      c.fillStyle = "#1d2935";
      for (let m = lower(ticks, from); m < ticks.length && ticks[m] <= to; m++) {
        const x = Math.round(xOfIndex(R, ticks[m]) - sx + LABEL);
        if (x === lastX || x < LABEL || x > W) continue;
        lastX = x;
        c.fillRect(x, y + 2, 1, LH - 4);
      }
      const marks = R.marks[l];
      c.fillStyle = "#6b7785";
      lastX = -1;
      for (let m = lower(marks, from); m < marks.length && marks[m] <= to; m++) {
        const x = Math.round(xOfIndex(R, marks[m]) - sx + LABEL);
        if (x === lastX || x < LABEL || x > W) continue;
        lastX = x;
        c.fillRect(x - 1, y + LH / 2 - 1, 3, 3);
      }
    }
    // Moves: an arrow from the lane left to the lane entered.
    c.strokeStyle = "rgba(33,102,172,0.75)"; c.fillStyle = "rgba(33,102,172,0.9)"; c.lineWidth = 1.2;
    for (const R of runs) {
      const from = lower(R.moveIdx, eventAtX(R, Math.max(0, x0 - 2 - lanes.px)) - 1);
      const to = upper(R.moveIdx, eventAtX(R, x1 + 2) + 1);
      let lastX = -1;
      for (let m = from; m < to; m++) {
        const i = R.moveIdx[m];
        const x = Math.round(xOfIndex(R, i) - sx + LABEL) + 0.5;
        if (x < LABEL || x > W || x === lastX) continue;
        lastX = x;
        const la = laneY(R, R.a[i]), lb = laneY(R, R.b[i]);
        if (la === null || lb === null) continue;
        const ya = la + LH / 2 - sy, yb = lb + LH / 2 - sy;
        c.beginPath(); c.moveTo(x, ya); c.lineTo(x, yb); c.stroke();
        const dir = yb > ya ? -1 : 1;
        c.beginPath(); c.moveTo(x, yb); c.lineTo(x - 3, yb + 5 * dir); c.lineTo(x + 3, yb + 5 * dir); c.fill();
      }
    }
    // Findings: red markers.
    for (const R of runs) {
      for (const f of R.findings) {
        if (f[FINDING.event] < 0) continue;
        const x = xOfIndex(R, f[FINDING.event]) - sx + LABEL;
        if (x < LABEL - 4 || x > W + 4) continue;
        const fy = laneY(R, f[FINDING.lane]);
        if (fy === null) continue;
        const y = fy - sy;
        c.fillStyle = "#d64541";
        c.beginPath(); c.moveTo(x, y + LH - 2); c.lineTo(x - 5, y + 2); c.lineTo(x + 5, y + 2); c.closePath(); c.fill();
      }
    }
    // Divergence and cursor.
    if (two && cmp.div) {
      const x = cmp.div.row * lanes.px - sx + LABEL;
      if (x >= LABEL && x <= W) { c.fillStyle = "#d64541"; c.fillRect(x - 1, 0, 2, H); }
    }
    const cx = (two ? cursor * lanes.px : xOfIndex(A, cursor)) - sx + LABEL;
    if (cx >= LABEL && cx <= W) { c.fillStyle = "#111"; c.fillRect(Math.round(cx), 0, 2, H); }
    // Labels and the axis, over everything.
    c.fillStyle = "#ffffff"; c.fillRect(0, 0, LABEL, H);
    $("lane-labels").style.transform = "translateX(" + sx + "px)";
    c.drawImage(axisStrip(W, sx, dpr), 0, 0, W, TOP);
    c.strokeStyle = "#d5dbe2"; c.beginPath(); c.moveTo(LABEL + 0.5, 0); c.lineTo(LABEL + 0.5, H); c.stroke();
  }
  // The axis along the top, drawn again only when it moves: its labels cost more than the
  // lanes, and a step rarely scrolls.
  const axisCache = { key: "", canvas: null };
  function axisStrip(W, sx, dpr) {
    const key = W + " " + sx + " " + dpr + " " + lanes.px + " " + lanes.time;
    if (axisCache.key === key) return axisCache.canvas;
    axisCache.key = key;
    const a = axisCache.canvas || (axisCache.canvas = document.createElement("canvas"));
    a.width = W * dpr; a.height = TOP * dpr;
    const c = a.getContext("2d");
    c.setTransform(dpr, 0, 0, dpr, 0, 0);
    c.font = "11px system-ui, sans-serif"; c.textBaseline = "middle";
    c.fillStyle = "#ffffff"; c.fillRect(0, 0, W, TOP);
    c.fillStyle = "#6b7785";
    const step = 60;
    const end = (two || !lanes.time ? total * lanes.px : xOfIndex(A, A.n - 1)) - sx + LABEL;
    for (let x = LABEL - (sx % step) + step; x < Math.min(W, end); x += step) {
      const i = indexAtX(x - LABEL + sx);
      const label = two ? "row " + i : lanes.time ? duration(A.time[i] - A.time[0]) : "#" + A.seq[i];
      c.fillRect(x, TOP - 5, 1, 5);
      c.fillText(label, x + 3, 10);
    }
    return a;
  }
  function centreCursor() {
    const wrap = $("lanes-wrap");
    const x = two ? cursor * lanes.px : xOfIndex(A, cursor);
    const view = measure().wrapW - LABEL;
    if (x < geom.sx + 20 || x > geom.sx + view - 20) {
      geom.sx = Math.max(0, Math.min(x - view / 2, LABEL + total * lanes.px + 20 - geom.wrapW));
      wrap.scrollLeft = geom.sx;
    }
  }

  // ---- Findings table: sortable, filterable by rule.
  const sortState = { key: 0, dir: 1 };
  function drawFindings() {
    const filter = $("rule-filter").value;
    const body = $("findings-body");
    const rows = [];
    for (const R of runs) for (const f of R.findings) if (!filter || R.rules[f[FINDING.rule]] === filter) rows.push([R, f]);
    const key = sortState.key;
    const val = (x) => (key === 2 ? x[0].rules[x[1][FINDING.rule]] : key === 3 ? x[1][FINDING.message] : key === 4 ? x[1][FINDING.move] : x[1][key]);
    rows.sort((x, y) => { const a = val(x), b = val(y); return (a < b ? -1 : a > b ? 1 : 0) * sortState.dir || x[1][FINDING.line] - y[1][0]; });
    const frag = document.createDocumentFragment();
    for (const [R, f] of rows) {
      const tr = el("tr", f[FINDING.severity] === 0 ? "error" : "warning");
      tr.setAttribute("data-rule", R.rules[f[FINDING.rule]]);
      tr.setAttribute("data-seq", String(f[FINDING.seq]));
      tr.setAttribute("data-line", String(f[FINDING.line]));
      if (two) tr.setAttribute("data-run", R.tag);
      tr.appendChild(el("td", "num", (two ? R.tag.toUpperCase() + " " : "") + f[FINDING.line]));
      tr.appendChild(el("td", "num", f[FINDING.seq] >= 0 ? String(f[FINDING.seq]) : ""));
      tr.appendChild(el("td", "rule", R.rules[f[FINDING.rule]]));
      const msg = el("td", "msg", f[FINDING.message]);
      if (f[FINDING.source]) msg.appendChild(el("div", "source", "recorded at " + f[FINDING.source]));
      tr.appendChild(msg);
      tr.appendChild(el("td", "num", f[FINDING.move] >= 0 ? "#" + f[FINDING.move] : ""));
      if (f[FINDING.event] >= 0) tr.addEventListener("click", () => go(f[FINDING.event], R));
      frag.appendChild(tr);
    }
    body.replaceChildren(frag);
    $("findings-count").textContent = rows.length + (rows.length === 1 ? " finding" : " findings");
  }
  function setupFindings() {
    const select = $("rule-filter");
    const names = new Set();
    for (const R of runs) for (const r of R.rules) names.add(r);
    for (const r of Array.from(names).sort()) { const o = el("option", "", r); o.value = r; select.appendChild(o); }
    select.addEventListener("change", drawFindings);
    document.querySelectorAll("#findings th").forEach((th, k) => th.addEventListener("click", () => {
      sortState.dir = sortState.key === k ? -sortState.dir : 1; sortState.key = k; drawFindings();
    }));
    drawFindings();
  }

  // ---- Two runs: the divergence and the hunks.
  function setupDiff() {
    const box = $("diff");
    if (!two) { box.remove(); return; }
    // As `diff` words it: how the controllers of the two runs were matched, and why.
    const matching = el("div", "matching", "controllers matched by " + cmp.matchText);
    matching.setAttribute("data-match", cmp.match);
    box.appendChild(matching);
    const div = el("div", "divergence");
    if (cmp.div) {
      div.setAttribute("data-divergence", "");
      const d = cmp.div;
      div.setAttribute("data-a", d.a === null ? "" : String(d.a));
      div.setAttribute("data-b", d.b === null ? "" : String(d.b));
      // As `diff` words it: a side with no events in the first hunk has none, after its last match.
      const first = cmp.hunks[0];
      const side = (s, after, empty) => (s !== null && !empty ? "seq " + s : "none, after seq " + (after === null ? "the start" : after));
      div.textContent = "first divergence: A " + side(d.a, d.aAfter, !first.a.seqs.length) + "; B " + side(d.b, d.bAfter, !first.b.seqs.length);
      div.addEventListener("click", () => setCursor(d.row));
    } else div.textContent = "the runs are identical in the compared events";
    box.appendChild(div);
    const list = el("ol", "hunks");
    const range = (s) => (s.seqs.length ? "seq " + s.seqs[0] + (s.seqs.length > 1 ? "–" + s.seqs[s.seqs.length - 1] : "") + " (" + s.seqs.length + ")" : "none, after seq " + (s.afterSeq === null ? "the start" : s.afterSeq));
    for (const h of cmp.hunks) {
      const li = el("li", "hunk " + h.kind);
      li.setAttribute("data-hunk", h.kind);
      li.setAttribute("data-a", h.a.from + "-" + h.a.to);
      li.setAttribute("data-b", h.b.from + "-" + h.b.to);
      li.appendChild(el("b", "", h.kind + (h.side ? " (in " + h.side.toUpperCase() + ")" : "")));
      li.appendChild(document.createTextNode(" A " + range(h.a) + "; B " + range(h.b)));
      li.addEventListener("click", () => setCursor(h.rows[0]));
      list.appendChild(li);
    }
    box.appendChild(list);
  }

  // ---- Cursor, keys, the URL fragment.
  let ready = false;
  function setCursor(c) {
    c = Math.max(0, Math.min(total - 1, c));
    cursor = c;
    $("scrubber").value = String(c);
    runs.forEach((R, k) => {
      if (!R.n) return;
      const i = at(R, c);
      const s = stateAt(R, i);
      maps[k].draw(s);
      states[k].draw(R, s);
      drawLog(R, i, logs[k]);
    });
    const seq = A.n ? A.seq[at(A, c)] : 0;
    document.body.dataset.seq = String(seq);
    document.body.dataset.index = String(at(A, c));
    if (two) document.body.dataset.row = String(c);
    $("position").textContent = two ? "row " + fmtInt(c + 1) + " / " + fmtInt(total) + " · A #" + seq + " · B #" + (runs[1].n ? runs[1].seq[at(runs[1], c)] : "") : "#" + seq + " · event " + fmtInt(c + 1) + " / " + fmtInt(total);
    const hash = two ? "#row=" + c : "#seq=" + seq;
    if (ready) restHash(hash);
    orderLanes();
    sizeLanes();
    centreCursor();
    drawLanes();
  }
  // The fragment follows the cursor once it rests: a history call per step costs more than
  // the step itself, and Chromium throttles a page that makes hundreds of them (a held key).
  let hashTimer = 0;
  function restHash(hash) {
    clearTimeout(hashTimer);
    hashTimer = setTimeout(() => {
      if (location.hash !== hash) { try { history.replaceState(null, "", hash); } catch (e) { /* a sandboxed page keeps its fragment */ } }
    }, 100);
  }
  function go(i, R) {
    if (!two) return setCursor(i);
    const arr = R === A ? cmp.atA : cmp.atB;
    setCursor(Math.max(0, lower(arr, i)));
  }
  function fromHash() {
    const m = /^#(seq|row)=(\d+)$/.exec(location.hash);
    if (!m) return null;
    const v = Number(m[2]);
    if (m[1] === "row") return two ? v : null;
    if (two) return null;
    const i = A.seqIndex.get(v);
    return i === undefined ? null : i;
  }
  function nextIn(list, forward) {
    const here = cursor;
    if (forward) { const k = upper(list, here); return k < list.length ? list[k] : null; }
    const k = lower(list, here) - 1;
    return k >= 0 ? list[k] : null;
  }
  function jumpList(kind) {
    if (two) {
      if (kind === "move") return [];
      return cmp.hunks.map((h) => h.rows[0]);
    }
    return kind === "move" ? A.moveIdx : A.findingIdx;
  }
  function search(forward) {
    const q = $("search").value;
    if (!q) return;
    const R = A, n = R.n, start = at(A, cursor);
    for (let s = 1; s <= n; s++) {
      const i = ((start + (forward ? s : -s)) % n + n) % n;
      if (R.sentence(i).indexOf(q) >= 0 || R.ids[R.a[i]] === q || R.ids[R.b[i]] === q) { go(i, R); $("search").classList.remove("miss"); return; }
    }
    $("search").classList.add("miss");
  }
  function keys() {
    document.addEventListener("keydown", (e) => {
      if (e.target && e.target.id === "search") {
        if (e.key === "Enter") { e.preventDefault(); search(!e.shiftKey); }
        if (e.key === "Escape") e.target.blur();
        return;
      }
      if (e.target && e.target.id === "filter") { if (e.key === "Escape") e.target.blur(); return; }
      if (e.target && (e.target.tagName === "SELECT" || e.target.tagName === "INPUT" && e.target.type !== "range")) return;
      let handled = true;
      if (e.key === "ArrowRight" || e.key === "ArrowLeft") {
        const forward = e.key === "ArrowRight";
        if (e.shiftKey && !two) { const t = nextIn(A.moveIdx, forward); if (t !== null) setCursor(t); }
        else if (!two && A.sel) { const t = nextIn(A.sel, forward); if (t !== null) setCursor(t); }
        else setCursor(cursor + (forward ? 1 : -1));
      } else if (e.key === "Home") setCursor(!two && A.sel && A.sel.length ? A.sel[0] : 0);
      else if (e.key === "End") setCursor(!two && A.sel && A.sel.length ? A.sel[A.sel.length - 1] : total - 1);
      else if (e.key === "]" || e.key === "[") { const t = nextIn(jumpList("finding"), e.key === "]"); if (t !== null) setCursor(t); }
      else if (e.key === "/") $("search").focus();
      else handled = false;
      if (handled) e.preventDefault();
    });
    $("scrubber").addEventListener("input", (e) => setCursor(Number(e.target.value)));
    window.addEventListener("hashchange", () => { const c = fromHash(); if (c !== null && c !== cursor) setCursor(c); });
  }

  function setFilter(text) {
    filterText = text.trim().toLowerCase();
    setCursor(cursor);
  }
  function setupFilter() {
    $("filter").addEventListener("input", (e) => setFilter(e.target.value));
    $("gone").addEventListener("change", (e) => { showGone = e.target.checked; setCursor(cursor); });
  }

  header();
  panels();
  setupFilter();
  const scrub = $("scrubber");
  scrub.max = String(Math.max(0, total - 1));
  setupDiff();
  setupFindings();
  keys();
  setupLanes();
  const start = fromHash();
  setCursor(start !== null ? start : total - 1);
  ready = true;
  document.body.dataset.readyMs = String(Math.round(performance.now()));
  document.body.dataset.ready = "true";
})();

/// The page's style and script, as Swift literals so that the binary stays one
/// self-contained file. The script only applies the data block that
/// ``ReportRun`` and ``ReportComparison`` wrote; it never runs model rules.
enum ReportAssets {
  static let style = ##"""
    :root{--ink:#1d2935;--dim:#6b7785;--line:#d5dbe2;--bg:#eef1f5;--panel:#fff;--accent:#2166ac;--bad:#d64541;--ok:#3aa06a;--warn:#e0a43a}
    *{box-sizing:border-box}
    body{margin:0;font:13px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--ink);background:var(--bg)}
    header{display:flex;flex-wrap:wrap;gap:8px 24px;align-items:flex-start;padding:12px 16px;background:#1d2935;color:#fff}
    h1{font-size:16px;margin:2px 12px 0 0;font-weight:600;letter-spacing:.2px}
    h2{font-size:13px;margin:0 0 6px;font-weight:600}
    .run-head{display:flex;flex-direction:column;gap:4px;min-width:300px}
    .run-head .file{font-weight:600;font-family:ui-monospace,Menlo,Consolas,monospace}
    .run-head .tag{display:inline-block;background:var(--accent);border-radius:3px;padding:0 6px;margin-right:8px}
    .two .run-head{flex:1}
    .facts{display:flex;flex-wrap:wrap;gap:2px 14px;color:#c9d3dd}
    .facts b{color:#8fa3b6;font-weight:500}
    .rules{display:flex;flex-wrap:wrap;gap:6px}
    .rules a{color:#fff;background:var(--bad);border-radius:10px;padding:1px 8px;text-decoration:none;font-size:12px}
    .rules a:hover{filter:brightness(1.15)}
    .rules .clean{background:var(--ok);border-radius:10px;padding:1px 8px;font-size:12px}
    .note{margin:4px 0 0;padding:4px 8px;background:#fff3cd;color:#5c4400;border-radius:4px}
    .panel{background:var(--panel);border:1px solid var(--line);border-radius:6px;margin:10px 16px;padding:8px 10px}
    .ptitle{display:flex;align-items:center;gap:10px;font-weight:600;color:var(--dim);text-transform:uppercase;font-size:11px;letter-spacing:.5px;margin-bottom:6px}
    .ptitle label,.ptitle select{text-transform:none;font-weight:400;letter-spacing:0}
    #bar{display:flex;align-items:center;gap:12px;position:sticky;top:0;z-index:5}
    #scrubber{flex:1;min-width:200px;accent-color:var(--accent)}
    #position{font-family:ui-monospace,Menlo,Consolas,monospace;width:240px;overflow:hidden;white-space:nowrap}
    #search{width:160px;padding:3px 6px;border:1px solid var(--line);border-radius:4px}
    #search.miss{border-color:var(--bad);background:#fdecea}
    .keys{color:var(--dim);font-size:11px}
    main{display:flex;flex-direction:column;gap:0}
    .col{display:grid;grid-template-columns:minmax(360px,1.3fr) minmax(320px,1fr);gap:0;margin:0 6px}
    .col>h2{grid-column:1/-1;margin:8px 10px 0}
    .col .panel{margin:10px}
    .side{display:flex;flex-direction:column;min-width:0}
    .mapbox{min-height:300px;display:flex;flex-direction:column}
    svg.map{width:100%;height:360px;background:#fbfcfd;border-radius:4px;cursor:grab;touch-action:none}
    .edge line{stroke:#7d8a97;stroke-width:2}
    .edge.double line{stroke:#4b5866;stroke-width:1.8}
    .box rect{fill:#fff;stroke:#9aa7b4;stroke-width:1.5}
    .box text{font:12px system-ui,sans-serif;text-anchor:middle;fill:var(--ink);pointer-events:none}
    .box text.phase{font-size:10px;fill:var(--dim)}
    .box.appeared rect{fill:#e6f4ec;stroke:var(--ok)}
    .box.appearing rect,.box.disappearing rect{fill:#fdf3e1;stroke:var(--warn)}
    .box.focus rect{stroke:var(--accent);stroke-width:3.5}
    .box[data-modal] rect{stroke-dasharray:5 3}
    .box.detached rect{fill:#f1f3f5}
    .box{cursor:pointer}
    .strip-label{font-size:11px;fill:var(--dim)}
    .flight{stroke:var(--bad);stroke-width:3}
    .arrowhead{fill:var(--bad)}
    .state .body{font-size:12px;height:250px;overflow:auto;contain:strict}
    .kv{display:flex;gap:8px;padding:1px 0}
    .kv .k{color:var(--dim);min-width:70px}
    .kv.warn .v{color:#9a6400;font-weight:600}
    .kv.bad .v,.bad{color:var(--bad)}
    table{border-collapse:collapse;width:100%}
    th{text-align:left;color:var(--dim);font-weight:500;border-bottom:1px solid var(--line);padding:3px 6px;cursor:pointer;user-select:none}
    td{padding:2px 6px;border-bottom:1px solid #f0f2f5;vertical-align:top}
    tr.focus td{background:#eaf2fb}
    .dim{color:var(--dim)}
    .ph.appeared{color:var(--ok)}
    .ph.appearing,.ph.disappearing{color:#9a6400}
    .log .body{font:12px ui-monospace,Menlo,Consolas,monospace;height:290px;overflow:auto;contain:strict}
    .logline{display:flex;gap:8px;padding:1px 4px;cursor:pointer;white-space:nowrap}
    .logline .tx{overflow:hidden;text-overflow:ellipsis;min-width:0}
    .two header h1{flex-basis:100%}
    .two main{flex-direction:row;align-items:flex-start}
    .two .col{flex:1;grid-template-columns:minmax(0,1fr);min-width:0}
    .two svg.map{height:300px}
    .logline:hover{background:#f3f6f9}
    .logline.cur{background:#dbe9f7;font-weight:600}
    .logline .tm{color:var(--dim)}
    .logline .sq{color:var(--dim);min-width:56px;text-align:right}
    .t-move .tx{color:#1f7a45}
    .t-lifecycle .tx{color:#17607d}
    .t-pan .tx{color:#8a6400}
    #lanes-wrap{position:relative;overflow:auto;height:380px;border:1px solid var(--line);border-radius:4px;contain:strict}
    #lanes-spacer{position:relative}
    #lanes{position:absolute;left:0;top:0}
    .legend{display:flex;gap:8px;align-items:center;text-transform:none;font-weight:400;letter-spacing:0}
    .legend i{display:inline-block;width:14px;height:9px;border-radius:2px}
    .legend i.appearing{background:var(--warn)}
    .legend i.appeared{background:var(--ok)}
    .legend i.disappearing{background:#8d7bd6}
    .legend i.tick{width:2px;height:12px;background:var(--ink)}
    .legend i.move{width:2px;height:12px;background:var(--accent)}
    .legend i.finding{width:0;height:0;border-left:5px solid transparent;border-right:5px solid transparent;border-top:9px solid var(--bad);border-radius:0}
    button.small{font-size:11px;padding:1px 7px;border:1px solid var(--line);background:#fff;border-radius:3px;cursor:pointer}
    #findings tbody tr{cursor:pointer}
    #findings tbody tr:hover td{background:#f6f8fa}
    #findings td.num{font-family:ui-monospace,Menlo,Consolas,monospace;white-space:nowrap}
    #findings td.rule{color:var(--bad);white-space:nowrap}
    #findings tr.warning td.rule{color:#9a6400}
    #tip{position:fixed;z-index:10;max-width:360px;background:#1d2935;color:#fff;padding:6px 8px;border-radius:4px;font-size:12px;pointer-events:none;box-shadow:0 2px 8px rgba(0,0,0,.25)}
    #diff .divergence{font-weight:600;color:var(--bad);cursor:pointer;margin-bottom:4px}
    .hunks{margin:0;padding-left:22px;columns:2}
    .hunk{cursor:pointer}
    .hunk b{color:var(--bad)}
    .hunk.duplicated b,.hunk.reordered b{color:#9a6400}
    """##

  static let script = ##"""
    "use strict";
    (function () {
      const SVG = "http://www.w3.org/2000/svg";
      const D = JSON.parse(document.getElementById("report-data").textContent);
      const $ = (id) => document.getElementById(id);
      const DIRS = { left: [-1, 0], right: [1, 0], up: [0, -1], down: [0, 1] };

      function el(tag, cls, text) {
        const e = document.createElement(tag);
        if (cls) e.className = cls;
        if (text !== undefined) e.textContent = text;
        return e;
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
        R.seq = prefix(R.seq0, R.dseq);
        R.line = prefix(R.line0, R.dline);
        R.time = prefix(R.t0, R.dt);
        R.seqIndex = new Map();
        for (let i = R.n - 1; i >= 0; i--) R.seqIndex.set(R.seq[i], i);
        R.label = (l) => (l < 0 ? "none" : R.shown[l] !== null ? R.shown[l] : R.ids[l]);
        const moveType = D.runs[0].types.indexOf("move");
        const lifeType = R.types.indexOf("lifecycle");
        R.moveType = moveType;
        R.moveIdx = [];
        R.ticks = R.ids.map(() => []);
        R.marks = R.ids.map(() => []);
        for (let i = 0; i < R.n; i++) {
          const k = R.k[i];
          if (k === moveType) R.moveIdx.push(i);
          else if (k === lifeType && R.a[i] >= 0) R.ticks[R.a[i]].push(i);
          else if (R.a[i] >= 0 && R.types[k] !== "pan") R.marks[R.a[i]].push(i);
        }
        // Phase bars and alive spans per lane, read off the deltas.
        R.bars = R.ids.map(() => []);
        R.alive = R.ids.map(() => []);
        const phase = new Int8Array(R.ids.length).fill(-1);
        const since = new Int32Array(R.ids.length);
        const born = new Int32Array(R.ids.length).fill(-1);
        function setRow(row, i) {
          const l = row[0];
          const p = row.length > 1 ? row[1] : -1;
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
        R.findingIdx = R.findings.map((f) => f[2]).filter((i) => i >= 0).sort((x, y) => x - y);
        R.sel = R.sel ? prefix(0, R.sel) : null;
        R.cur = null;
        return R;
      }

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
          const k = Math.floor(i / R.K);
          const kf = R.keys[k];
          s = { i: k * R.K, rows: new Map(), f: kf.f, t: kf.t, l: kf.l };
          for (const r of kf.r) s.rows.set(r[0], r);
          for (let j = k * R.K + 1; j <= i; j++) apply(s, R.d[j]);
          s.i = i;
        }
        R.cur = s;
        recent.push(s);
        if (recent.length > 8) recent.shift();
        return s;
      }
      function apply(s, d) {
        if (!d) return;
        if (d.r) for (const r of d.r) { if (r.length === 1) s.rows.delete(r[0]); else s.rows.set(r[0], r); }
        if ("f" in d) s.f = d.f;
        if ("t" in d) s.t = d.t;
        if ("l" in d) s.l = d.l;
      }

      // ---- The map (SVG): a box per controller, a line per link, two where a pan needs two fingers.
      const CW = 150, CH = 78, BW = 118, BH = 38;
      function MapView(R, host) {
        this.R = R;
        this.host = host;
        this.svg = svg("svg", { class: "map", role: "img", "aria-label": "map of controllers" });
        const defs = svg("defs", {});
        const marker = svg("marker", { id: "arrow-" + R.tag, viewBox: "0 0 10 10", refX: "9", refY: "5", markerWidth: "7", markerHeight: "7", orient: "auto-start-reverse" });
        marker.appendChild(svg("path", { d: "M0,0 L10,5 L0,10 z", class: "arrowhead" }));
        defs.appendChild(marker);
        this.svg.appendChild(defs);
        this.g = svg("g", {});
        this.svg.appendChild(this.g);
        host.appendChild(this.svg);
        this.layout = -1;
        this.boxes = new Map();
        this.pos = new Map();
        this.view = null;
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
      }
      MapView.prototype.setView = function (v) { this.view = v; this.svg.setAttribute("viewBox", v.join(" ")); };
      MapView.prototype.fit = function () {
        const b = this.bounds; if (!b) return;
        this.setView([b[0] - 20, b[1] - 20, Math.max(b[2] - b[0] + 40, 300), Math.max(b[3] - b[1] + 40, 160)]);
      };
      MapView.prototype.build = function (L) {
        const R = this.R, g = this.g;
        while (g.firstChild) g.removeChild(g.firstChild);
        this.boxes.clear(); this.pos.clear();
        let minX = 0, minY = 0, maxX = 0, maxY = 0, first = true;
        for (const p of L.p) {
          if (first) { minX = maxX = p[1]; minY = maxY = p[2]; first = false; }
          minX = Math.min(minX, p[1]); maxX = Math.max(maxX, p[1]); minY = Math.min(minY, p[2]); maxY = Math.max(maxY, p[2]);
        }
        const centre = (x, y) => [(x - minX) * CW + BW / 2, (y - minY) * CH + BH / 2];
        for (const p of L.p) this.pos.set(p[0], centre(p[1], p[2]));
        // Detached controllers: a strip under the map.
        const stripY = (first ? 0 : maxY - minY + 1) * CH + 34;
        L.d.forEach((d, k) => this.pos.set(d[0], [k * CW + BW / 2, stripY + BH / 2]));
        const edges = svg("g", { class: "edges" });
        for (const e of L.e) {
          const a = this.pos.get(e[0]), b = this.pos.get(e[1]);
          if (!a || !b) continue;
          const ge = svg("g", { "data-edge": "", class: e[2] === 2 ? "edge double" : "edge" });
          ge.setAttribute("data-a", R.ids[e[0]]);
          ge.setAttribute("data-b", R.ids[e[1]]);
          ge.setAttribute("data-lines", String(e[2]));
          const dx = b[0] - a[0], dy = b[1] - a[1], len = Math.hypot(dx, dy) || 1;
          const offs = e[2] === 2 ? [-3.5, 3.5] : [0];
          for (const o of offs) {
            const ox = -dy / len * o, oy = dx / len * o;
            ge.appendChild(svg("line", { x1: a[0] + ox, y1: a[1] + oy, x2: b[0] + ox, y2: b[1] + oy }));
          }
          edges.appendChild(ge);
        }
        g.appendChild(edges);
        if (L.d.length) {
          const label = svg("text", { x: 0, y: stripY - 10, class: "strip-label" });
          label.textContent = "detached (not reachable from the root)";
          g.appendChild(label);
        }
        const boxes = svg("g", { class: "boxes" });
        const add = (lane, modal, detached) => {
          const c = this.pos.get(lane);
          const gb = svg("g", { class: detached ? "box detached" : "box", transform: "translate(" + (c[0] - BW / 2) + "," + (c[1] - BH / 2) + ")" });
          gb.setAttribute("data-controller", R.ids[lane]);
          if (modal) gb.setAttribute("data-modal", "true");
          if (lane === L.root) gb.setAttribute("data-root", "true");
          gb.appendChild(svg("rect", { width: BW, height: BH, rx: 6 }));
          const t = svg("text", { x: BW / 2, y: 16, class: "id" });
          let name = R.label(lane);
          if (name.length > 15) name = name.slice(0, 14) + "…";
          t.textContent = (modal ? "* " : "") + name;
          gb.appendChild(t);
          const ph = svg("text", { x: BW / 2, y: 30, class: "phase" });
          gb.appendChild(ph);
          const title = svg("title", {});
          title.textContent = R.label(lane) + " (" + R.classes[lane] + ")";
          gb.appendChild(title);
          gb.addEventListener("click", () => showController(R, lane));
          boxes.appendChild(gb);
          this.boxes.set(lane, gb);
        };
        for (const p of L.p) add(p[0], p[3] === 1, false);
        for (const d of L.d) add(d[0], d[1] === 1, true);
        g.appendChild(boxes);
        this.arrow = svg("line", { class: "flight", "marker-end": "url(#arrow-" + R.tag + ")" });
        this.arrow.style.display = "none";
        g.appendChild(this.arrow);
        const w = Math.max(maxX - minX + 1, L.d.length, 1) * CW, h = stripY + (L.d.length ? BH + 10 : 0);
        this.bounds = [0, 0, w - (CW - BW), Math.max(h, BH)];
        this.fit();
        this.collisions = L.c;
      };
      MapView.prototype.draw = function (s) {
        const R = this.R;
        if (s.l !== this.layout) { this.layout = s.l; this.build(R.layouts[s.l]); }
        for (const [lane, gb] of this.boxes) {
          const row = s.rows.get(lane);
          const phase = row ? PHASES[row[1]] : "gone";
          gb.setAttribute("class", gb.getAttribute("class").replace(/ (disappeared|appearing|appeared|disappearing|gone|focus)/g, "") + " " + phase + (lane === s.f ? " focus" : ""));
          if (lane === s.f) gb.setAttribute("data-focus", "true"); else gb.removeAttribute("data-focus");
          gb.childNodes[2].textContent = phase + (row && row[2] === 0 ? " · not loaded" : row && row[2] > 1 ? " · loaded ×" + row[2] : "");
        }
        const t = s.t ? R.transitions[s.t[0]] : null;
        if (t && s.t[3] === 1 && t[1] >= 0 && this.pos.has(t[1]) && this.pos.has(t[2])) {
          const a = this.pos.get(t[1]), b = this.pos.get(t[2]);
          const dx = b[0] - a[0], dy = b[1] - a[1], len = Math.hypot(dx, dy) || 1;
          const sx = Math.min(BW / 2 / Math.abs(dx / len || 1e-9), BH / 2 / Math.abs(dy / len || 1e-9));
          this.arrow.setAttribute("x1", a[0] + dx / len * sx); this.arrow.setAttribute("y1", a[1] + dy / len * sx);
          this.arrow.setAttribute("x2", b[0] - dx / len * (sx + 2)); this.arrow.setAttribute("y2", b[1] - dy / len * (sx + 2));
          this.arrow.style.display = "";
        } else this.arrow.style.display = "none";
      };

      // ---- The state panel: what `at` prints.
      function drawState(R, s, host) {
        const frag = document.createDocumentFragment();
        const line = (k, v, cls) => { const p = el("div", "kv " + (cls || "")); p.appendChild(el("span", "k", k)); p.appendChild(el("span", "v", v)); frag.appendChild(p); };
        line("event", "#" + R.seq[s.i] + " · line " + R.line[s.i] + " · " + timeOfDay(R.time[s.i]));
        line("focus", R.label(s.f));
        if (s.t) {
          const t = R.transitions[s.t[0]];
          const inFlight = s.t[3] === 1;
          line(inFlight ? "in flight" : "transition", t[0] + (inFlight ? "" : ", complete"), inFlight ? "warn" : "");
          if (inFlight) {
            const arr = [];
            for (let k = 0; k < s.t[1]; k++) arr.push(R.label(t[3][2 * k]) + " " + R.callbacks[t[3][2 * k + 1]]);
            const miss = [];
            for (let k = 0; k < t[4].length / 2; k++) if (s.t[2] & (1 << k)) miss.push(R.label(t[4][2 * k]) + " " + R.callbacks[t[4][2 * k + 1]]);
            line("arrived", arr.length ? arr.join(", ") : "none");
            line("missing", miss.join(", "), "bad");
          }
        } else line("transition", "none");
        const table = el("table", "ctl");
        const head = el("tr");
        for (const h of ["controller", "class", "phase", "loaded", "modal"]) head.appendChild(el("th", "", h));
        table.appendChild(head);
        const lanes = Array.from(s.rows.keys()).sort((a, b) => a - b);
        for (const l of lanes) {
          const r = s.rows.get(l);
          const tr = el("tr", l === s.f ? "focus" : "");
          tr.setAttribute("data-row", R.ids[l]);
          tr.appendChild(el("td", "", R.label(l)));
          tr.appendChild(el("td", "dim", R.classes[l]));
          tr.appendChild(el("td", "ph " + PHASES[r[1]], PHASES[r[1]]));
          tr.appendChild(el("td", r[2] > 1 ? "bad" : "", r[2] === 0 ? "no" : r[2] === 1 ? "yes" : r[2] + " times"));
          tr.appendChild(el("td", "", r[3] ? "by " + R.label(r[4]) : ""));
          table.appendChild(tr);
        }
        frag.appendChild(el("div", "kv", lanes.length + " alive"));
        frag.appendChild(table);
        host.replaceChildren(frag);
      }

      // ---- The log window: the `log` sentences around the cursor.
      function drawLog(R, i, host) {
        const frag = document.createDocumentFragment();
        // With a filter, the selected events around the cursor.
        let list = null;
        if (R.sel) {
          const k = lower(R.sel, i);
          list = Array.from(R.sel.subarray(Math.max(0, k - 8), Math.min(R.sel.length, k + 9)));
        }
        const from = list ? 0 : Math.max(0, i - 8), to = list ? list.length - 1 : Math.min(R.n - 1, i + 8);
        for (let m = from; m <= to; m++) {
          const j = list ? list[m] : m;
          const row = el("div", "logline" + (j === i ? " cur" : "") + " t-" + R.types[R.k[j]]);
          row.appendChild(el("span", "tm", timeOfDay(R.time[j])));
          row.appendChild(el("span", "sq", "#" + R.seq[j]));
          row.appendChild(el("span", "tx", R.text[j]));
          row.addEventListener("click", () => go(j, R));
          frag.appendChild(row);
        }
        host.replaceChildren(frag);
      }

      function showController(R, lane) {
        const box = $("search");
        box.value = R.ids[lane];
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
        const title = el("h1", "", "spatial-replay report");
        h.appendChild(title);
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
          for (const f of R.findings) counts.set(f[3], (counts.get(f[3]) || 0) + 1);
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

      const maps = [], states = [], logs = [];
      function panels() {
        for (const R of runs) {
          const col = el("div", "col");
          col.setAttribute("data-run", R.tag);
          if (two) col.appendChild(el("h2", "", "run " + R.tag.toUpperCase() + ": " + R.file));
          const mapBox = el("div", "panel mapbox");
          const mt = el("div", "ptitle", "map");
          const fit = el("button", "small", "fit");
          mt.appendChild(fit);
          mapBox.appendChild(mt);
          const m = new MapView(R, mapBox);
          fit.addEventListener("click", () => m.fit());
          col.appendChild(mapBox);
          const side = el("div", "side");
          const st = el("div", "panel state"); st.appendChild(el("div", "ptitle", "state after the cursor's event"));
          const sb = el("div", "body"); st.appendChild(sb);
          const lg = el("div", "panel log"); lg.appendChild(el("div", "ptitle", "log"));
          const lb = el("div", "body"); lg.appendChild(lb);
          side.appendChild(st); side.appendChild(lg);
          col.appendChild(side);
          $("panels").appendChild(col);
          maps.push(m); states.push(sb); logs.push(lb);
        }
      }

      // ---- Lanes: one per controller, drawn on a canvas, only what is in view.
      const LH = 18, LABEL = 170, TOP = 22;
      const lanes = { px: 4, time: false };
      function laneRows() {
        const rows = [];
        for (const R of runs) {
          if (two) rows.push({ R: R, lane: -1, title: "run " + R.tag.toUpperCase() });
          for (let l = 0; l < R.ids.length; l++) if (!R.laneSel || R.laneSel.indexOf(l) >= 0) rows.push({ R: R, lane: l });
        }
        return rows;
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
        laneList = laneRows();
        for (const R of runs) R.laneRow = new Int32Array(R.ids.length).fill(-1);
        laneList.forEach((row, k) => { if (row.lane >= 0) row.R.laneRow[row.lane] = k; });
        if (two) { rowOfA = rowsOf(A, cmp.atA); rowOfB = rowsOf(runs[1], cmp.atB); }
        const wrap = $("lanes-wrap");
        const spacer = $("lanes-spacer");
        const canvas = $("lanes");
        const fitPx = () => Math.max(0.02, (wrap.clientWidth - LABEL - 10) / Math.max(1, total));
        lanes.px = Math.min(12, Math.max(fitPx(), total > 2000 ? 2 : fitPx()));
        const span = A.n ? A.time[A.n - 1] - A.time[0] : 1;
        function size() {
          lanes.usPerPx = Math.max(1, span) / Math.max(1, total * lanes.px);
          spacer.style.width = LABEL + total * lanes.px + 20 + "px";
          spacer.style.height = TOP + laneList.length * LH + 4 + "px";
      wrap.style.height = Math.min(420, TOP + laneList.length * LH + 24) + "px";
          drawLanes();
        }
        wrap.addEventListener("scroll", () => requestAnimationFrame(drawLanes), { passive: true });
        window.addEventListener("resize", () => drawLanes());
        $("zoom-in").addEventListener("click", () => { lanes.px *= 2; size(); centreCursor(); });
        $("zoom-out").addEventListener("click", () => { lanes.px = Math.max(0.01, lanes.px / 2); size(); centreCursor(); });
        $("zoom-fit").addEventListener("click", () => { lanes.px = fitPx(); size(); });
        const axis = $("axis");
        if (two) axis.parentNode.style.display = "none";
        axis.addEventListener("change", () => { lanes.time = axis.checked; size(); centreCursor(); });
        canvas.addEventListener("click", (e) => {
          const hit = hitTest(e);
          if (hit && hit.finding) { go(hit.finding[2], hit.R); return; }
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
            tip.appendChild(el("b", "", hit.R.rules[hit.finding[3]]));
            tip.appendChild(el("div", "", "line " + hit.finding[0] + ", seq " + hit.finding[1]));
            tip.appendChild(el("div", "", hit.finding[5]));
          } else tip.appendChild(el("div", "", "#" + hit.R.seq[hit.i] + " " + hit.R.text[hit.i]));
          tip.hidden = false;
          tip.style.left = Math.min(e.clientX + 14, window.innerWidth - 380) + "px";
          tip.style.top = e.clientY + 14 + "px";
        });
        canvas.addEventListener("mouseleave", () => { $("tip").hidden = true; });
        size();
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
          if (f[2] < 0) continue;
          const fy = laneY(R, f[7]);
          if (fy === null) continue;
          if (Math.abs(xOfIndex(R, f[2]) - x) <= 5 && y >= fy && y <= fy + LH) return { R: R, finding: f };
        }
        if (row.lane < 0) return null;
        const i = two ? null : indexAtX(x);
        if (i === null) return null;
        return { R: R, i: i };
      }
      const COLORS = { appearing: "#e0a43a", appeared: "#3aa06a", disappearing: "#8d7bd6" };
      function drawLanes() {
        const wrap = $("lanes-wrap"), canvas = $("lanes");
        const W = wrap.clientWidth, H = Math.min(wrap.clientHeight, TOP + laneList.length * LH + 4);
        const dpr = window.devicePixelRatio || 1;
        if (canvas.width !== W * dpr || canvas.height !== H * dpr) {
          canvas.width = W * dpr; canvas.height = H * dpr; canvas.style.width = W + "px"; canvas.style.height = H + "px";
        }
        const sx = wrap.scrollLeft, sy = wrap.scrollTop;
        canvas.style.transform = "translate(" + sx + "px," + sy + "px)";
        const c = canvas.getContext("2d");
        c.setTransform(dpr, 0, 0, dpr, 0, 0);
        c.fillStyle = "#ffffff"; c.fillRect(0, 0, W, H);
        const x0 = sx, x1 = sx + W - LABEL;
        const k0 = Math.max(0, Math.floor(sy / LH) - 1), k1 = Math.min(laneList.length, Math.ceil((sy + H) / LH) + 1);
        c.font = "11px system-ui, sans-serif";
        c.textBaseline = "middle";
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
            if (f[2] < 0) continue;
            const x = xOfIndex(R, f[2]) - sx + LABEL;
            if (x < LABEL - 4 || x > W + 4) continue;
            const fy = laneY(R, f[7]);
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
        c.fillStyle = "#ffffff"; c.fillRect(0, 0, LABEL, H); c.fillRect(0, 0, W, TOP);
        c.fillStyle = "#3b4754";
        for (let k = k0; k < k1; k++) {
          const row = laneList[k];
          const y = TOP + k * LH - sy;
          if (y < TOP - 2) continue;
          if (row.lane < 0) { c.fillStyle = "#22303c"; c.fillRect(0, y, LABEL, LH); c.fillStyle = "#fff"; c.fillText(row.title, 6, y + LH / 2); c.fillStyle = "#3b4754"; continue; }
          let name = row.R.label(row.lane);
          if (name.length > 24) name = name.slice(0, 23) + "…";
          c.fillText(name, 6, y + LH / 2);
        }
        c.fillStyle = "#6b7785";
        const step = Math.max(60, 0);
        const end = (two || !lanes.time ? total * lanes.px : xOfIndex(A, A.n - 1)) - sx + LABEL;
        for (let x = LABEL - (sx % step) + step; x < Math.min(W, end); x += step) {
          const i = indexAtX(x - LABEL + sx);
          const label = two ? "row " + i : lanes.time ? duration(A.time[i] - A.time[0]) : "#" + A.seq[i];
          c.fillRect(x, TOP - 5, 1, 5);
          c.fillText(label, x + 3, 10);
        }
        c.strokeStyle = "#d5dbe2"; c.beginPath(); c.moveTo(LABEL + 0.5, 0); c.lineTo(LABEL + 0.5, H); c.stroke();
      }
      function centreCursor() {
        const wrap = $("lanes-wrap");
        const x = two ? cursor * lanes.px : xOfIndex(A, cursor);
        const view = wrap.clientWidth - LABEL;
        if (x < wrap.scrollLeft + 20 || x > wrap.scrollLeft + view - 20) wrap.scrollLeft = Math.max(0, x - view / 2);
      }

      // ---- Findings table: sortable, filterable by rule.
      const sortState = { key: 0, dir: 1 };
      function drawFindings() {
        const filter = $("rule-filter").value;
        const body = $("findings-body");
        const rows = [];
        for (const R of runs) for (const f of R.findings) if (!filter || R.rules[f[3]] === filter) rows.push([R, f]);
        const key = sortState.key;
        const val = (x) => (key === 2 ? x[0].rules[x[1][3]] : key === 3 ? x[1][5] : key === 4 ? x[1][6] : x[1][key]);
        rows.sort((x, y) => { const a = val(x), b = val(y); return (a < b ? -1 : a > b ? 1 : 0) * sortState.dir || x[1][0] - y[1][0]; });
        const frag = document.createDocumentFragment();
        for (const [R, f] of rows) {
          const tr = el("tr", f[4] === 0 ? "error" : "warning");
          tr.setAttribute("data-rule", R.rules[f[3]]);
          tr.setAttribute("data-seq", String(f[1]));
          tr.setAttribute("data-line", String(f[0]));
          if (two) tr.setAttribute("data-run", R.tag);
          tr.appendChild(el("td", "num", (two ? R.tag.toUpperCase() + " " : "") + f[0]));
          tr.appendChild(el("td", "num", f[1] >= 0 ? String(f[1]) : ""));
          tr.appendChild(el("td", "rule", R.rules[f[3]]));
          tr.appendChild(el("td", "msg", f[5]));
          tr.appendChild(el("td", "num", f[6] >= 0 ? "#" + f[6] : ""));
          if (f[2] >= 0) tr.addEventListener("click", () => go(f[2], R));
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
          drawState(R, s, states[k]);
          drawLog(R, i, logs[k]);
        });
        const seq = A.n ? A.seq[at(A, c)] : 0;
        document.body.dataset.seq = String(seq);
        document.body.dataset.index = String(at(A, c));
        if (two) document.body.dataset.row = String(c);
        $("position").textContent = two ? "row " + (c + 1) + " / " + total + " · A #" + seq + " · B #" + (runs[1].n ? runs[1].seq[at(runs[1], c)] : "") : "#" + seq + " · event " + (c + 1) + " / " + fmtInt(total);
        const hash = two ? "#row=" + c : "#seq=" + seq;
        if (ready && location.hash !== hash) { try { history.replaceState(null, "", hash); } catch (e) { /* a sandboxed page keeps its fragment */ } }
        centreCursor();
        drawLanes();
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
        const here = two ? cursor : cursor;
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
          if (R.text[i].indexOf(q) >= 0 || R.ids[R.a[i]] === q || R.ids[R.b[i]] === q) { go(i, R); $("search").classList.remove("miss"); return; }
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

      header();
      panels();
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
    """##
}

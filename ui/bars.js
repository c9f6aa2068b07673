// One bar chart under a picked cell (attnviz.charts.steps' payload) as inline SVG: panels
// over one axis of n categories, each with nice y ticks, a zero line, and bars, open markers
// or a line; the title wraps to the width, one tooltip follows the mouse (or the arrow keys),
// and a button saves the chart as drawn, as a PNG twice its size.
// No chart library: a click draws three of these at once, so each is plain SVG drawn in one pass.
// Drawn by ui/steps.js (put before it by ui.components.component_js) with drawBars; data: the
// payload, and large (presentation mode's 20 px text), name (the PNG's file), saveLabel.
// Drawing helpers: ui/svg.js.

const short = (name) => (name.length > 20 ? `${name.slice(0, 19)}…` : name); // under the axis
const plain = (text) => runs(text).map((r) => r.text).join(" ");

// Bars carry their values, to 3 significant digits as the formulas write them, while there
// are at most this many and each value fits its band: a student checks the sum from them.
const VALUES_MAX_N = 24;
function value(v) {
  const small = v !== 0 && Math.abs(v) < 1e-4;
  const shown = small ? v.toExponential(2) : String(Number(v.toPrecision(3)));
  return shown.startsWith("-") ? `−${shown.slice(1)}` : shown;
}

// a panel's y range: its values and 0, with a little room at an end away from 0 (more where
// the bars carry values: room for the value over the longest)
function range(series, valued = false) {
  let [lo, hi] = [0, 0];
  for (const { y } of series) {
    for (const v of y) if (Number.isFinite(v)) [lo, hi] = [Math.min(lo, v), Math.max(hi, v)];
  }
  if (hi === lo) hi = lo + 1;
  const pad = (valued ? 0.16 : 0.04) * (hi - lo);
  return [lo < 0 ? lo - pad : lo, hi > 0 ? hi + pad : hi];
}

// v_j's open circle, or a point of the line
const dot = (svg, cx, cy, fs, colour, open) =>
  node("circle", open
    ? { cx, cy, r: fs * 0.33, fill: "none", stroke: colour, "stroke-width": 1.5 }
    : { cx, cy, r: fs * 0.22, fill: colour }, svg);

// The legend from (4, y), a row of series as wide as the chart lets it be; returns its foot.
function legend(svg, series, y, width, fs) {
  let [x, base] = [4, y + fs];
  for (const s of series) {
    const w = 28 + widthOf(runs(s.name), fs) + fs;
    if (x + w > width && x > 4) [x, base] = [4, base + fs * 1.6];
    const [cx, cy, colour] = [x + 10, base - fs * 0.35, s.colours[0]];
    if (s.kind === "bars") {
      node("rect", { x: cx - 6, y: cy - 5, width: 12, height: 10, fill: colour }, svg);
    }
    if (s.kind === "line") {
      const line = { x1: cx - 10, x2: cx + 10, y1: cy, y2: cy, stroke: colour };
      node("line", { ...line, "stroke-width": 2 }, svg);
    }
    if (s.kind !== "bars") dot(svg, cx, cy, fs, colour, s.kind === "markers");
    label(svg, runs(s.name), fs, { x: x + 26, y: base });
    x += w;
  }
  return base + fs;
}

// One panel between `top` and `top + p.height`: grid, ticks, y title, zero line, series.
function panel(svg, p, ticks, top, f) {
  const [lo, hi] = p.range;
  const scale = (v) => top + (p.height * (hi - v)) / (hi - lo);
  const across = (v, stroke) => {
    const y = scale(v);
    return { x1: f.left, x2: f.left + f.plotW, y1: y, y2: y, stroke };
  };
  for (const v of ticks.ticks) {
    node("line", across(v, GRID), svg);
    const place = { x: f.left - 6, y: scale(v), "text-anchor": "end" };
    label(svg, runs(number(v, ticks.decimals)), f.fs, { ...place, "dominant-baseline": "central" });
  }
  const turn = `translate(${f.ts * 0.9} ${top + p.height / 2}) rotate(-90)`;
  const centred = { "text-anchor": "middle", "dominant-baseline": "central", transform: turn };
  label(svg, runs(p.yTitle), f.ts, centred);
  node("line", across(0, ZERO), svg);
  for (const s of p.series) {
    const shown = [...s.y.keys()].filter((k) => Number.isFinite(s.y[k]));
    if (s.kind === "bars") {
      const thin = Math.max(f.band * 0.85, Math.min(f.band, 1)); // under a pixel, a bar fades
      // the values at 0.85 of the ticks' size, smaller where the widest needs it (not under
      // 10 px: then none)
      const texts = p.valued ? shown.map((k) => value(s.y[k])) : [];
      const widest = Math.max(0, ...texts.map((t) => widthOf(runs(t), f.fs * 0.85)));
      const size = f.fs * 0.85 * Math.min(1, (f.band - 2) / widest);
      const fits = size >= 10;
      for (const k of shown) {
        const w = k === f.highlight ? Math.max(thin, 2) : thin; // key j, seen among 512
        const [a, b] = [scale(s.y[k]), scale(0)];
        const bar = { x: f.at(k) - w / 2, y: Math.min(a, b), width: w, height: Math.abs(a - b) };
        node("rect", { ...bar, class: "bar", fill: s.colours[k] ?? s.colours[0] }, svg);
        if (!texts.length || !fits) continue;
        const up = s.y[k] >= 0; // over a bar that rises, under one that falls
        const place = { x: f.at(k), y: up ? a - 3 : a + size, "text-anchor": "middle" };
        label(svg, runs(value(s.y[k])), size, { ...place, class: "value" });
      }
      continue;
    }
    if (s.kind === "line") {
      const d = shown.map((k, m) => `${m ? "L" : "M"}${f.at(k)} ${scale(s.y[k])}`).join("");
      node("path", { d, fill: "none", stroke: s.colours[0], "stroke-width": 2 }, svg);
    }
    const open = s.kind === "markers";
    for (const k of shown) dot(svg, f.at(k), scale(s.y[k]), f.fs, s.colours[0], open);
  }
}

// The categories under the axis from y = bottom: every key's name (set vertically, kana and
// kanji upright as on the enlarged map, when too wide for their bands), or numbered ticks
// from 1. Returns their foot.
function categories(svg, data, bottom, f) {
  const { n, names, highlight } = data;
  if (!data.tickNames) {
    const count = Math.floor(f.plotW / (widthOf(runs(String(n)), f.fs) + f.fs * 1.5));
    for (const v of niceTicks(1, n, Math.max(1, count), true).ticks) {
      const place = { x: f.at(v - 1), y: bottom + f.fs * 1.2, "text-anchor": "middle" };
      if (v >= 1 && v <= n) label(svg, runs(String(v)), f.fs, place);
    }
    return bottom + f.fs * 1.6;
  }
  const shown = names.map(short);
  const widest = Math.max(...shown.map((t) => widthOf(runs(t), f.fs)));
  const turned = widest + 4 > f.band;
  const size = turned ? Math.min(f.fs, f.band * 0.9) : f.fs; // no wider than a band
  shown.forEach((t, k) => {
    const place = turned
      ? { x: f.at(k), y: bottom + 4, style: "writing-mode: vertical-rl" }
      : { x: f.at(k), y: bottom + f.fs * 1.2, "text-anchor": "middle" };
    label(svg, runs(t), size, { ...place, fill: k === highlight ? "#e02020" : INK });
  });
  return bottom + (turned ? 10 + (widest * size) / f.fs : f.fs * 1.6);
}

// The whole chart `width` px wide, as a new <svg>; with where its plot and panels are.
function chart(data, panels, width) {
  const [fs, ts] = data.large ? [20, 20] : [12, 14]; // ticks and legend; titles
  const yTicks = panels.map((p) => niceTicks(...p.range, Math.max(2, Math.round(p.height / 40))));
  const tickWidths = yTicks.flatMap((t) =>
    t.ticks.map((v) => widthOf(runs(number(v, t.decimals)), fs)),
  );
  const left = (panels.some((p) => p.yTitle) ? ts * 1.6 : 4) + Math.max(...tickWidths) + 8;
  const plotW = Math.max(40, width - left - fs);
  const band = plotW / data.n;
  const at = (k) => left + (k + 0.5) * band; // category k's centre
  const f = { fs, ts, left, plotW, band, at, highlight: data.highlight };
  const svg = node("svg", { width, "font-family": FONT, tabindex: 0, role: "img" });
  svg.setAttribute("aria-label", plain(data.title));
  node("rect", { width: "100%", height: "100%", fill: "#fff" }, svg); // the PNG's ground too
  let y = 0;
  for (const line of wrap(data.title, ts, width - 8)) {
    label(svg, line, ts, { x: 4, y: (y += ts * 1.3), class: "title" });
  }
  y += ts * 0.5;
  if (data.legend) y = legend(svg, panels.flatMap((p) => p.series), y, width, fs);
  const hover = node("rect", { class: "hover", fill: "rgba(0, 0, 0, 0.07)", display: "none" }, svg);
  const places = panels.map((p, k) => {
    const top = y + (k ? fs * 1.5 : fs * 0.5);
    panel(svg, p, yTicks[k], top, f);
    y = top + p.height;
    return { top, bottom: y, series: p.series };
  });
  y = categories(svg, data, y, f);
  for (const line of wrap(data.xTitle, ts, plotW)) {
    label(svg, line, ts, { x: left + plotW / 2, y: (y += ts * 1.3), "text-anchor": "middle" });
  }
  svg.setAttribute("height", Math.ceil(y + ts * 0.5));
  return { svg, hover, places, left, band, plotW, width };
}

// Text with <sub> as HTML, for the tooltip.
function html(text) {
  const box = document.createElement("div");
  for (const { text: t, sub } of runs(text)) {
    box.append(sub ? Object.assign(document.createElement("sub"), { textContent: t }) : t);
  }
  return box;
}

// Draw chart `data` into `root` (a div of class "bars"), with `buttons` beside its PNG button.
function drawBars(root, data, buttons = []) {
  root.classList.toggle("large", Boolean(data.large));
  const panels = data.panels.map((p) => {
    const series = p.series.map((s) => ({ ...s, y: floats(s.values) }));
    const height = data.large ? 1.25 * p.height : p.height; // room for ticks at 20 px
    const valued = data.n <= VALUES_MAX_N && series.some((s) => s.kind === "bars");
    return { ...p, height, series, valued, range: range(series, valued) };
  });
  const tip = Object.assign(document.createElement("div"), { className: "tip" });
  const save = Object.assign(document.createElement("button"), { className: "save" });
  save.textContent = data.saveLabel;
  save.onclick = () => savePng(root.querySelector("svg"), data.name);
  const row = Object.assign(document.createElement("div"), { className: "buttons" });
  row.append(save, ...buttons);
  let drawn = null; // chart()'s, for the tooltip

  // the tooltip of category k in panel p, beside (x, y) px in the chart; returns its text
  const show = (k, p, x, y) => {
    const { hover, places, left, band } = drawn;
    const head = html(data.names ? data.names[k] : `${plain(data.xTitle)} = ${k + 1}`);
    const rows = places[p].series.map((s) =>
      html(`${s.name ? `${s.name} = ` : ""}${s.y[k].toFixed(4)}`),
    );
    tip.replaceChildren(head, ...rows);
    Object.assign(tip.style, { display: "block", left: `${x + 12}px`, top: `${y + 12}px` });
    tip.classList.toggle("flip", x > drawn.width / 2);
    const [top, bottom] = [places[0].top, places.at(-1).bottom];
    const column = { x: left + k * band, width: band, y: top, height: bottom - top };
    for (const [a, v] of Object.entries(column)) hover.setAttribute(a, v);
    hover.removeAttribute("display");
    return [head, ...rows].map((row) => row.textContent).join(", ");
  };
  const hide = () => {
    tip.style.display = "none";
    drawn?.hover.setAttribute("display", "none");
  };
  // keyboard: the arrows move along the categories (up and down: between the panels)
  let [at, panelAt] = [data.highlight ?? 0, 0];
  const moves = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

  const render = (width) => {
    const focused = drawn && drawn.svg === root.getRootNode().activeElement;
    drawn = chart(data, panels, width);
    const { svg, places, left, band, plotW } = drawn;
    svg.onpointermove = (event) => {
      const box = svg.getBoundingClientRect();
      const [x, y] = [event.clientX - box.left, event.clientY - box.top];
      const off = places.map((p) => Math.max(p.top - y, y - p.bottom, 0)); // px off each panel
      const p = off.indexOf(Math.min(...off));
      if (x < left || x > left + plotW || off[p] > 12) return hide();
      show(Math.min(data.n - 1, Math.floor((x - left) / band)), p, x, y);
    };
    svg.onpointerleave = hide;
    svg.onblur = hide;
    svg.onkeydown = (event) => {
      if (!moves[event.key]) return;
      event.preventDefault();
      const [dk, dp] = moves[event.key];
      at = Math.min(data.n - 1, Math.max(0, at + dk));
      panelAt = Math.min(places.length - 1, Math.max(0, panelAt + dp));
      const y = (places[panelAt].top + places[panelAt].bottom) / 2;
      svg.setAttribute("aria-label", show(at, panelAt, left + (at + 0.5) * band, y));
    };
    root.replaceChildren(svg, tip, row);
    if (focused) svg.focus();
  };
  // Drawn to the width of its column, again whenever that changes. The width is the one the
  // observer last saw after a layout: read here, it would lay the whole page out in the
  // middle of a click's rerun, once for each chart. A new chart is drawn by the observer's
  // first call, before the page is painted.
  root.fit = (width) => {
    if (width > 0 && width !== drawn?.width) render(width);
  };
  root.replaceChildren(tip, row);
  if (root.width) root.fit(root.width);
  if (!root.sizer) {
    root.sizer = new ResizeObserver(([entry]) => {
      root.width = Math.floor(entry.contentRect.width);
      root.fit(root.width);
    });
    root.sizer.observe(root);
  }
}

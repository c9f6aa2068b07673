// One attention map as a picture: the PNG has one pixel per cell (drawn pixelated), token
// labels, titles and the colour bar's ticks are text, one tooltip follows the mouse, and a
// click (or Enter on the cell the arrow keys chose) picks it. A box dragged on the map zooms
// into it (+ and − too); the reset button or 0 shows the whole map again. (No double click:
// its two clicks would pick a cell each.)
// No chart library: it redraws in a few milliseconds.
// data: attnviz.charts.cells.cell_map's payload, z (float32, base64) row by row; alt, the map
// in words; notes, the paragraphs under the map, and order (ui/common.js).

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

// Text with the one tag our axis titles use, <sub>…</sub>, made an element; the rest stays text.
function rich(className, text) {
  const node = el("div", className);
  text.split(/(<sub>.*?<\/sub>)/).forEach((part) => {
    const sub = part.match(/^<sub>(.*)<\/sub>$/);
    node.append(sub ? el("sub", "", sub[1]) : document.createTextNode(part));
  });
  return node;
}

// Characters set upright in vertical text (text-orientation: mixed): kana, CJK ideographs and
// symbols, Hangul, full-width forms.
const UPRIGHT = /[\u1100-\u11ff\u2e80-\ua4cf\uac00-\ud7af\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef]/u;

// The map as the page shows it, drawn again at twice the size on a white canvas and saved as
// a PNG: every text node at its own place and font, the cells in view unsmoothed, the colour
// bar and the picked cell.
async function savePng(root, name) {
  const scale = 2;
  const box = root.getBoundingClientRect();
  const canvas = document.createElement("canvas");
  canvas.width = Math.ceil(box.width * scale);
  canvas.height = Math.ceil(box.height * scale);
  const ctx = canvas.getContext("2d");
  ctx.scale(scale, scale);
  ctx.fillStyle = "#fff";
  ctx.fillRect(0, 0, box.width, box.height);
  const place = (node) => {
    const r = node.getBoundingClientRect();
    return [r.left - box.left, r.top - box.top, r.width, r.height];
  };
  const { r0, r1, c0, c1 } = root.view; // the cells in view, no more
  ctx.imageSmoothingEnabled = false;
  const map = root.querySelector(".plot img");
  ctx.drawImage(map, c0, r0, c1 - c0, r1 - r0, ...place(root.querySelector(".plot")));
  const bar = new Image();
  bar.src = root.querySelector(".bar").style.backgroundImage.slice(5, -2); // url("…")
  await bar.decode();
  ctx.imageSmoothingEnabled = true;
  ctx.drawImage(bar, ...place(root.querySelector(".bar")));
  const picked = root.querySelector(".picked");
  if (picked.style.display !== "none") {
    ctx.strokeStyle = "#e02020";
    ctx.lineWidth = 3;
    ctx.strokeRect(...place(picked));
  }
  ctx.fillStyle = "#222";
  ctx.textBaseline = "middle";
  const texts = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = texts.nextNode(); node; node = texts.nextNode()) {
    if (!node.textContent.trim() || node.parentElement.closest(".tip, button")) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    const [x, y, w, h] = place(range);
    const style = getComputedStyle(node.parentElement);
    ctx.font = `${style.fontSize} ${style.fontFamily}`;
    ctx.save();
    if (style.overflow === "hidden") {
      ctx.beginPath();
      ctx.rect(...place(node.parentElement)); // a label cut at its cell is cut here too
      ctx.clip();
    }
    if (style.writingMode.startsWith("vertical")) {
      // canvas has no vertical writing: each character at its place on screen, CJK upright,
      // others turned a quarter, as the browser sets them
      ctx.textAlign = "center";
      const text = node.textContent;
      for (let k = 0; k < text.length; ) {
        const char = String.fromCodePoint(text.codePointAt(k));
        range.setStart(node, k);
        range.setEnd(node, k + char.length);
        const [cx, cy, cw, ch] = place(range);
        ctx.save();
        ctx.translate(cx + cw / 2, cy + ch / 2);
        if (!UPRIGHT.test(char)) ctx.rotate(Math.PI / 2);
        ctx.fillText(char, 0, 0);
        ctx.restore();
        k += char.length;
      }
    } else {
      ctx.fillText(node.textContent, x, y + h / 2);
    }
    ctx.restore();
  }
  const link = document.createElement("a");
  link.href = canvas.toDataURL("image/png");
  link.download = `${name}.png`;
  link.click();
}

// The labels of cells a … b − 1 of an axis: every token's name while at most `dense` are in
// view, else every tenth position numbered (positions from 0, labels from 1).
function axis(className, names, positions, a, b, dense) {
  const box = el("div", className);
  const all = b - a <= dense;
  box.classList.toggle("sparse", !all);
  box.style[className === "row-labels" ? "gridTemplateRows" : "gridTemplateColumns"] =
    `repeat(${b - a}, minmax(0, 1fr))`;
  for (let k = a; k < b; k += 1) {
    const n = positions[k] + 1;
    box.append(el("span", "label", all ? names[k] : n % 10 === 0 ? String(n) : ""));
  }
  return box;
}

// Whether `a` and `b` differ at most in the cell picked (and their order): values compared
// as they are, arrays and objects as their JSON (the names and ticks: small).
function samePicture(a, b) {
  const rest = ({ selected, order, ...other }) => other;
  const [x, y] = [rest(a), rest(b)];
  const same = (u, v) => u === v || JSON.stringify(u) === JSON.stringify(v);
  const keys = Object.keys(x);
  return keys.length === Object.keys(y).length && keys.every((k) => same(x[k], y[k]));
}

export default function ({ data, parentElement, setTriggerValue }) {
  if (superseded(parentElement, data.order)) return; // ui/common.js
  let root = parentElement.querySelector(".heatmap");
  // A pick changes only the outlined cell: the map stays as it is (with its zoom and the
  // keyboard's focus) and the outline moves. Drawn anew, the map would be laid out again
  // and its focus given back, each a layout of the whole page on every click.
  if (root?.shown && samePicture(root.shown, data)) {
    root.repick(data.selected);
    return;
  }
  const { rows, cols, rowNames, colNames, bar } = data;
  let { selected } = data;
  let z = null; // decoded on the first tooltip: 15–40 ms at N = 512, not paid by a redraw
  const pct = (k, n) => `${(100 * k) / n}%`;

  // a redraw (another head, the other view, a language) keeps a keyboard user's focus on it
  const focused = root && root.querySelector(".plot") === root.getRootNode().activeElement;
  if (!root) {
    root = el("div", "heatmap");
    parentElement.append(root);
  }
  // the zoom outlives a redraw of a map of the same shape (a pick, the other view)
  const kept = root.view && root.view.rows === rows && root.view.cols === cols;
  const view = kept ? root.view : { rows, cols, r0: 0, r1: rows, c0: 0, c1: cols };
  root.view = view;

  const plot = el("div", "plot");
  plot.style.aspectRatio = `${cols} / ${rows}`;
  const img = el("img");
  img.src = data.src;
  img.alt = data.alt; // the map in words (ui.mosaic.map_alt): title, size, largest value
  img.draggable = false; // a drag on the map draws a zoom box, it does not carry the image off
  const mark = el("div", "picked");
  const cursor = el("div", "cursor"); // the keyboard's cell
  const band = el("div", "band"); // the box being dragged
  const tip = el("div", "tip");
  const cells = el("div", "cells"); // the picture, cut at the map's edge when zoomed
  cells.append(img);
  plot.append(cells, mark, cursor, band, tip);
  // a node over cell (r, c), hidden when the cell is out of view
  const cover = (node, cell) => {
    const [vr, vc] = [view.r1 - view.r0, view.c1 - view.c0];
    const [r, c] = [cell[0] - view.r0, cell[1] - view.c0];
    const inside = r >= 0 && r < vr && c >= 0 && c < vc;
    Object.assign(node.style, {
      display: inside ? "block" : "none",
      top: pct(r, vr),
      left: pct(c, vc),
      height: pct(1, vr),
      width: pct(1, vc),
    });
  };
  // (x, y) px inside the map, kept inside it
  const local = (event) => {
    const box = plot.getBoundingClientRect();
    return {
      x: Math.min(box.width, Math.max(0, event.clientX - box.left)),
      y: Math.min(box.height, Math.max(0, event.clientY - box.top)),
    };
  };
  const cellAt = ({ x, y }) => {
    const r = Math.floor((y / plot.clientHeight) * (view.r1 - view.r0));
    const c = Math.floor((x / plot.clientWidth) * (view.c1 - view.c0));
    return [Math.min(view.r1 - 1, view.r0 + r), Math.min(view.c1 - 1, view.c0 + c)];
  };
  // the tooltip of cell (r, c), at (x, y) px inside the map
  const show = ([r, c], x, y) => {
    const text = `${rowNames[r]} → ${colNames[c]}`;
    z ??= floats(data.z);
    const cell = z[r * cols + c];
    const value = Number.isFinite(cell) ? cell.toFixed(4) : data.maskedLabel;
    tip.replaceChildren(el("div", "", text), el("div", "value", value));
    tip.style.display = "block";
    tip.style.left = `${x + 12}px`;
    tip.style.top = `${y + 12}px`;
    tip.classList.toggle("flip", x > plot.clientWidth / 2);
    return `${text}: ${value}`;
  };
  const pick = ([r, c]) =>
    data.pickable && setTriggerValue("pick", [data.rowPositions[r], data.colPositions[c]]);

  // A press and release in place picks a cell; a drag zooms into the cells it boxed (only
  // along one axis when the box is a thin line, as Plotly's zoom does).
  const far = (a, b) => Math.abs(a - b) > 4;
  let start = null;
  plot.onpointerdown = (event) => {
    if (event.button !== 0) return;
    start = local(event);
    plot.setPointerCapture(event.pointerId);
  };
  plot.onpointermove = (event) => {
    const p = local(event);
    if (start && (far(p.x, start.x) || far(p.y, start.y))) {
      tip.style.display = "none";
      Object.assign(band.style, {
        display: "block",
        left: `${Math.min(p.x, start.x)}px`,
        top: `${Math.min(p.y, start.y)}px`,
        width: `${Math.abs(p.x - start.x)}px`,
        height: `${Math.abs(p.y - start.y)}px`,
      });
    } else if (!start) {
      show(cellAt(p), p.x, p.y);
    }
  };
  plot.onpointerup = (event) => {
    if (!start) return;
    const [a, b] = [start, local(event)];
    start = null;
    band.style.display = "none";
    if (!far(a.x, b.x) && !far(a.y, b.y)) {
      pick(cellAt(a));
      return;
    }
    const span = (p, q, size, lo, hi) => {
      const from = lo + Math.floor((Math.min(p, q) / size) * (hi - lo));
      const to = lo + Math.ceil((Math.max(p, q) / size) * (hi - lo));
      return [Math.min(from, hi - 1), Math.max(Math.min(to, hi), from + 1)];
    };
    if (far(a.y, b.y)) [view.r0, view.r1] = span(a.y, b.y, plot.clientHeight, view.r0, view.r1);
    if (far(a.x, b.x)) [view.c0, view.c1] = span(a.x, b.x, plot.clientWidth, view.c0, view.c1);
    draw();
  };
  plot.onpointercancel = () => {
    start = null;
    band.style.display = "none";
  };
  plot.onpointerleave = () => {
    if (!start) tip.style.display = "none";
  };
  const whole = () => {
    Object.assign(view, { r0: 0, r1: rows, c0: 0, c1: cols });
    draw();
  };
  // Keyboard: Tab to the map, arrows move a cell (the view follows it), Enter or Space picks
  // it, + and − zoom in and out around it, 0 shows the whole map.
  plot.tabIndex = 0;
  plot.setAttribute("role", "img");
  plot.setAttribute("aria-label", data.alt); // each arrow key names its cell instead
  let at = selected ? [...selected] : [0, 0];
  let keyed = false;
  // the view of `size` cells along one axis of n, centred on cell k as far as it can be
  const around = (k, size, n) => {
    const lo = Math.min(Math.max(0, k - Math.floor(size / 2)), n - size);
    return [lo, lo + size];
  };
  const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
  plot.onkeydown = (event) => {
    const [vr, vc] = [view.r1 - view.r0, view.c1 - view.c0];
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      pick(at);
      return;
    }
    if (event.key === "+" || event.key === "=" || event.key === "-") {
      const f = event.key === "-" ? 2 : 0.5;
      [view.r0, view.r1] = around(at[0], Math.min(rows, Math.max(1, Math.ceil(vr * f))), rows);
      [view.c0, view.c1] = around(at[1], Math.min(cols, Math.max(1, Math.ceil(vc * f))), cols);
    } else if (event.key === "0") {
      Object.assign(view, { r0: 0, r1: rows, c0: 0, c1: cols });
    } else if (moves[event.key]) {
      const [dr, dc] = moves[event.key];
      const clamp = (k, n) => Math.min(n - 1, Math.max(0, k));
      at = [clamp(at[0] + dr, rows), clamp(at[1] + dc, cols)];
      // out of view: the view slides to it, its size kept
      if (at[0] < view.r0 || at[0] >= view.r1) [view.r0, view.r1] = around(at[0], vr, rows);
      if (at[1] < view.c0 || at[1] >= view.c1) [view.c0, view.c1] = around(at[1], vc, cols);
    } else {
      return;
    }
    event.preventDefault();
    keyed = true;
    draw();
    const [r, c] = [at[0] - view.r0, at[1] - view.c0];
    const w = plot.clientWidth / (view.c1 - view.c0);
    const h = plot.clientHeight / (view.r1 - view.r0);
    plot.setAttribute("aria-label", show(at, (c + 0.5) * w, (r + 0.5) * h));
  };
  plot.onblur = () => {
    keyed = false;
    cursor.style.display = "none";
    tip.style.display = "none";
  };

  const barImg = el("div", "bar"); // a background, so the 1 × 256 image sets no height
  barImg.style.backgroundImage = `url(${bar.src})`;
  const ticks = el("div", "ticks");
  bar.ticks.forEach(([f, text]) => {
    const span = el("span", "label", text);
    span.style.top = pct(1 - f, 1);
    ticks.append(span);
  });
  // the labels are placed, so they give their column no width: as wide as the longest
  ticks.style.minWidth = `${Math.max(...bar.ticks.map(([, text]) => text.length)) + 1}ch`;

  root.classList.toggle("large", Boolean(data.large));
  // the map's track grows to the width that makes it `height` tall, no wider
  root.style.gridTemplateColumns =
    `auto max-content minmax(0, ${(data.height * cols) / rows}px) 0.9em max-content`;
  const reset = el("button", "reset", data.resetLabel);
  reset.onclick = whole;
  const save = el("button", "save", data.saveLabel);
  save.onclick = () => savePng(root, data.name);
  const buttons = el("div", "buttons");
  buttons.append(reset, save);
  const head = el("div", "head");
  head.append(rich("title", data.title), buttons);
  let rowLabels = el("div");
  let colLabels = el("div");
  root.replaceChildren(
    head,
    rich("y-title", data.yTitle),
    rowLabels,
    plot,
    barImg,
    ticks,
    colLabels,
    rich("x-title", data.xTitle),
  );
  drawNotes(parentElement, data.notes, data.large); // ui/common.js
  // Labels no taller (rows) or wider (columns) than their cells, or ten cells when every
  // tenth is numbered: shrink them when the map is drawn small (a narrow column,
  // presentation mode's larger text). Only ever shrink within one view, so that the labels'
  // own width cannot make the map grow and shrink in turn.
  let rowPx = Infinity;
  let colPx = Infinity;
  const fit = () => {
    const base = parseFloat(getComputedStyle(root).fontSize);
    const [vr, vc] = [view.r1 - view.r0, view.c1 - view.c0];
    const cells = (box) => (box.classList.contains("sparse") ? 9 : 0.9);
    rowPx = Math.min(rowPx, base, (cells(rowLabels) * plot.clientHeight) / vr);
    const line = parseFloat(getComputedStyle(colLabels).getPropertyValue("--col-line"));
    colPx = Math.min(colPx, base, (cells(colLabels) * plot.clientWidth) / vc / line);
    rowLabels.style.fontSize = `${rowPx}px`;
    colLabels.style.fontSize = `${colPx}px`;
  };
  const outline = () => (selected ? cover(mark, selected) : (mark.style.display = "none"));
  // the view drawn: the picture moved and scaled under the map's frame, labels, outlines
  function draw() {
    const [vr, vc] = [view.r1 - view.r0, view.c1 - view.c0];
    Object.assign(img.style, {
      width: pct(cols, vc),
      height: pct(rows, vr),
      left: pct(-view.c0, vc),
      top: pct(-view.r0, vr),
    });
    outline();
    if (keyed) cover(cursor, at);
    const fresh = [
      axis("row-labels", rowNames, data.rowPositions, view.r0, view.r1, data.denseMax),
      axis("col-labels", colNames, data.colPositions, view.c0, view.c1, data.denseMax),
    ];
    rowLabels.replaceWith(fresh[0]);
    colLabels.replaceWith(fresh[1]);
    [rowLabels, colLabels] = fresh;
    reset.hidden = vr === rows && vc === cols;
    rowPx = Infinity;
    colPx = Infinity;
    if (drawn) fit(); // a zoom; the first drawing is fitted once the map is laid out
    drawn = true;
  }
  let drawn = false;
  draw();
  if (focused) plot.focus();
  root.shown = data;
  root.repick = (cell) => {
    selected = cell;
    if (cell) at = [...cell];
    outline();
  };
  root.fitter?.disconnect();
  root.fitter = new ResizeObserver(fit);
  root.fitter.observe(plot);
}

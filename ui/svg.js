// Drawing in SVG, for ui/bars.js (put before it by ui.components.component_js): nodes,
// text with subscripts and its wrapping, nice ticks, and the saved PNG.

const NS = "http://www.w3.org/2000/svg";
// Plotly's fonts, as the page's other charts: fonts of the system, which the saved PNG finds
// too (an SVG drawn as an image loads no web font, and a text set wider would be cut)
const FONT = '"Open Sans", verdana, arial, sans-serif';
const INK = "#444444";
const GRID = "#ebebeb";
const ZERO = "#888888";
// no line starts with the first of these or ends with the second (Japanese line breaking)
const NO_START = "、。，．・：；？！ー）」』】〕,.:;?!)";
const NO_END = "（「『【〔(";
// kana, CJK ideographs and symbols, Hangul, full-width forms: a line may break around each
const WIDE = /[\u1100-\u11ff\u2e80-\ua4cf\uac00-\ud7af\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef]/u;

function node(tag, attrs, parent) {
  const made = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) made.setAttribute(k, v);
  parent?.append(made);
  return made;
}

// About `count` ticks between lo and hi, at 1, 2, 2.5 or 5 × a power of ten (integers only
// for a counting axis); `decimals` shows each exactly.
function niceTicks(lo, hi, count, integer = false) {
  if (!(hi > lo)) return { ticks: [lo], decimals: 0 };
  const raw = (hi - lo) / Math.max(1, count);
  const power = 10 ** Math.floor(Math.log10(raw));
  const steps = integer ? [1, 2, 5, 10] : [1, 2, 2.5, 5, 10];
  let step = power * steps.find((s) => s * power >= raw * (1 - 1e-9));
  if (integer) step = Math.max(1, Math.round(step));
  const ticks = [];
  for (let k = Math.ceil(lo / step - 1e-9); k * step <= hi + step * 1e-9; k += 1) {
    ticks.push(k * step);
  }
  let decimals = 0;
  const whole = (x) => Math.abs(x - Math.round(x)) < 1e-6;
  while (decimals < 12 && !whole(step * 10 ** decimals)) decimals += 1;
  return { ticks, decimals };
}

// a tick's label as Plotly sets it: no trailing zeros, a true minus sign
function number(v, decimals) {
  const shown = String(Number(v.toFixed(decimals)));
  return shown.startsWith("-") ? `−${shown.slice(1)}` : shown;
}

// Text with the one tag our titles use, <sub>…</sub>, as runs [{text, sub}].
const runs = (text) =>
  (text || "")
    .split(/(<sub>.*?<\/sub>)/)
    .filter(Boolean)
    .map((part) => {
      const sub = part.match(/^<sub>(.*)<\/sub>$/);
      return { text: sub ? sub[1] : part, sub: Boolean(sub) };
    });

const measurer = document.createElement("canvas").getContext("2d");
const widths = new Map(); // by font and text: a title is measured a piece at a time
function widthOf(parts, size) {
  let width = 0;
  for (const { text, sub } of parts) {
    const font = `${sub ? 0.75 * size : size}px ${FONT}`;
    const key = `${font}|${text}`;
    if (!widths.has(key)) {
      measurer.font = font;
      widths.set(key, measurer.measureText(text).width);
    }
    width += widths.get(key);
  }
  return width;
}

// Rich text as lines no wider than `max`: a line breaks after a space, or around a wide
// character where Japanese allows it; a subscript stays with what it follows.
function wrap(text, size, max) {
  const chars = runs(text).flatMap(({ text: t, sub }) => [...t].map((ch) => ({ ch, sub })));
  const lines = [[]];
  let used = 0;
  let unit = []; // the characters up to the next place a line may break
  const parts = (chars) => chars.map(({ ch, sub }) => ({ text: ch, sub }));
  const flush = () => {
    const end = unit.findLastIndex((c) => c.ch.trim()) + 1; // its spaces may pass the edge
    if (used + widthOf(parts(unit.slice(0, end)), size) > max && lines.at(-1).length) {
      lines.push([]);
      used = 0;
    }
    lines.at(-1).push(...unit);
    used += widthOf(parts(unit), size);
    unit = [];
  };
  chars.forEach((c, k) => {
    const prev = chars[k - 1]?.ch ?? "";
    const open =
      k > 0 && c.ch.trim() && !NO_START.includes(c.ch) && !NO_END.includes(prev) &&
      (!prev.trim() || WIDE.test(c.ch) || WIDE.test(prev)) && !c.sub;
    if (open) flush();
    unit.push(c);
  });
  flush();
  // each line as runs, its trailing spaces dropped
  return lines.map((line) => {
    const text = [];
    for (const { ch, sub } of line) {
      if (text.at(-1)?.sub === sub) text.at(-1).text += ch;
      else text.push({ text: ch, sub });
    }
    if (text.length) text.at(-1).text = text.at(-1).text.trimEnd();
    return text;
  });
}

// One line of rich text at (x, y): a subscript smaller and lower, as Plotly sets <sub>.
function label(parent, parts, size, attrs) {
  const text = node("text", { "font-size": size, fill: INK, ...attrs }, parent);
  let low = false;
  for (const { text: t, sub } of parts) {
    const span = node("tspan", sub ? { "font-size": 0.75 * size } : {}, text);
    if (sub !== low) span.setAttribute("dy", (sub ? 0.3 : -0.3) * size);
    span.textContent = t;
    low = sub;
  }
  return text;
}

// The chart as drawn, on a white canvas at twice its size, saved as `name`.png.
async function savePng(svg, name) {
  const [w, h] = ["width", "height"].map((a) => Number(svg.getAttribute(a)));
  const copy = svg.cloneNode(true);
  copy.querySelector(".hover")?.remove();
  const blob = new Blob([new XMLSerializer().serializeToString(copy)], { type: "image/svg+xml" });
  const url = URL.createObjectURL(blob);
  const image = new Image();
  image.src = url;
  await image.decode();
  URL.revokeObjectURL(url);
  const canvas = document.createElement("canvas");
  [canvas.width, canvas.height] = [2 * w, 2 * h];
  const ctx = canvas.getContext("2d");
  ctx.fillStyle = "#fff";
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.drawImage(image, 0, 0, canvas.width, canvas.height);
  const link = document.createElement("a");
  link.href = canvas.toDataURL("image/png");
  link.download = `${name}.png`;
  link.click();
}

// One attention map as a picture: the PNG has one pixel per cell (drawn pixelated), token
// labels, titles and the colour bar's ticks are text, one tooltip follows the mouse, and a
// click (or Enter on the cell the arrow keys chose) picks it. No chart library: it redraws in
// a few milliseconds.
// data: attnviz.charts.cells.cell_map's payload; z, rowNames, colNames row by row.

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

// The map as the page shows it, drawn again at twice the size on a white canvas and saved as
// a PNG: every text node at its own place and font (vertical labels turned), the cells
// unsmoothed, the colour bar and the picked cell.
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
  const map = root.querySelector(".plot img");
  ctx.imageSmoothingEnabled = false;
  ctx.drawImage(map, ...place(map));
  const bar = new Image();
  bar.src = root.querySelector(".bar").style.backgroundImage.slice(5, -2); // url("…")
  await bar.decode();
  ctx.imageSmoothingEnabled = true;
  ctx.drawImage(bar, ...place(root.querySelector(".bar")));
  const picked = root.querySelector(".picked");
  if (picked) {
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
    if (style.writingMode.startsWith("vertical")) {
      ctx.save();
      ctx.translate(x + w / 2, y);
      ctx.rotate(Math.PI / 2);
      ctx.fillText(node.textContent, 0, 0);
      ctx.restore();
    } else {
      ctx.fillText(node.textContent, x, y + h / 2);
    }
  }
  const link = document.createElement("a");
  link.href = canvas.toDataURL("image/png");
  link.download = `${name}.png`;
  link.click();
}

function labels(className, texts) {
  const box = el("div", className);
  texts.forEach((text) => box.append(el("span", "label", text)));
  return box;
}

export default function ({ data, parentElement, setTriggerValue }) {
  const { rows, cols, z, rowNames, colNames, selected, bar } = data;
  const pct = (k, n) => `${(100 * k) / n}%`;

  const plot = el("div", "plot");
  plot.style.aspectRatio = `${cols} / ${rows}`;
  const img = el("img");
  img.src = data.src;
  img.alt = data.title;
  plot.append(img);
  if (selected) {
    const mark = el("div", "picked");
    Object.assign(mark.style, {
      top: pct(selected[0], rows),
      left: pct(selected[1], cols),
      height: pct(1, rows),
      width: pct(1, cols),
    });
    plot.append(mark);
  }
  const tip = el("div", "tip");
  const cursor = el("div", "cursor"); // the keyboard's cell
  plot.append(cursor, tip);
  const cellAt = (event) => {
    const box = plot.getBoundingClientRect();
    const r = Math.floor(((event.clientY - box.top) / box.height) * rows);
    const c = Math.floor(((event.clientX - box.left) / box.width) * cols);
    return r >= 0 && r < rows && c >= 0 && c < cols ? [r, c] : null;
  };
  // the tooltip of cell (r, c), at (x, y) px inside the map
  const show = ([r, c], x, y) => {
    const text = `${rowNames[r]} → ${colNames[c]}`;
    const value = z[r * cols + c].toFixed(4);
    tip.replaceChildren(el("div", "", text), el("div", "value", value));
    tip.style.display = "block";
    tip.style.left = `${x + 12}px`;
    tip.style.top = `${y + 12}px`;
    tip.classList.toggle("flip", x > plot.clientWidth / 2);
    return `${text}: ${value}`;
  };
  const pick = ([r, c]) => setTriggerValue("pick", [data.rowPositions[r], data.colPositions[c]]);
  plot.onmousemove = (event) => {
    const cell = cellAt(event);
    const box = plot.getBoundingClientRect();
    if (cell) show(cell, event.clientX - box.left, event.clientY - box.top);
  };
  plot.onmouseleave = () => {
    tip.style.display = "none";
  };
  plot.onclick = (event) => {
    const cell = cellAt(event);
    if (cell) pick(cell);
  };
  // Keyboard: Tab to the map, arrows move a cell, Enter or Space picks it.
  plot.tabIndex = 0;
  plot.setAttribute("role", "img");
  plot.setAttribute("aria-label", data.title);
  let at = selected ? [...selected] : [0, 0];
  const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
  plot.onkeydown = (event) => {
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      pick(at);
      return;
    }
    const move = moves[event.key];
    if (!move) return;
    event.preventDefault();
    at = [
      Math.min(rows - 1, Math.max(0, at[0] + move[0])),
      Math.min(cols - 1, Math.max(0, at[1] + move[1])),
    ];
    Object.assign(cursor.style, {
      display: "block",
      top: pct(at[0], rows),
      left: pct(at[1], cols),
      height: pct(1, rows),
      width: pct(1, cols),
    });
    const w = plot.clientWidth / cols;
    const h = plot.clientHeight / rows;
    plot.setAttribute("aria-label", show(at, (at[1] + 0.5) * w, (at[0] + 0.5) * h));
  };
  plot.onblur = () => {
    cursor.style.display = "none";
    tip.style.display = "none";
  };

  const rowLabels = labels("row-labels", data.rowLabels);
  rowLabels.style.gridTemplateRows = `repeat(${rows}, 1fr)`;
  const colLabels = labels("col-labels", data.colLabels);
  colLabels.style.gridTemplateColumns = `repeat(${cols}, 1fr)`;
  const barImg = el("div", "bar"); // a background, so the 1 × 256 image sets no height
  barImg.style.backgroundImage = `url(${bar.src})`;
  const ticks = el("div", "ticks");
  bar.ticks.forEach(([f, text]) => {
    const span = el("span", "label", text);
    span.style.top = pct(1 - f, 1);
    ticks.append(span);
  });

  let root = parentElement.querySelector(".heatmap");
  // a pick reruns the page and redraws the map: a keyboard user keeps the focus on it
  const focused = root && root.querySelector(".plot") === root.getRootNode().activeElement;
  if (!root) {
    root = el("div", "heatmap");
    parentElement.append(root);
  }
  root.classList.toggle("large", Boolean(data.large));
  // the map's track grows to the width that makes it `height` tall, no wider
  root.style.gridTemplateColumns =
    `auto max-content minmax(0, ${(data.height * cols) / rows}px) 0.9em max-content`;
  const save = el("button", "save", data.saveLabel);
  save.onclick = () => savePng(root, data.name);
  const head = el("div", "head");
  head.append(rich("title", data.title), save);
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
  if (focused) plot.focus();
  // Labels no taller (rows) or wider (columns) than their cells: shrink them when the map is
  // drawn small (a narrow column, presentation mode's larger text). Only ever shrink within
  // one drawing, so that the labels' own width cannot make the map grow and shrink in turn.
  let rowPx = Infinity;
  let colPx = Infinity;
  const fit = () => {
    const base = parseFloat(getComputedStyle(root).fontSize);
    rowPx = Math.min(rowPx, base, (0.9 * plot.clientHeight) / rows);
    colPx = Math.min(colPx, base, (0.9 * plot.clientWidth) / cols);
    rowLabels.style.fontSize = `${rowPx}px`;
    colLabels.style.fontSize = `${colPx}px`;
  };
  root.fitter?.disconnect();
  root.fitter = new ResizeObserver(fit);
  root.fitter.observe(plot);
}

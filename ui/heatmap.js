// One attention map as a picture: the PNG has one pixel per cell (drawn pixelated), token
// labels, titles and the colour bar's ticks are text, one tooltip follows the mouse, and a
// click picks the cell under it. No chart library: it redraws in a few milliseconds.
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
  plot.append(tip);
  const cellAt = (event) => {
    const box = plot.getBoundingClientRect();
    const r = Math.floor(((event.clientY - box.top) / box.height) * rows);
    const c = Math.floor(((event.clientX - box.left) / box.width) * cols);
    return r >= 0 && r < rows && c >= 0 && c < cols ? [r, c] : null;
  };
  plot.onmousemove = (event) => {
    const cell = cellAt(event);
    if (!cell) return;
    const [r, c] = cell;
    tip.replaceChildren(
      el("div", "", `${rowNames[r]} → ${colNames[c]}`),
      el("div", "value", z[r * cols + c].toFixed(4)),
    );
    const box = plot.getBoundingClientRect();
    const x = event.clientX - box.left;
    const y = event.clientY - box.top;
    tip.style.display = "block";
    tip.style.left = `${x + 12}px`;
    tip.style.top = `${y + 12}px`;
    tip.classList.toggle("flip", x > box.width / 2);
  };
  plot.onmouseleave = () => {
    tip.style.display = "none";
  };
  plot.onclick = (event) => {
    const cell = cellAt(event);
    if (cell) setTriggerValue("pick", [data.rowPositions[cell[0]], data.colPositions[cell[1]]]);
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
  if (!root) {
    root = el("div", "heatmap");
    parentElement.append(root);
  }
  root.classList.toggle("large", Boolean(data.large));
  // the map's track grows to the width that makes it `height` tall, no wider
  root.style.gridTemplateColumns =
    `auto max-content minmax(0, ${(data.height * cols) / rows}px) 0.9em max-content`;
  root.replaceChildren(
    rich("title", data.title),
    rich("y-title", data.yTitle),
    rowLabels,
    plot,
    barImg,
    ticks,
    colLabels,
    rich("x-title", data.xTitle),
  );
}

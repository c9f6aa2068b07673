// A mosaic of attention maps: one image of every tile (a model's layer × head maps, or
// one layer's heads in rows), a button over each tile (hover: its name; click: pick it),
// labels for rows and columns around it, or a title above each tile. Plain DOM, no chart
// library: it draws in a few milliseconds at any sentence length.
// data: {src, rows, cols, cell, gap, band, names, rowLabels, colLabels, tileLabels,
//        shortLabels, selected, alt, large, maxWidth, save, notes}; shortLabels: the tiles'
//        titles short ("h12"), for a narrow picture; names[r * cols + c] (fewer names: fewer
//        tiles); save: {label, file, tokens, bar, axes} or null, a button under the picture
//        that saves it as a PNG for a handout (savePng); notes: paragraphs under it;
//        order: ui/common.js

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

const INK = "#222";
const FONT = "sans-serif"; // the system's, which has the Japanese glyphs a canvas needs

// The tiles as a handout's picture: each tile enlarged by whole pixels to at least TILE_PX
// (and 16 px a token), its title above it, the tokens (queries) left of each row's first
// tile and (keys) under each tile, every token while at most `dense` a side, else every tenth
// position; the colour bar with its ticks on the right and what rows and columns are under
// it all. The on-screen PNG has no text: at 525 px wide it was no handout.
const TILE_PX = 240;
function savePng(data, image) {
  const { rows, cols, cell, gap, band, tileLabels } = data;
  const { file, tokens, bar, axes, dense } = data.save;
  const n = tokens.length;
  const shown = n <= dense ? tokens : null; // "3:猫", numbered
  const up = Math.ceil(Math.max(TILE_PX, 16 * Math.min(n, dense)) / cell);
  const tile = cell * up;
  const probe = document.createElement("canvas").getContext("2d");
  probe.font = `14px ${FONT}`;
  const labels = shown || Array.from({ length: n }, (_, k) => ((k + 1) % 10 ? "" : String(k + 1)));
  const labelW = Math.ceil(Math.max(0, ...labels.map((t) => probe.measureText(t).width))) + 8;
  const titleH = 30, pad = 20, barW = 22;
  const stepX = tile + pad, stepY = titleH + tile + labelW + pad;
  const width = labelW + cols * stepX + barW + 90;
  const height = rows * stepY + 40;
  const canvas = Object.assign(document.createElement("canvas"), { width, height });
  const ctx = canvas.getContext("2d");
  ctx.fillStyle = "#fff";
  ctx.fillRect(0, 0, width, height);
  ctx.imageSmoothingEnabled = false;
  ctx.fillStyle = INK;
  const per = tile / n; // one token's pixels in a tile
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const title = tileLabels[r * cols + c];
      if (!title) continue;
      const x = labelW + c * stepX, y = r * stepY + titleH;
      const sx = c * (cell + gap), sy = band + r * (band + cell + gap);
      ctx.drawImage(image, sx, sy, cell, cell, x, y, tile, tile);
      ctx.font = `bold 18px ${FONT}`;
      ctx.textAlign = "center";
      ctx.textBaseline = "bottom";
      ctx.fillText(title, x + tile / 2, y - 6);
      ctx.font = `${Math.min(14, Math.floor(per * 0.9)) || 14}px ${FONT}`;
      labels.forEach((label, k) => {
        if (!label) return;
        if (c === 0) {
          ctx.textAlign = "right";
          ctx.textBaseline = "middle";
          ctx.fillText(label, x - 4, y + (k + 0.5) * per);
        }
        ctx.save();
        ctx.translate(x + (k + 0.5) * per, y + tile + 4);
        ctx.rotate(Math.PI / 2);
        ctx.textAlign = "left";
        ctx.fillText(label, 0, 0);
        ctx.restore();
      });
    }
  }
  const barX = labelW + cols * stepX, barH = rows * stepY - labelW - pad - titleH;
  const scale = new Image();
  scale.src = bar.src;
  return scale.decode().then(() => {
    ctx.imageSmoothingEnabled = true;
    ctx.drawImage(scale, barX, titleH, barW, barH);
    ctx.font = `14px ${FONT}`;
    ctx.textAlign = "left";
    ctx.textBaseline = "middle";
    bar.ticks.forEach(([f, text]) => {
      const y = titleH + (1 - f) * barH;
      ctx.fillRect(barX + barW, y, 5, 1);
      ctx.fillText(text, barX + barW + 8, y);
    });
    ctx.font = `16px ${FONT}`;
    ctx.textBaseline = "bottom";
    ctx.fillText(axes, labelW, height - 10);
    const link = Object.assign(document.createElement("a"), { download: file });
    link.href = canvas.toDataURL("image/png");
    link.click();
  });
}

// Titles (or column labels) that would run into each other at the width the picture has
// (a phone, many heads) are set short ("h12"), and in smaller type if even those do not
// fit: a title has its tile's column, less a gap, however wide the page. Again whenever
// the picture's width changes (a phone turned, the sidebar opened).
const LABEL_GAP = 4; // px between two neighbours' labels, at least
function fitLabels(spans, full, short, image, step, width) {
  const room = (image.getBoundingClientRect().width * step) / width - LABEL_GAP;
  if (!spans.length || room <= 0) return; // nothing to fit, or not laid out (hidden)
  spans.forEach((span, k) => {
    span.textContent = full[k];
    span.style.fontSize = "";
  });
  const widest = () => Math.max(...spans.map((span) => span.getBoundingClientRect().width));
  if (widest() <= room) return;
  if (short.length) spans.forEach((span, k) => (span.textContent = short[k] ?? full[k]));
  const wide = widest();
  if (wide <= room) return;
  const px = (parseFloat(getComputedStyle(spans[0]).fontSize) * room) / wide;
  spans.forEach((span) => (span.style.fontSize = `${Math.floor(px * 10) / 10}px`));
}

export default function ({ data, parentElement, setTriggerValue }) {
  if (superseded(parentElement, data.order)) return; // ui/common.js
  const { src, rows, cols, cell, gap, names, rowLabels, colLabels, selected, alt, large } = data;
  const band = data.band || 0;
  const tileLabels = data.tileLabels || [];
  const step = cell + gap;
  const stepY = band + cell + gap;
  const width = cols * step - gap;
  const height = rows * stepY - gap;
  const pct = (px, total) => `${(100 * px) / total}%`;

  const top = el("div", "col-labels");
  const colSpans = colLabels.map((label, c) => {
    const span = el("span", "label", label);
    span.style.left = pct(c * step + cell / 2, width);
    top.append(span);
    return span;
  });
  const titleSpans = [], titles = [], shortTitles = [];
  const side = el("div", "row-labels");
  rowLabels.forEach((label, r) => {
    const span = el("span", "label", label);
    span.style.top = pct(band + r * stepY + cell / 2, height);
    side.append(span);
  });
  // a redraw (a pick by Enter, another head) keeps a keyboard user's focus on the same tile
  let root = parentElement.querySelector(".mosaic");
  const focused = root?.getRootNode().activeElement;
  const keep =
    root?.contains(focused) && focused.classList.contains("cell") && focused.dataset.tile;
  const image = el("div", "image");
  image.style.aspectRatio = `${width} / ${height}`;
  const img = el("img");
  img.src = src;
  img.alt = alt;
  image.append(img);
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const name = names[r * cols + c];
      if (name === undefined) continue; // the last row of a layer's heads may be short
      const button = el("button", "cell");
      Object.assign(button.style, {
        left: pct(c * step, width),
        top: pct(band + r * stepY, height),
        width: pct(cell, width),
        height: pct(cell, height),
      });
      button.title = name;
      button.setAttribute("aria-label", name);
      // the tile picked: outlined, and "pressed" for a screen reader
      const picked = Boolean(selected && selected[0] === r && selected[1] === c);
      button.classList.toggle("selected", picked);
      button.setAttribute("aria-pressed", String(picked));
      button.dataset.tile = `${r},${c}`;
      button.onclick = () => setTriggerValue("pick", [r, c]);
      image.append(button);
      const title = tileLabels[r * cols + c];
      if (title) {
        const span = el("span", "tile-label", title);
        Object.assign(span.style, {
          left: pct(c * step + cell / 2, width),
          top: pct(r * stepY + band / 2, height),
        });
        image.append(span);
        titleSpans.push(span);
        titles.push(title);
        shortTitles.push((data.shortLabels || [])[r * cols + c] ?? title);
      }
    }
  }
  // Replace only our own element: the parent also holds the component's <style>.
  if (!root) {
    root = el("div", "mosaic");
    parentElement.append(root);
  }
  root.classList.toggle("large", Boolean(large));
  root.style.maxWidth = data.maxWidth ? `${data.maxWidth}px` : "";
  root.replaceChildren(el("div"), top, side, image);
  root.fit?.disconnect();
  root.fit = new ResizeObserver(() => {
    fitLabels(titleSpans, titles, data.shortLabels?.length ? shortTitles : [], image, step, width);
    fitLabels(colSpans, colLabels, [], image, step, width);
  });
  root.fit.observe(image);
  if (data.save?.tokens) {
    const button = el("button", "save", data.save.label);
    button.onclick = () => savePng(data, img);
    root.append(el("div"), button);
  } else if (data.save) {
    const link = el("a", "save", data.save.label);
    link.href = src;
    link.download = data.save.file;
    root.append(el("div"), link);
  }
  drawNotes(parentElement, data.notes, large); // ui/common.js
  if (keep) image.querySelector(`[data-tile="${keep}"]`)?.focus();
}

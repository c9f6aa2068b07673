// A mosaic of attention maps: one image of every tile (a model's layer × head maps, or
// one layer's heads in rows), a button over each tile (hover: its name; click: pick it),
// labels for rows and columns around it, or a title above each tile. Plain DOM, no chart
// library: it draws in a few milliseconds at any sentence length.
// data: {src, rows, cols, cell, gap, band, names, rowLabels, colLabels, tileLabels,
//        selected, alt, large, maxWidth, save, notes}; names[r * cols + c] (fewer names: fewer
//        tiles); save: {label, file} or null, a link under the picture that saves its PNG;
//        notes: paragraphs under it; order: ui/common.js

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
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
  colLabels.forEach((label, c) => {
    const span = el("span", "label", label);
    span.style.left = pct(c * step + cell / 2, width);
    top.append(span);
  });
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
  if (data.save) {
    const link = el("a", "save", data.save.label);
    link.href = src;
    link.download = data.save.file;
    root.append(el("div"), link);
  }
  drawNotes(parentElement, data.notes, large); // ui/common.js
  if (keep) image.querySelector(`[data-tile="${keep}"]`)?.focus();
}

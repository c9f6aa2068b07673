// The model view: one mosaic image of every layer × head map, with a button over each
// cell (hover: its name; click: pick it) and the layer / head labels around it. Plain
// DOM, no chart library: it draws in a few milliseconds at any sentence length.
// data: {src, rows, cols, cell, gap, names, rowLabels, colLabels, selected, alt, large}

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

export default function ({ data, parentElement, setTriggerValue }) {
  const { src, rows, cols, cell, gap, names, rowLabels, colLabels, selected, alt, large } = data;
  const step = cell + gap;
  const width = cols * step - gap;
  const height = rows * step - gap;
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
    span.style.top = pct(r * step + cell / 2, height);
    side.append(span);
  });
  const image = el("div", "image");
  image.style.aspectRatio = `${width} / ${height}`;
  const img = el("img");
  img.src = src;
  img.alt = alt;
  image.append(img);
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const button = el("button", "cell");
      Object.assign(button.style, {
        left: pct(c * step, width),
        top: pct(r * step, height),
        width: pct(cell, width),
        height: pct(cell, height),
      });
      button.title = names[r * cols + c];
      button.setAttribute("aria-label", names[r * cols + c]);
      if (selected && selected[0] === r && selected[1] === c) button.classList.add("selected");
      button.onclick = () => setTriggerValue("pick", [r, c]);
      image.append(button);
    }
  }
  // Replace only our own element: the parent also holds the component's <style>.
  let root = parentElement.querySelector(".mosaic");
  if (!root) {
    root = el("div", "mosaic");
    parentElement.append(root);
  }
  root.classList.toggle("large", Boolean(large));
  root.replaceChildren(el("div"), top, side, image);
}

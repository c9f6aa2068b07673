// One weight followed through its formula (ui/steps.py): a caption, the projections, then
// for each chart the formula lines that hold its numbers, the chart (ui/bars.js), its PNG and
// CSV buttons and its note, and the notes under it all. One element for the whole: a click
// on the map reruns the head's fragment, and Streamlit draws every element of the page again
// for each message of that run; as fifteen elements these steps made a click's run send 29
// messages, as one 16.
// The formulas are typeset by the KaTeX 0.18 module Streamlit ships (data.katex: its file,
// beside Streamlit's index script), not a copy of our own sent with every run. Its CSS is
// ui/vendor's (st.latex's KaTeX 0.16 styles 0.18's classes wrong), nested under
// .attnviz-steps; the component lives in the page's DOM, so the page's KaTeX fonts and its
// sizes for display formulas (ui/app.css, ui/presenting.css) reach it.
// data: intro, projections, lead (a formula), panels [{name, formulas, chart, note, csv:
// {label, file, text}}], notes (text with $inline math$), large, order (ui/common.js).

let katexLoaded = null;
function katexOf(file) {
  katexLoaded ??= (async () => {
    if (!file) throw new Error("Streamlit ships no KaTeX module"); // ui/steps.py found none
    const index = document.querySelector('script[src*="/static/js/index."]');
    return (await import(new URL(file, index.src).href)).default;
  })();
  return katexLoaded;
}

const element = (tag, className, text) => {
  const made = Object.assign(document.createElement(tag), { className });
  if (text !== undefined) made.textContent = text;
  return made;
};

// A display formula; its LaTeX as text if KaTeX could not be loaded.
function formula(katex, tex) {
  const box = element("div", "formula");
  if (katex) katex.render(tex, box, { displayMode: true, throwOnError: false });
  else box.append(element("code", "", tex));
  return box;
}

// A paragraph of text with $inline math$.
function prose(katex, text, className) {
  const p = element("p", className);
  text.split(/\$([^$]+)\$/).forEach((part, k) => {
    if (k % 2 === 0) p.append(part);
    else if (katex) {
      const span = document.createElement("span");
      katex.render(part, span, { throwOnError: false });
      p.append(span);
    } else p.append(part);
  });
  return p;
}

// A button that saves `text` as the CSV file `file` (UTF-8 with a BOM: spreadsheet apps
// then read Japanese), as st.download_button did.
function csvButton({ label, file, text }) {
  const button = element("button", "csv", label);
  button.onclick = () => {
    const url = URL.createObjectURL(new Blob(["\ufeff", text], { type: "text/csv" }));
    const link = Object.assign(document.createElement("a"), { href: url, download: file });
    link.click();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  };
  return button;
}

export default async function ({ data, parentElement }) {
  if (superseded(parentElement, data.order)) return; // ui/common.js
  const katex = await katexOf(data.katex).catch(() => null);
  const now = parentElement.attnvizOrder;
  if (now.session !== data.order[0] || now.n !== data.order[1]) return; // a newer run drew
  let root = [...parentElement.children].find((c) => c.classList.contains("attnviz-steps"));
  if (!root) {
    root = element("div", "attnviz-steps");
    root.charts = new Map(); // by panel name: a chart kept knows its width at once
    parentElement.append(root);
  }
  root.classList.toggle("large", Boolean(data.large));
  const parts = [
    prose(katex, data.intro, "caption"),
    prose(katex, data.projections, "text"),
    formula(katex, data.lead),
  ];
  for (const panel of data.panels) {
    parts.push(...panel.formulas.map((tex) => formula(katex, tex)));
    if (panel.note) parts.push(prose(katex, panel.note, "caption"));
    let chart = root.charts.get(panel.name);
    if (!chart) root.charts.set(panel.name, (chart = element("div", "bars")));
    drawBars(chart, { ...panel.chart, large: data.large }, [csvButton(panel.csv)]); // ui/bars.js
    parts.push(chart);
  }
  parts.push(...data.notes.map((note) => prose(katex, note, "caption")));
  root.replaceChildren(...parts);
}

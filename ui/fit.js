// Presentation mode: each display formula of the page as large as the prose beside it
// (ui/presenting.css's 1.485rem, 1.1 × the prose's 1.35rem), shrunk only as far as its own
// column needs, never under the desk's 1.1em. CSS alone sized them all by the app's widest
// formula: a short one in a narrow column stayed at 17.6 px beside 21.6 px text.
// One observer a page: it refits after each change of the page (a rerun draws formulas
// anew), of the main area's size (the window's, a scroll bar's) and once fonts have loaded
// (KaTeX's widen a formula), and stops once presentation mode is left (this host is gone).
// Each formula keeps the width of the column it was fitted to (data-fit-room).

const FORMULAS = "[data-testid=stMain] .katex-display > .katex";

function fitAll() {
  const root = parseFloat(getComputedStyle(document.documentElement).fontSize);
  const [largest, least] = [1.485 * root, 1.1 * 16];
  for (const formula of document.querySelectorAll(FORMULAS)) {
    const room = formula.closest("[data-testid=stElementContainer]")?.clientWidth;
    if (!room) continue;
    formula.style.setProperty("font-size", `${largest}px`, "important");
    const wide = formula.scrollWidth;
    const size = wide > room ? Math.max(least, (largest * room) / wide) : largest;
    formula.style.setProperty("font-size", `${Math.floor(size * 10) / 10}px`, "important");
    formula.dataset.fitRoom = room;
  }
}

export default function ({ parentElement }) {
  const fit = window.attnvizFit;
  if (fit?.host.isConnected) return fit.run();
  fit?.stop();
  let pending = 0;
  const run = () => {
    if (!parentElement.isConnected) return stop();
    cancelAnimationFrame(pending);
    pending = requestAnimationFrame(fitAll);
  };
  const changes = new MutationObserver(run);
  changes.observe(document.body, { childList: true, subtree: true });
  window.addEventListener("resize", run);
  const sizes = new ResizeObserver(run);
  sizes.observe(document.querySelector("[data-testid=stMain]") ?? document.body);
  document.fonts.addEventListener("loadingdone", run);
  const stop = () => {
    changes.disconnect();
    sizes.disconnect();
    window.removeEventListener("resize", run);
    document.fonts.removeEventListener("loadingdone", run);
    for (const formula of document.querySelectorAll(FORMULAS)) {
      formula.style.fontSize = "";
      delete formula.dataset.fitRoom;
    }
    window.attnvizFit = null;
  };
  window.attnvizFit = { host: parentElement, run, stop };
  run();
}

// Scrolls the page to the section a tour link lands at (S9: the scoring page's M queries),
// once that section's heading is drawn: the page's run draws it after this component.
// data: {heading: the start of the heading's text, as the reader's language writes it}

export default function ({ data }) {
  let tries = 0;
  const timer = setInterval(() => {
    const found = [...document.querySelectorAll("[data-testid=stMain] :is(h1, h2, h3)")].find(
      (h) => h.textContent.trim().startsWith(data.heading),
    );
    if (found) found.scrollIntoView({ block: "start" });
    if (found || ++tries > 300) clearInterval(timer); // a first run may compute: 30 s
  }, 100);
}

// Closes Streamlit's "Page not found" dialog (English only, modal: it makes the page under
// it inert) once it opens; the page says the same in the reader's language instead.

export default function () {
  let tries = 0;
  const timer = setInterval(() => {
    const close = document.querySelector("[data-testid=stDialog] button[aria-label=Close]");
    if (close) close.click();
    if (close || ++tries > 50) clearInterval(timer); // it opens within the run: 5 s is ample
  }, 100);
}

// The share link: the address of this exact view, kept equal to the browser's own address.
// A fragment's run (a click on a head, a cell) rewrites the URL but not the sidebar, so the
// box follows window.location (the address the students' browsers reach, also behind a
// proxy); the server's link is only its first value.
// It also names the page's language on <html>, drawn in every run as it is: the browser then
// sets kanji in their Japanese forms, breaks Japanese lines by Japanese rules, and a screen
// reader reads the page in its language.
// The label above the box is drawn here too: one element for a rerun to send and redraw.
// In presentation mode a box to tick says whether the link opens the view in presentation
// mode too (`present=true`): unticked, the link is the view without it, for the students'
// own screens; the teacher chooses, without a rerun.
// data: {url, lang, label, copy, copied, present, keepPresent, order} (the box's label and
// the button's two, translated; present: the page is in presentation mode; keepPresent: the
// tick box's label; order: ui/common.js)

// The link shared: the browser's address, `present` left out unless `keep`.
function shared(keep) {
  const url = new URL(window.location.href);
  if (keep || !url.searchParams.has("present")) return url.href;
  url.searchParams.delete("present");
  return url.href;
}

export default function ({ data, parentElement }) {
  if (superseded(parentElement, data.order)) return; // ui/common.js
  // only on a change: every assignment, even of the same value, restyles the whole page
  // (ui/app.css's :lang() rules) on every rerun; and only from a box still on the page
  // (a replaced one's late call must not name it)
  const html = document.documentElement;
  if (parentElement.isConnected && html.lang !== data.lang) html.lang = data.lang;
  let root = parentElement.querySelector(".share");
  if (!root) {
    root = document.createElement("div");
    root.className = "share";
    const label = document.createElement("label");
    const input = document.createElement("input");
    input.readOnly = true;
    input.id = "share-link";
    label.htmlFor = input.id;
    input.onfocus = () => input.select();
    const button = document.createElement("button");
    root.append(label, input, button);
    parentElement.append(root);
  }
  const [label, input, button] = [...root.children].filter((child) => child.className !== "keep");
  let keep = root.querySelector(".keep"); // the tick box, there only in presentation mode
  if (data.present && !keep) {
    keep = Object.assign(document.createElement("label"), { className: "keep" });
    keep.append(Object.assign(document.createElement("input"), { type: "checkbox" }));
    keep.append(document.createElement("span"));
    button.before(keep);
  }
  if (!data.present && keep) {
    keep.remove();
    keep = null;
  }
  const current = () => shared(Boolean(keep?.firstChild.checked));
  if (keep) {
    keep.lastChild.textContent = data.keepPresent;
    keep.firstChild.onchange = () => (input.value = current());
  }
  label.textContent = data.label;
  input.value = data.present ? current() : data.url;
  button.textContent = data.copy;
  button.onclick = async () => {
    input.value = current();
    try {
      await navigator.clipboard.writeText(input.value);
    } catch {
      input.select(); // plain http on a school network has no clipboard API
      document.execCommand("copy");
    }
    button.textContent = data.copied;
    setTimeout(() => (button.textContent = data.copy), 1500);
  };
  clearInterval(root.timer);
  root.timer = setInterval(() => {
    if (!root.isConnected) return clearInterval(root.timer);
    if (document.activeElement !== input && input.value !== current()) input.value = current();
  }, 400);
}

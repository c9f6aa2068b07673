// Put before each component's code (ui.components.component_js): what the components share.

// Streamlit 1.67 calls a component's function only after awaiting its module, and it does
// not drop the call of a render that a newer one has replaced: a run's call can come after
// the next run's (after a switch of language, the share box and <html lang> would go back
// to the old one). ui.components.ordered numbers each new data of a component; what is
// shown is never replaced by an older one.
// order: [this session, the data's number]; a new session (a reconnect) starts again.
function superseded(host, order) {
  const [session, n] = order;
  if (host.attnvizOrder?.session === session && host.attnvizOrder.n >= n) return true;
  host.attnvizOrder = { session, n };
  return false;
}

// The notes under a picture, one paragraph each, set as st.caption sets them (a caption of its
// own was one more element for each rerun to send and draw); the column's width, not the
// picture's. `large`: presentation mode's size. The box is found among the host's own children:
// `:scope` matches nothing where the host is a shadow root, which added a box on every redraw.
function drawNotes(host, notes, large) {
  let box = Array.from(host.children).find((child) => child.classList.contains("notes"));
  if (!box) {
    box = document.createElement("div");
    box.className = "notes";
    host.append(box);
  }
  box.classList.toggle("large", Boolean(large));
  const paragraph = (text) => Object.assign(document.createElement("p"), { textContent: text });
  box.replaceChildren(...(notes || []).map(paragraph));
}


// The exact values behind a picture's tooltip (attnviz.charts.raster.floats): float32 bytes,
// little-endian as every browser's machine, base64.
function floats(base64) {
  const text = atob(base64);
  const bytes = new Uint8Array(text.length);
  for (let k = 0; k < text.length; k += 1) bytes[k] = text.charCodeAt(k);
  return new Float32Array(bytes.buffer);
}

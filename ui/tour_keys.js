// The tour with a keyboard (WCAG 2.2: 2.4.1 bypass blocks, 2.4.3 focus order):
// - a link first in the page, shown when focused, that leads to the stop's question: its first
//   choice, or the teacher's reveal button, or the verdict;
// - ↓ (or ↑) on choices none of which is picked yet picks the first (or the last), as the hint
//   under them says (a browser's own ↓ would pick the second);
// - after an answer the focus moves to the verdict, so the next Tab goes on from there;
// - a stop opened from a link, on a screen too short for the page above it (a phone), scrolls
//   its question into view.
// data: {skip: the link's text, answered: a new value after each answer (null: none),
//        land: whether to bring the question into view}

const QUESTION = "[data-testid=stMain] .st-key-tour_question";
const CHOICES = "[data-testid=stMain] [data-testid=stForm] input[type=radio]";
const REVEAL = "[data-testid=stMain] .st-key-tour_reveal button";
const VERDICT = "[data-testid=stMain] .st-key-tour_verdict [data-testid=stAlert]";

function later(find, act, tries = 200) {
  const timer = setInterval(() => {
    const found = find();
    if (found) act(found);
    if (found || --tries < 0) clearInterval(timer); // a first run may compute: 20 s
  }, 100);
}

function focusOn(element) {
  if (!element.hasAttribute("tabindex") && !element.matches("input, button, a")) {
    element.setAttribute("tabindex", "-1");
  }
  element.focus({ preventScroll: true });
  element.scrollIntoView({ block: "nearest" });
}

function toQuestion(event) {
  event.preventDefault();
  const target =
    document.querySelector(CHOICES) ||
    document.querySelector(REVEAL) ||
    document.querySelector(VERDICT);
  if (target) focusOn(target);
}

function firstChoice(event) {
  if (!["ArrowDown", "ArrowUp"].includes(event.key) || !event.target.matches?.(CHOICES)) return;
  const group = event.target.closest("[role=radiogroup]");
  const inputs = [...group.querySelectorAll("input[type=radio]")];
  if (inputs.some((input) => input.checked)) return; // the browser moves from the one picked
  event.preventDefault();
  event.stopPropagation();
  const pick = event.key === "ArrowDown" ? inputs[0] : inputs[inputs.length - 1];
  pick.click();
  pick.focus();
}

function skipLink() {
  let link = document.getElementById("attnviz-skip");
  if (link) return link;
  const style = document.createElement("style");
  style.textContent = `
    #attnviz-skip { position: fixed; left: 1rem; top: -4rem; z-index: 1000002;
      padding: 0.5rem 1rem; background: #ffffff; color: #0b3d91; font-size: 1.1rem;
      border: 3px solid #0b3d91; border-radius: 0.4rem; }
    #attnviz-skip:focus { top: 1rem; }`;
  document.head.append(style);
  link = Object.assign(document.createElement("a"), { id: "attnviz-skip", href: "#" });
  link.addEventListener("click", toQuestion);
  document.body.prepend(link);
  document.addEventListener("keydown", firstChoice, true);
  return link;
}

// what was done already, kept by the page (a rerun may draw the component anew)
const done = (window.attnvizTourKeys ??= { answered: null, landed: false });

export default function ({ data }) {
  skipLink().textContent = data.skip;
  if (data.answered && done.answered !== data.answered) {
    done.answered = data.answered;
    later(() => document.querySelector(VERDICT), focusOn);
  }
  if (data.land && !done.landed) {
    done.landed = true;
    later(
      () => document.querySelector(QUESTION),
      (question) => {
        const box = question.getBoundingClientRect();
        if (box.bottom > window.innerHeight) question.scrollIntoView({ block: "start" });
      },
    );
  }
}

/**
 * The editor pane: a plain textarea named "Item JSON" with line numbers beside it, and a way to
 * show a place in it (a problem's line and column, selected and scrolled into view). Lines are
 * counted as the validator counts them: the textarea holds line feeds only (it turns CR LF and CR
 * into LF, each of which the validator also counts as one line break), and columns count UTF-16
 * code units, as JavaScript's strings do.
 */
import { el, uniqueId } from "../shared/dom.js";

export interface Place {
  line?: number;
  column?: number;
  endLine?: number;
  endColumn?: number;
}

export interface Editor {
  element: HTMLElement;
  textarea: HTMLTextAreaElement;
  /** Says which document the editor holds. */
  caption: HTMLElement;
  text(): string;
  /** Replaces the text (a document opened, or another one shown). */
  setText(text: string): void;
  /** Called with the text whenever the user changes it. */
  onEdit(listener: (text: string) => void): void;
  /** Selects the place, scrolls it into view and gives the editor the focus. */
  show(place: Place): void;
}

/** The offset of a 1-based line and column in `text`, at most the end of that line. */
function offsetOf(text: string, line: number, column: number): number {
  let start = 0;
  for (let current = 1; current < line; current++) {
    const next = text.indexOf("\n", start);
    if (next === -1) return text.length;
    start = next + 1;
  }
  const end = text.indexOf("\n", start);
  return Math.min(start + column - 1, end === -1 ? text.length : end);
}

export function editor(label: string): Editor {
  const id = uniqueId("editor");
  const captionId = uniqueId("caption");
  const textarea = el("textarea", { id, spellcheck: "false", wrap: "off", autocomplete: "off", autocapitalize: "off", "aria-describedby": captionId });
  const gutter = el("div", { class: "gutter", "aria-hidden": "true" });
  const caption = el("span", { class: "hint", id: captionId });
  const listeners: Array<(text: string) => void> = [];
  let lineCount = 0;

  const number = (): void => {
    const count = textarea.value.split("\n").length;
    if (count === lineCount) return;
    lineCount = count;
    gutter.textContent = Array.from({ length: count }, (_, index) => index + 1).join("\n");
  };
  textarea.addEventListener("scroll", () => {
    gutter.scrollTop = textarea.scrollTop;
  });
  textarea.addEventListener("input", () => {
    number();
    for (const listener of listeners) listener(textarea.value);
  });
  number();

  const show = (place: Place): void => {
    const text = textarea.value;
    const line = place.line ?? 1;
    const start = offsetOf(text, line, place.column ?? 1);
    const end = place.endLine === undefined || place.endColumn === undefined ? start : Math.max(start, offsetOf(text, place.endLine, place.endColumn));
    textarea.focus();
    textarea.setSelectionRange(start, end);
    // The line a third of the way down, whatever the browser did to show the selection.
    const lineHeight = parseFloat(getComputedStyle(textarea).lineHeight);
    textarea.scrollTop = Math.max(0, (line - 1) * lineHeight - textarea.clientHeight / 3);
    gutter.scrollTop = textarea.scrollTop;
  };

  const element = el(
    "div",
    { class: "editor-pane" },
    el("div", { class: "editor-head" }, el("label", { for: id, class: "field-name" }, label), caption),
    el("div", { class: "editor" }, gutter, textarea),
  );
  return {
    element,
    textarea,
    caption,
    text: () => textarea.value,
    setText: (text) => {
      textarea.value = text;
      textarea.scrollTop = 0;
      number();
    },
    onEdit: (listener) => listeners.push(listener),
    show,
  };
}

/**
 * The validator page: items pasted, dropped or opened are validated in the browser by the
 * library's own build (`basemodel`), with the options of `basemodel validate`; its problems are
 * listed as the command line prints them, each one a way to its place in the editor, and each
 * valid item is shown as a model card. It needs no server: any static host serves it.
 */
import "../shared/page.css";
import "./validate.css";
import { itemLabel, type Issue } from "basemodel";
import { button, el, labelled, replaceChildren } from "../shared/dom.js";
import { formatOf, PASTED, readFiles, type SourceDocument } from "./documents.js";
import { editor as makeEditor } from "./editor.js";
import { validItemValues } from "./item-values.js";
import { validateLayout } from "./layout.js";
import { modelCard } from "./model-card.js";
import { optionsPanel } from "./options.js";
import { problemsList, summaryText } from "./problems.js";
import { validateDocument, type DocumentReport } from "./validation.js";

/** How long typing pauses before the text is validated again. */
const TYPING_PAUSE_MS = 400;
/** Model cards shown at most: a catalogue of thousands of items would be a page nobody reads. */
const MOST_CARDS = 50;

document.title = "basemodel: validate base model items";
const layout = validateLayout();
const options = optionsPanel();
const editor = makeEditor("Item JSON");
const fileInput = el("input", { type: "file", multiple: true, accept: ".json,.geojson,.ndjson,.jsonl,application/json", class: "visually-hidden" });
const shownFile = el("select", {});
const shownFileField = labelled("File in the editor", shownFile);
shownFileField.hidden = true;

let documents: SourceDocument[] = [{ name: PASTED, text: "" }];
let shown = 0;
/** Each validation's number: an older one that ends late is not shown over a newer one. */
let runs = 0;
let typingTimer: ReturnType<typeof setTimeout> | undefined;

function showDocument(index: number): void {
  shown = index;
  const document = documents[index]!;
  editor.setText(document.text);
  editor.caption.textContent = document.name === PASTED ? "" : `shows ${document.name}`;
  shownFile.value = String(index);
}

function showProblem(report: DocumentReport, issue: Issue): void {
  const index = documents.indexOf(report.document);
  if (index !== -1 && index !== shown) showDocument(index);
  editor.show(issue);
}

function showCards(reports: readonly DocumentReport[]): void {
  const valid = reports.flatMap((report) =>
    validItemValues(report).map(({ item, value }) => {
      const label = itemLabel(report, item);
      const name = report.document.name === PASTED ? undefined : report.document.name;
      return { value, place: [name, label].filter(Boolean).join(", ") || undefined };
    }),
  );
  replaceChildren(
    layout.cards,
    ...valid.slice(0, MOST_CARDS).map(({ value, place }) => modelCard(value, place)),
    valid.length > MOST_CARDS ? el("p", { class: "hint" }, `… and ${valid.length - MOST_CARDS} more valid items`) : null,
  );
}

async function validate(): Promise<void> {
  const run = ++runs;
  clearTimeout(typingTimer);
  const { validator, format } = options.choices();
  layout.summary.textContent = "Validating…";
  try {
    const reports: DocumentReport[] = [];
    for (const document of documents) reports.push(await validateDocument(document, formatOf(document, format), validator));
    if (run !== runs) return;
    layout.banner.hidden = true;
    layout.summary.textContent = summaryText(reports);
    replaceChildren(layout.problems, problemsList(reports, showProblem));
    showCards(reports);
  } catch (error) {
    if (run !== runs) return;
    // A part of the validator that could not be loaded (the STAC schemas from a host that went away, say).
    showNothing();
    layout.summary.textContent = "Not validated.";
    layout.banner.textContent = `The validator could not run: ${error instanceof Error ? error.message : String(error)}`;
    layout.banner.hidden = false;
  }
}

async function open(files: Iterable<File>): Promise<void> {
  const opened = await readFiles(files);
  if (opened.length === 0) return;
  documents = opened;
  replaceChildren(shownFile, ...documents.map((document, index) => el("option", { value: String(index) }, document.name)));
  shownFileField.hidden = documents.length < 2;
  showDocument(0);
  await validate();
}

editor.onEdit((text) => {
  const document = documents[shown]!;
  document.text = text;
  delete document.bytes;
  clearTimeout(typingTimer);
  typingTimer = setTimeout(() => void validate(), TYPING_PAUSE_MS);
});
options.onChange(() => void validate());
shownFile.addEventListener("change", () => showDocument(Number(shownFile.value)));
fileInput.addEventListener("change", () => {
  const files = [...(fileInput.files ?? [])];
  fileInput.value = "";
  void open(files);
});

// Files dropped anywhere on the page are opened; the browser would otherwise leave the page for them.
document.addEventListener("dragover", (event) => {
  if (!event.dataTransfer?.types.includes("Files")) return;
  event.preventDefault();
  event.dataTransfer.dropEffect = "copy";
  document.body.classList.add("dropping");
});
document.addEventListener("dragleave", (event) => {
  if (event.relatedTarget === null) document.body.classList.remove("dropping");
});
document.addEventListener("drop", (event) => {
  document.body.classList.remove("dropping");
  if (!event.dataTransfer || event.dataTransfer.files.length === 0) return;
  event.preventDefault();
  void open(event.dataTransfer.files);
});

/** The page as it opens: nothing validated, the list of problems empty. */
function showNothing(): void {
  layout.summary.textContent = "Paste an item, a FeatureCollection or NDJSON, drop files onto the page, or open them.";
  replaceChildren(layout.problems, problemsList([], showProblem));
  replaceChildren(layout.cards);
}

function clear(): void {
  runs += 1; // a validation under way is not shown over the cleared page
  clearTimeout(typingTimer);
  documents = [{ name: PASTED, text: "" }];
  shownFileField.hidden = true;
  showDocument(0);
  showNothing();
  editor.textarea.focus();
}

layout.input.append(
  options.element,
  el(
    "div",
    { class: "button-row" },
    button("Validate", () => void validate(), { class: "primary" }),
    el("label", { class: "button" }, "Open files", fileInput),
    button("Clear", clear),
    shownFileField,
  ),
  editor.element,
);
showNothing();

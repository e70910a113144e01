/**
 * The Export panel: the choices, the exact request and its curl command, "Export", the task's
 * progress until it ends, and then "Download".
 */
import type { PageSettings } from "basemodel/api";
import { areaKm2 } from "../../../src/model/area.js";
import { button, el, replaceChildren } from "../../shared/dom.js";
import { formatKm2 } from "../../shared/format.js";
import { ServerError, serverUrl } from "../../shared/http.js";
import type { Observable } from "../../shared/observable.js";
import type { Area } from "../area/area.js";
import { exportLimit } from "../area/limits.js";
import { downloadLinks } from "./downloads.js";
import { exportForm } from "./form.js";
import { curlCommand, exportRequest, type ExportRequest } from "./request.js";
import { followTask, STATE_WORDS, submitExport } from "./task.js";

export interface ExportPanel {
  /** Runs a request as it is (an earlier export's, run again), with the access token given here. */
  run(request: ExportRequest): Promise<void>;
  /** The access token given here ("" for none), which a server with a users file asks for. */
  accessToken(): string;
}

/** Copies `text`; where the page may not write the clipboard (plain HTTP to another host), selects it for Ctrl+C. */
async function copy(text: string, shown: HTMLElement, note: HTMLElement): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    note.textContent = "Copied.";
  } catch {
    window.getSelection()?.selectAllChildren(shown);
    note.textContent = "Selected: press Ctrl+C (⌘C) to copy.";
  }
}

export function exportPanel(panel: HTMLElement, options: { area: Observable<Area | undefined>; settings: PageSettings; onFinished: () => void }): ExportPanel {
  const { area, settings } = options;
  if (!settings.exports) {
    replaceChildren(panel, el("p", {}, "This server takes no exports. The API's other routes are in the ", el("a", { href: "docs" }, "API docs"), "."));
    return { run: async () => {}, accessToken: () => "" };
  }
  const form = exportForm(settings);
  const areaLine = el("p", { class: "area-line" });
  const body = el("pre", { class: "request-body", tabindex: "0", "aria-label": "Request body" });
  const curl = el("pre", { class: "curl", tabindex: "0", "aria-label": "curl command" });
  const copyNote = el("span", { class: "hint", role: "status" });
  const submit = el("button", { type: "submit", class: "primary" }, "Export");
  const progress = el("progress", { max: 100, value: 0, "aria-label": "Export progress", hidden: true });
  const state = el("p", { class: "task-state", role: "status", "aria-live": "polite" });
  const outcome = el("div", { class: "outcome" });
  let running = false;

  const current = (): ExportRequest | undefined => {
    const chosen = area.value;
    return chosen === undefined ? undefined : exportRequest(chosen.request, form.choices(), form.accessToken());
  };

  const refresh = () => {
    const chosen = area.value;
    const request = current();
    const km2 = chosen === undefined ? 0 : areaKm2(chosen.geometry);
    // Custom exports have no area limit: upstream keeps them to staff, who export whole countries.
    const limit = form.choices().kind === "filters" ? exportLimit(km2, settings) : undefined;
    const over = limit?.over ?? false;
    if (chosen === undefined) areaLine.textContent = "No area yet: choose one in the Area panel.";
    else areaLine.textContent = `Area: ${formatKm2(km2)}, ${chosen.origin}.${over ? ` ${limit!.text}` : ""}`;
    areaLine.classList.toggle("over", over);
    submit.disabled = running || request === undefined || over;
    body.textContent = request?.body ?? "";
    curl.textContent = request === undefined ? "" : curlCommand(serverUrl(request.path), request);
  };
  form.onChange(refresh);
  area.subscribe(refresh);

  async function run(request: ExportRequest): Promise<void> {
    running = true;
    refresh();
    replaceChildren(outcome);
    progress.hidden = false;
    progress.value = 0;
    state.textContent = "Sending the request…";
    try {
      const token = form.accessToken();
      const accepted = await submitExport(token === "" ? request : { ...request, headers: { "access-token": token, ...request.headers } });
      const ended = await followTask(accepted.taskId, (status) => {
        progress.value = status.progress;
        state.textContent = `${STATE_WORDS[status.status]}${status.status === "STARTED" ? `: ${status.progress}%` : ""}`;
      });
      const result = ended.result;
      if (ended.status === "SUCCESS" && result !== null) {
        replaceChildren(outcome, downloadLinks(result));
      } else {
        const error = result !== null && "error" in result ? result.error : "the task ended without a result";
        replaceChildren(outcome, el("p", { class: "problem", role: "alert" }, `The export failed: ${error}`));
      }
    } catch (error) {
      if (!(error instanceof ServerError)) throw error;
      state.textContent = "";
      replaceChildren(outcome, el("p", { class: "problem", role: "alert" }, `The export was not made: ${error.message}.`));
    } finally {
      progress.hidden = true;
      running = false;
      refresh();
      options.onFinished();
    }
  }

  const formElement = el("form", { class: "export", "aria-label": "Export" });
  formElement.addEventListener("submit", (event) => {
    event.preventDefault();
    const request = current();
    if (request !== undefined) void run(request);
  });
  replaceChildren(
    formElement,
    areaLine,
    form.element,
    el(
      "details",
      { class: "request", open: true },
      el("summary", {}, "The request"),
      body,
      el("div", { class: "button-row" }, button("Copy curl command", () => void copy(curl.textContent ?? "", curl, copyNote)), copyNote),
      curl,
    ),
    submit,
    progress,
    state,
    outcome,
  );
  replaceChildren(panel, formElement);
  refresh();
  return { run, accessToken: form.accessToken };
}

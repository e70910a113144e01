/** A finished export's files as "Download" links, with their names and sizes. */
import type { TaskStatus } from "basemodel/api";
import { el } from "../../shared/dom.js";
import { formatBytes } from "../../shared/format.js";

type Result = NonNullable<TaskStatus["result"]>;

/** Each file of the result: the zip of a snapshot export, the zips of every category of a custom one. */
export function downloadFiles(result: Result): Array<{ name: string; url: string; size: number }> {
  if ("downloadUrl" in result) {
    const name = decodeURIComponent(new URL(result.downloadUrl).pathname.split("/").pop() ?? result.fileName);
    return [{ name, url: result.downloadUrl, size: result.zipFileSizeBytes }];
  }
  if ("datasets" in result) return result.datasets.flatMap((dataset) => Object.values(dataset).flatMap((category) => category.resources.map((file) => ({ name: file.name, url: file.url, size: file.size }))));
  return [];
}

export function downloadLinks(result: Result): HTMLElement {
  const files = downloadFiles(result);
  return el(
    "ul",
    { class: "downloads" },
    ...files.map((file) =>
      el("li", {}, el("a", { href: file.url, download: file.name, ...(files.length > 1 && { "aria-label": `Download ${file.name}` }) }, "Download"), ` ${file.name}, ${formatBytes(file.size)}`),
    ),
  );
}

/**
 * basemodel validate --check-links: once every file is validated, every http(s) asset href of
 * every item is checked (src/validator/links), each distinct URL once across the run, and each href that
 * cannot be reached becomes a link-unreachable error at its place in the file.
 */
import type { ItemResult } from "../validator/item/result.js";
import { SourceMap } from "../validator/item/positions.js";
import { documentItems, locateIssues, type DocumentFormat, type DocumentItem } from "../validator/engine/text.js";
import { LinkChecker, linkTargets, type LinkCheckOptions } from "../validator/links/index.js";
import type { FileReport } from "../validator/report/types.js";
import { byPosition } from "../diagnostics/issue.js";
import { progress, type Io } from "./io.js";

interface FileLinks {
  report: FileReport;
  text: string;
  items: Array<{ result: ItemResult; part: DocumentItem }>;
}

export class LinkStep {
  private readonly files: FileLinks[] = [];
  private readonly checker: LinkChecker;

  constructor(
    options: LinkCheckOptions,
    private readonly io: Io,
  ) {
    this.checker = new LinkChecker(options);
  }

  /** Notes the items of a validated file that have http(s) asset hrefs. */
  add(report: FileReport, bytes: Buffer, format: DocumentFormat): void {
    const items = documentItems(bytes, format).flatMap((part) => {
      if (linkTargets(part.value).length === 0) return [];
      // An NDJSON line's result is the one that starts on that line; a collection member's, the one at its pointer.
      const result = report.items.find((item) => item.pointer === part.pointer && (format === "json" || item.line === part.lineOffset + 1));
      return result === undefined ? [] : [{ result, part }];
    });
    if (items.length > 0) this.files.push({ report, text: bytes.toString("utf8"), items });
  }

  /** Checks every URL noted, then adds an error to each item for each of its hrefs that cannot be reached. */
  async run(): Promise<void> {
    const urls = [...new Set(this.files.flatMap((file) => file.items.flatMap(({ part }) => linkTargets(part.value).map((target) => target.url))))];
    const tick = progress(this.io, urls.length, "checking", "links", 1);
    let done = 0;
    await Promise.all(urls.map((url) => this.checker.result(url).then(() => tick(++done))));
    for (const file of this.files) {
      for (const { result, part } of file.items) {
        const issues = await this.checker.check(part.value);
        if (issues.length === 0) continue;
        for (const issue of issues) issue.path = part.pointer + issue.path;
        locateIssues(issues, SourceMap.of(part.text), part.lineOffset);
        result.errors.push(...issues);
        result.errors.sort(byPosition);
        result.valid = false;
        file.report.source ??= file.text;
      }
    }
  }
}

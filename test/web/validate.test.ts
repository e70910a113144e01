/**
 * The validator page (/validate) in Debian's Chromium: items pasted, opened or dropped are
 * validated in the browser by the library's own build, and the page lists the problems the
 * command line prints for the same text (`basemodel validate --format json`, run here beside it),
 * with their code frames, each a way to its place in the editor; a valid item is a model card.
 * The built files also work from a plain static file server serving the package's dist/ (the page
 * is web/validate.html; it runs the library of dist/lib-bundle/ and dist/generated/), with no
 * basemodel server at all.
 * Run `npm run build` first.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import type { Issue } from "../../src/index.js";
import { packageFile } from "../../src/package-files.js";
import { basemodel, ROOT } from "../cli/helpers.js";
import { hasChromium, screenshot, watchedPage, type WatchedPage } from "../support/browser.js";
import { afterFile } from "../support/cleanup.js";
import { staticHost } from "../support/static-host.js";
import { monacoStorePath, startServer } from "../server/routes/helpers.js";

const fixture = (name: string): string => join(ROOT, "fixtures", name);
const text = (name: string): string => readFileSync(fixture(name), "utf8");
/** One error, with a did-you-mean. */
const BROKEN = "invalid/enum-mlm-framework-case.json";
/** Valid by the default rules; not under --profile fair-ci. */
const VALID = "valid/realistic-segmentation.json";
/** Valid by the default rules; not with --stac. */
const STAC_BROKEN = "stac-invalid/mlm-bands-without-raster-bands.json";
/** Valid, with one warning. */
const WARNING = "warning/hyperparameters-spec.json";

interface CliItem {
  line?: number;
  pointer: string;
  errors: Issue[];
  warnings: Issue[];
}

/** The items of the one file `basemodel validate <file> --format json <flags>` reports. */
async function cliItems(file: string, flags: string[] = []): Promise<CliItem[]> {
  const run = await basemodel(["validate", file, "--format", "json", ...flags]);
  expect(run.code, run.stderr).not.toBe(2);
  return (JSON.parse(run.stdout) as { files: Array<{ items: CliItem[] }> }).files[0]!.items;
}

/** A problem as the page's list shows it (its button's text): `line:column severity rule message (suggestion)`. */
const shown = (issue: Issue): string =>
  `${issue.line}:${issue.column} ${issue.severity} ${issue.rule} ${issue.message}${issue.suggestion === undefined ? "" : ` (${issue.suggestion})`}`;
const cliProblems = (items: CliItem[]): string[] => items.flatMap((item) => [...item.errors, ...item.warnings].map(shown));

/** What the tests read of the page's controls (the tests' TypeScript has Node's types, not the DOM's). */
interface TextArea {
  value: string;
  selectionStart: number;
  selectionEnd: number;
  setSelectionRange(start: number, end: number): void;
}
interface Labelled {
  labels?: ArrayLike<{ textContent: string | null }> | null;
}

/** The values of a select's options, in order. */
async function optionValues(page: Page, name: string): Promise<Array<string | null>> {
  return Promise.all((await page.getByRole("combobox", { name, exact: true }).locator("option").all()).map((option) => option.getAttribute("value")));
}

const problems = (page: Page) => page.getByRole("list", { name: "Problems", exact: true });
const problemButtons = (page: Page) => problems(page).getByRole("button");
const summary = (page: Page) => page.getByRole("status");

/** The problems the page lists, as their buttons read. */
async function pageProblems(page: Page): Promise<string[]> {
  return (await problemButtons(page).allTextContents()).map((line) => line.replace(/\s+/g, " ").trim());
}

/** Waits until the page has validated (its summary counts items), and returns the summary. */
async function validated(page: Page): Promise<string> {
  await expect.poll(async () => (await summary(page).textContent()) ?? "", { timeout: 30_000 }).toMatch(/\d+ items?: /);
  return (await summary(page).textContent())!;
}

/** Pastes `content` into the editor and presses Validate. */
async function validateText(page: Page, content: string): Promise<string> {
  await page.getByLabel("Item JSON", { exact: true }).fill(content);
  await page.getByRole("button", { name: "Validate", exact: true }).click();
  return validated(page);
}

/** The editor's caret (the selection's start) as a 1-based line and column. */
function caret(page: Page): Promise<{ line: number; column: number; focused: boolean; selected: string }> {
  return page.getByLabel("Item JSON", { exact: true }).evaluate((element) => {
    const editor = element as unknown as TextArea;
    const before = editor.value.slice(0, editor.selectionStart);
    return {
      line: before.split("\n").length,
      column: before.length - before.lastIndexOf("\n"),
      focused: element.ownerDocument.activeElement === element,
      selected: editor.value.slice(editor.selectionStart, editor.selectionEnd),
    };
  });
}

/** Every request went to `origin`, and nothing went wrong in the page. */
function expectOnlyFrom(watched: WatchedPage, origin: string): void {
  expect(watched.errors).toEqual([]);
  expect(watched.requests.filter((url) => new URL(url).origin !== origin)).toEqual([]);
}

const withChromium = hasChromium();

describe.runIf(withChromium)("the validator page, served by basemodel serve", () => {
  let url: string;
  let origin: string;

  beforeAll(async () => {
    expect(() => readFileSync(packageFile("dist/web/validate.html")), "run npm run build: it builds web/ into dist/web/").not.toThrow();
    const server = await startServer(await monacoStorePath());
    url = `${server.url}/validate`;
    origin = new URL(server.url).origin;
  });

  async function openPage(): Promise<WatchedPage> {
    const watched = await watchedPage();
    await watched.page.goto(url);
    await watched.page.getByLabel("Item JSON", { exact: true }).waitFor();
    return watched;
  }

  it("loads with every control named, no console error and no request to another origin", async () => {
    // Served as the home page is: HTML under a policy that lets the page load nothing but its own files.
    const served = await fetch(url);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-security-policy")).toMatch(/(^|; )script-src 'self'(;|$)/);
    const watched = await openPage();
    const { page } = watched;
    for (const [role, name] of [
      ["textbox", "Item JSON"],
      ["button", "Validate"],
      ["button", "Open files"],
      ["button", "Clear"],
      ["combobox", "Rule set"],
      ["combobox", "Profile"],
      ["combobox", "Read as"],
      ["checkbox", "--stac core STAC and every extension listed"],
      ["checkbox", "--fair-checks fAIr's CI checks"],
      ["checkbox", "--strict warnings count as errors"],
    ] as const) {
      expect(await page.getByRole(role, { name, exact: true }).count(), `${role} ${name}`).toBe(1);
    }
    // The rule sets the command line offers, the default first.
    expect(await optionValues(page, "Rule set")).toEqual([
      "v1.0.0",
      "v1.0.0-current",
      "v1.1.0",
      "auto",
    ]);
    expect(await optionValues(page, "Profile")).toEqual(["none", "fair-ci"]);
    // The list is there, empty, before anything is validated.
    expect(await problems(page).count()).toBe(1);
    expect(await problemButtons(page).count()).toBe(0);
    // Keyboard: Tab goes from the options to Validate, the files, and on to the editor.
    await page.getByRole("checkbox", { name: /--strict/ }).focus();
    const reached: string[] = [];
    while (reached.at(-1) !== "Item JSON" && reached.length < 10) {
      await page.keyboard.press("Tab");
      // The focused control's label, or its own text (a button).
      reached.push(((await page.locator(":focus").evaluate((control) => (control as unknown as Labelled).labels?.[0]?.textContent ?? control.textContent)) ?? "").trim());
    }
    expect(reached).toEqual(["Validate", "Open files", "Clear", "Item JSON"]);
    expectOnlyFrom(watched, origin);
  });

  it("lists the problems the command line prints, at its line:column with its code frame; a problem shows its place in the editor", async () => {
    const watched = await openPage();
    const { page } = watched;
    const summaryLine = await validateText(page, text(BROKEN));
    const cli = await cliItems(fixture(BROKEN));
    expect(cliProblems(cli)).toHaveLength(1);
    expect(await pageProblems(page)).toEqual(cliProblems(cli));
    expect(summaryLine).toBe("1 item: 0 valid, 1 invalid; 1 error, 0 warnings");
    // The code frame is the one the command line prints under the problem.
    const printed = (await basemodel(["validate", fixture(BROKEN), "--no-color"])).stdout.split("\n");
    const at = printed.findIndex((line) => line.includes(`:${cli[0]!.errors[0]!.line}:${cli[0]!.errors[0]!.column}  error`));
    expect(await problems(page).locator("pre.frame").innerText()).toBe(printed.slice(at + 1, at + 4).join("\n"));

    const issue = cli[0]!.errors[0]!;
    await problemButtons(page).first().click();
    expect(await caret(page)).toEqual({ line: issue.line, column: issue.column, focused: true, selected: '"pytorch"' });
    // Enter on the problem does the same, from anywhere in the text.
    await page.getByLabel("Item JSON", { exact: true }).evaluate((element) => (element as unknown as TextArea).setSelectionRange(0, 0));
    await problemButtons(page).first().focus();
    await page.keyboard.press("Enter");
    expect(await caret(page)).toMatchObject({ line: issue.line, column: issue.column, focused: true });
    expectOnlyFrom(watched, origin);
  });

  it("says a text that is not JSON is not, where the command line says it", async () => {
    const { page } = await openPage();
    const broken = text(BROKEN).replace('"mlm:framework": "pytorch",', '"mlm:framework": "PyTorch"');
    const dir = mkdtempSync(join(tmpdir(), "basemodel-page-"));
    afterFile(() => rmSync(dir, { recursive: true, force: true }));
    writeFileSync(join(dir, "item.json"), broken);
    await validateText(page, broken);
    const listed = await pageProblems(page);
    expect(listed).toEqual(cliProblems(await cliItems(join(dir, "item.json"))));
    expect(listed[0]).toMatch(/^18:31 error json-syntax JSON syntax error: missing comma after the value of "mlm:framework"/);
  });

  it("shows a valid item as a model card: name, tasks, framework, inputs and outputs, classes, metrics, licence, asset links", async () => {
    const watched = await openPage();
    const { page } = watched;
    expect(await validateText(page, text(VALID))).toBe("1 item: 1 valid, 0 invalid; 0 errors, 0 warnings");
    expect(await problemButtons(page).count()).toBe(0);
    const card = page.getByRole("article", { name: "SegFormer-B2 land cover segmentation (Kathmandu valley)" });
    await card.waitFor();
    const facts = await card.locator("dl.facts").innerText();
    expect(facts).toContain("segformer-b2-landcover");
    expect(facts).toMatch(/Tasks\s+semantic-segmentation/);
    expect(facts).toMatch(/Framework\s+PyTorch 2\.5\.1/);
    expect(facts).toMatch(/Licence\s+Apache-2\.0/);
    const inputs = card.getByRole("table", { name: "Inputs" });
    expect(await inputs.getByRole("row").nth(1).innerText()).toMatch(/RGB orthophoto tile\s+-1 × 3 × 512 × 512 \(batch, bands, height, width\)\s+float32\s+red, green, blue/);
    expect(await card.getByRole("table", { name: "Outputs" }).innerText()).toContain("land cover logits");
    expect(await card.getByRole("table", { name: "Classes" }).innerText()).toMatch(/1\s+building\s+Building footprints/);
    expect(await card.locator("ul.metrics").innerText()).toContain("Mean Intersection over Union");
    const link = card.getByRole("link", { name: "https://models.example.org/segformer-b2-landcover/3.1.0/weights.pt" });
    expect(await link.getAttribute("href")).toBe("https://models.example.org/segformer-b2-landcover/3.1.0/weights.pt");
    // Links only: the page fetched none of them.
    expectOnlyFrom(watched, origin);
  });

  it("--stac loads the STAC schemas only when asked, and finds what the command line's --stac finds", async () => {
    const watched = await openPage();
    const { page } = watched;
    expect(await validateText(page, text(STAC_BROKEN))).toMatch(/1 valid, 0 invalid/);
    const scriptsBefore = watched.requests.filter((request) => request.endsWith(".js")).length;
    await page.getByRole("checkbox", { name: /--stac/ }).check();
    await expect.poll(() => pageProblems(page), { timeout: 30_000 }).toEqual(cliProblems(await cliItems(fixture(STAC_BROKEN), ["--stac"])));
    expect((await pageProblems(page))[0]).toMatch(/^487:5 error mlm-bands /);
    expect(watched.requests.filter((request) => request.endsWith(".js")).length).toBeGreaterThan(scriptsBefore);
    expect(await page.getByText("basemodel validate --stac <files>").count()).toBe(1);
    expectOnlyFrom(watched, origin);
  });

  it("the fair-ci profile sets what the command line's --profile fair-ci sets, and judges as it does", async () => {
    const { page } = await openPage();
    expect(await validateText(page, text(VALID))).toMatch(/1 valid, 0 invalid/);
    await page.getByRole("combobox", { name: "Profile" }).selectOption("fair-ci");
    const cli = await cliItems(fixture(VALID), ["--profile", "fair-ci"]);
    expect(cliProblems(cli).length).toBeGreaterThan(1);
    await expect.poll(() => pageProblems(page), { timeout: 30_000 }).toEqual(cliProblems(cli));
    expect(await page.getByRole("combobox", { name: "Rule set" }).inputValue()).toBe("v1.0.0-current");
    expect(await page.getByRole("checkbox", { name: /--stac/ }).isChecked()).toBe(true);
    expect(await page.getByRole("checkbox", { name: /--fair-checks/ }).isChecked()).toBe(true);
    expect(await page.getByText("basemodel validate --profile fair-ci <files>").count()).toBe(1);
    // An option changed beside the profile wins, as on the command line.
    await page.getByRole("combobox", { name: "Rule set" }).selectOption("v1.0.0");
    await expect.poll(() => pageProblems(page), { timeout: 30_000 }).toEqual(cliProblems(await cliItems(fixture(VALID), ["--profile", "fair-ci", "--rules", "v1.0.0"])));
    expect(await page.getByText("basemodel validate --profile fair-ci --rules v1.0.0 <files>").count()).toBe(1);
  });

  it("NDJSON of two items lists the problems of each under its line, as the command line does", async () => {
    const { page } = await openPage();
    const ndjson = [BROKEN, WARNING].map((name) => JSON.stringify(JSON.parse(text(name)))).join("\n") + "\n";
    const dir = mkdtempSync(join(tmpdir(), "basemodel-page-"));
    afterFile(() => rmSync(dir, { recursive: true, force: true }));
    writeFileSync(join(dir, "two.ndjson"), ndjson);
    const cli = await cliItems(join(dir, "two.ndjson"));
    expect(cli.map((item) => item.line)).toEqual([1, 2]);
    expect(await validateText(page, ndjson)).toBe("2 items: 1 valid, 1 invalid; 1 error, 1 warning");
    expect(await problems(page).getByRole("heading").allTextContents()).toEqual(["Item JSON (NDJSON)"]);
    for (const [index, item] of cli.entries()) {
      const list = page.getByRole("list", { name: `Problems of Item JSON, line ${item.line}`, exact: true });
      expect((await list.getByRole("button").allTextContents()).map((line) => line.replace(/\s+/g, " ").trim()), `item ${index}`).toEqual(cliProblems([item]));
    }
    // The valid one (with its warning) is also a card.
    expect(await page.getByRole("article").count()).toBe(1);
    // A problem of the second line shows its place there.
    await page.getByRole("list", { name: "Problems of Item JSON, line 2" }).getByRole("button").click();
    expect(await caret(page)).toMatchObject({ line: 2, column: cli[1]!.warnings[0]!.column, focused: true });
  });

  it("opens picked files, each file's results under its name; a problem shows its file in the editor", async () => {
    const { page } = await openPage();
    await page.getByLabel("Open files").setInputFiles([fixture(VALID), fixture(BROKEN)]);
    expect(await validated(page)).toBe("2 files, 2 items: 1 valid, 1 invalid; 1 error, 0 warnings");
    const document = problems(page).getByRole("listitem").filter({ has: page.getByRole("heading", { name: "enum-mlm-framework-case.json" }) });
    expect((await document.getByRole("button").allTextContents()).map((line) => line.replace(/\s+/g, " ").trim())).toEqual(cliProblems(await cliItems(fixture(BROKEN))));
    expect(await page.getByRole("article").locator("p.hint").innerText()).toBe("realistic-segmentation.json");
    // The editor shows the first file; the problem's file replaces it.
    const editor = page.getByLabel("Item JSON", { exact: true });
    expect(await editor.inputValue()).toBe(text(VALID));
    await document.getByRole("button").click();
    expect(await editor.inputValue()).toBe(text(BROKEN));
    expect(await page.getByRole("combobox", { name: "File in the editor" }).inputValue()).toBe("1");
    expect(await caret(page)).toMatchObject({ line: 18, column: 22, focused: true });
    await screenshot(page, "validate");
    // Clear: back to one empty text, nothing validated.
    await page.getByRole("button", { name: "Clear", exact: true }).click();
    expect(await editor.inputValue()).toBe("");
    expect(await problemButtons(page).count()).toBe(0);
    expect(await page.getByRole("article").count()).toBe(0);
    expect(await page.getByRole("combobox", { name: "File in the editor" }).count()).toBe(0);
    expect(await summary(page).textContent()).toMatch(/^Paste an item/);
  });

  it("validates a file dropped onto the page; a file that is not UTF-8 is said to be so, as the command line says it", async () => {
    const { page } = await openPage();
    const bytes = Buffer.concat([Buffer.from(text(BROKEN).slice(0, 40)), Buffer.from([0xff, 0xfe]), Buffer.from(text(BROKEN).slice(40))]);
    const dir = mkdtempSync(join(tmpdir(), "basemodel-page-"));
    afterFile(() => rmSync(dir, { recursive: true, force: true }));
    writeFileSync(join(dir, "latin.json"), bytes);
    // A drop as the browser makes it: the file in a DataTransfer (made in the page, whose types the tests' TypeScript does not know).
    const drop = async (name: string, content: number[]) => {
      const transfer = await page.evaluateHandle(
        `(() => { const data = new DataTransfer(); data.items.add(new File([new Uint8Array(${JSON.stringify(content)})], ${JSON.stringify(name)}, { type: "application/json" })); return data; })()`,
      );
      await page.dispatchEvent("main", "drop", { dataTransfer: transfer });
    };
    await drop("dropped.json", [...Buffer.from(text(BROKEN))]);
    expect(await validated(page)).toBe("1 item: 0 valid, 1 invalid; 1 error, 0 warnings");
    expect(await page.getByRole("heading", { name: "dropped.json" }).count()).toBe(1);
    expect(await pageProblems(page)).toEqual(cliProblems(await cliItems(fixture(BROKEN))));

    await drop("latin.json", [...bytes]);
    await expect.poll(() => pageProblems(page)).toEqual(cliProblems(await cliItems(join(dir, "latin.json"))));
    expect((await pageProblems(page))[0]).toMatch(/ error encoding /);
  });
});

describe.runIf(withChromium)("the validator page on a static host", () => {
  it("works from a plain static file server of dist/, below a path, with no basemodel server: it validates, with --stac too", async () => {
    const host = await staticHost(packageFile("dist"));
    const watched = await watchedPage();
    const { page } = watched;
    await page.goto(`${host.url}web/validate.html`);
    expect(await validateText(page, text(BROKEN))).toBe("1 item: 0 valid, 1 invalid; 1 error, 0 warnings");
    expect(await pageProblems(page)).toEqual(cliProblems(await cliItems(fixture(BROKEN))));
    await validateText(page, text(STAC_BROKEN));
    await page.getByRole("checkbox", { name: /--stac/ }).check();
    await expect.poll(() => pageProblems(page), { timeout: 30_000 }).toEqual(cliProblems(await cliItems(fixture(STAC_BROKEN), ["--stac"])));
    expectOnlyFrom(watched, new URL(host.url).origin);
  });

  it("says so when a part of the validator cannot be loaded from the host", async () => {
    const host = await staticHost(packageFile("dist"));
    const { page } = await watchedPage();
    await page.goto(`${host.url}web/validate.html`);
    await validateText(page, text(STAC_BROKEN));
    // The host loses every script the page has not loaded yet: the STAC schemas among them.
    const loaded = new Set(await page.evaluate(() => performance.getEntriesByType("resource").map((entry) => new URL(entry.name).pathname.split("/").pop()!)));
    host.refuse((path) => path.endsWith(".js") && !loaded.has(path.split("/").pop()!));
    await page.getByRole("checkbox", { name: /--stac/ }).check();
    const banner = page.getByRole("alert");
    await expect.poll(() => banner.textContent(), { timeout: 30_000 }).toMatch(/^The validator could not run: /);
    expect(await summary(page).textContent()).toBe("Not validated.");
    // Nothing of the validation before is left to be taken for this one's.
    expect(await page.getByRole("article").count()).toBe(0);
    expect(await problemButtons(page).count()).toBe(0);
  });
});

import { SaxesParser } from "saxes";
import { describe, expect, it } from "vitest";
import { formatJunit } from "../../../src/validator/report/junit.js";
import { brokenText, fileReport, mixedReport, runReport, unreadable } from "./fixtures.js";
import { NO_COLOURS } from "../../../src/validator/report/paint.js";

const context = { paint: NO_COLOURS, quiet: false };

interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  text: string;
}

/** Parses with saxes, which throws on anything that is not well-formed XML 1.0. */
function parseXml(xml: string): { declaration: { version?: string; encoding?: string }; root: XmlElement } {
  const parser = new SaxesParser();
  const document: XmlElement = { name: "#document", attributes: {}, children: [], text: "" };
  const open = [document];
  let declaration = {};
  parser.on("xmldecl", (decl) => (declaration = decl));
  parser.on("opentag", (tag) => {
    const element: XmlElement = { name: tag.name, attributes: tag.attributes, children: [], text: "" };
    open.at(-1)!.children.push(element);
    open.push(element);
  });
  parser.on("text", (text) => (open.at(-1)!.text += text));
  parser.on("closetag", () => open.pop());
  parser.write(xml).close();
  expect(document.children).toHaveLength(1);
  return { declaration, root: document.children[0]! };
}

function childrenNamed(element: XmlElement, name: string): XmlElement[] {
  return element.children.filter((child) => child.name === name);
}

function descendantsNamed(element: XmlElement, name: string): XmlElement[] {
  return element.children.flatMap((child) => [...(child.name === name ? [child] : []), ...descendantsNamed(child, name)]);
}

describe("junit format", () => {
  const mixed = mixedReport();
  const { declaration, root } = parseXml(formatJunit(mixed, context));
  const suites = childrenNamed(root, "testsuite");
  const suite = (file: string) => suites.find((candidate) => candidate.attributes.name === file)!;

  it("is well-formed UTF-8 XML with one testsuites root holding the totals", () => {
    expect(declaration).toMatchObject({ version: "1.0", encoding: "UTF-8" });
    expect(root.name).toBe("testsuites");
    expect(root.attributes).toEqual({ name: "basemodel", tests: "9", failures: "5", errors: "1", time: "0.012" });
    expect(descendantsNamed(root, "testcase")).toHaveLength(9);
    expect(descendantsNamed(root, "failure")).toHaveLength(5);
    expect(descendantsNamed(root, "error")).toHaveLength(1);
  });

  it("has one test suite per file, whose counts match its test cases", () => {
    expect(suites.map((element) => element.attributes.name)).toEqual(mixed.files.map((file) => file.file));
    for (const element of suites) {
      const cases = childrenNamed(element, "testcase");
      expect(element.attributes.tests).toBe(String(cases.length));
      expect(element.attributes.failures).toBe(String(cases.filter((testcase) => childrenNamed(testcase, "failure").length > 0).length));
      expect(element.attributes.errors).toBe(String(cases.filter((testcase) => childrenNamed(testcase, "error").length > 0).length));
      for (const testcase of cases) expect(testcase.attributes.classname).toBe(element.attributes.name);
    }
  });

  it("names test cases by item id, else by their place in the file", () => {
    const names = (file: string) => childrenNamed(suite(file), "testcase").map((testcase) => testcase.attributes.name);
    expect(names("models/unet/stac-item.json")).toEqual(["deeplabv3-buildings-tuned"]);
    expect(names("bad-syntax.json")).toEqual(["item"]);
    expect(names("catalog/collection.json")).toEqual(["deeplabv3-buildings-tuned", "b"]);
    // Two lines share the id "deeplabv3-buildings-tuned": their line tells them apart.
    expect(names("items.ndjson")).toEqual(["line 1", "line 3", "line 4"]);
  });

  it("fails an invalid item with every error, and puts warnings in system-out", () => {
    const [testcase] = childrenNamed(suite("models/unet/stac-item.json"), "testcase");
    const [failure] = childrenNamed(testcase!, "failure");
    expect(failure!.attributes).toEqual({ message: "3 errors", type: "basemodel" });
    expect(failure!.text.split("\n")).toEqual([
      '2:13 const type must be "Feature"; found a string ("feature") (did you mean "Feature"?)',
      '9:5 required "mlm:name" is missing from properties',
      '18:26 enum properties.mlm:framework must be one of "PyTorch", "TensorFlow"; found a string ("pytorch") (did you mean "PyTorch"?)',
    ]);
    const [systemOut] = childrenNamed(testcase!, "system-out");
    expect(systemOut!.text.split("\n").map((line) => line.split(" ").slice(0, 2).join(" "))).toEqual([
      "60:9 unknown-prefixed-property",
      "78:9 unknown-prefixed-property",
    ]);
  });

  it("passes a valid item, keeping its warnings", () => {
    const [valid] = childrenNamed(suite("catalog/collection.json"), "testcase");
    expect(childrenNamed(valid!, "failure")).toEqual([]);
    expect(childrenNamed(valid!, "system-out")[0]!.text).toMatch(/^80:9 unknown-prefixed-property /);
  });

  it("reports an unreadable file as a test error", () => {
    const [testcase] = childrenNamed(suite("missing.json"), "testcase");
    expect(testcase!.attributes.name).toBe("read");
    expect(childrenNamed(testcase!, "error")[0]!.attributes).toEqual({ message: "ENOENT: no such file or directory", type: "read-error" });
  });

  it("escapes markup and line breaks, and drops characters XML cannot hold", () => {
    const framework = brokenText.replace('"mlm:framework": "pytorch"', `"mlm:framework": "<Py&Torch> 'x'"`);
    const file = `a&b<c>"d'e.json`;
    const report = runReport([fileReport(file, framework), unreadable("bad.json", "line one\r\nline\ttwo \u0001\u0008\ufffe\ud800end")]);
    const { root: parsed } = parseXml(formatJunit(report, context));
    const [itemSuite, unreadableSuite] = childrenNamed(parsed, "testsuite");
    expect(itemSuite!.attributes.name).toBe(file);
    const failure = descendantsNamed(itemSuite!, "failure")[0]!;
    expect(failure.text).toContain(`found a string ("<Py&Torch> 'x'")`);
    expect(descendantsNamed(unreadableSuite!, "error")[0]!.attributes.message).toBe("line one\r\nline\ttwo end");
  });

  it("says in the failure how many issues --max-errors left out", () => {
    const { root: parsed } = parseXml(formatJunit(runReport([fileReport("a.json", brokenText, { maxErrors: 2 })]), context));
    const failure = descendantsNamed(parsed, "failure")[0]!;
    // Every error found, though the failure lists two.
    expect(failure.attributes.message).toBe("3 errors");
    expect(failure.text.split("\n").at(-1)).toBe("… and 3 more issues: 1 error, 2 warnings (raise --max-errors)");
  });
});

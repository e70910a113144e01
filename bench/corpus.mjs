// Corpora for bench/cli.mjs and bench/stac.mjs: copies of the ~10 KB realistic fixture, or fAIr's
// real items, every tenth one broken.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const BREAKS = [
  (item) => (item.properties["mlm:framework"] = "pytorch"),
  (item) => delete item.assets.model,
  (item) => (item.properties["fair:split_spec"].default_ratio = 1),
  (item) => (item.properties.keywords = []),
  (item) => (item.stac_extensions = []),
];

/** Writes `count` items, item i as `itemAt(i)` gives it (text), every tenth broken by `breakItem`. */
function writeCorpus(dir, count, itemAt) {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  let bytes = 0;
  for (let i = 0; i < count; i++) {
    const text = itemAt(i);
    bytes += text.length;
    writeFileSync(join(dir, `item-${String(i).padStart(4, "0")}.json`), text);
  }
  return { count, averageBytes: Math.round(bytes / count) };
}

/** Every tenth item broken by one of BREAKS in turn; by the first when the item lacks what that one breaks. */
function broken(item, i) {
  try {
    BREAKS[(i / 10) % BREAKS.length | 0](item);
  } catch {
    BREAKS[0](item);
  }
  return `${JSON.stringify(item, null, 2)}\n`;
}

export function buildCorpus(dir, count = 2000) {
  const base = JSON.parse(readFileSync(new URL("../fixtures/valid/realistic-segmentation.json", import.meta.url), "utf8"));
  return writeCorpus(dir, count, (i) => {
    const item = structuredClone(base);
    item.id = `${base.id ?? "item"}-${i}`;
    item.properties.title = `${item.properties.title} #${i}`;
    return i % 10 === 9 ? broken(item, i) : `${JSON.stringify(item, null, 2)}\n`;
  });
}

/**
 * A corpus of fAIr's real items as they are (../shared/data/fair-models/corpus: the model items
 * the base model rules pass, each with its warning), taken in turn; every tenth broken.
 * Undefined when that folder is not there (a clone without ../shared). Needs `npm run build`.
 */
export async function buildRealCorpus(dir, count = 2000) {
  const source = new URL("../../shared/data/fair-models/corpus/", import.meta.url);
  if (!existsSync(source)) return undefined;
  const { validateItemText } = await import("../dist/lib-bundle/index.js");
  const texts = ["mirror-models", "index-only"]
    .flatMap((folder) => readdirSync(new URL(`${folder}/`, source)).map((name) => readFileSync(new URL(`${folder}/${name}`, source), "utf8")))
    .filter((text) => validateItemText(text).valid);
  return { ...writeCorpus(dir, count, (i) => (i % 10 === 9 ? broken(JSON.parse(texts[i % texts.length]), i) : texts[i % texts.length])), sources: texts.length };
}

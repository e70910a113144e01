// A corpus of real-sized items: copies of the ~10 KB realistic fixture, every tenth one broken.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const BREAKS = [
  (item) => (item.properties["mlm:framework"] = "pytorch"),
  (item) => delete item.assets.model,
  (item) => (item.properties["fair:split_spec"].default_ratio = 1),
  (item) => (item.properties.keywords = []),
  (item) => (item.stac_extensions = []),
];

export function buildCorpus(dir, count = 2000) {
  const base = JSON.parse(readFileSync(new URL("../fixtures/valid/realistic-segmentation.json", import.meta.url), "utf8"));
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  let bytes = 0;
  for (let i = 0; i < count; i++) {
    const item = structuredClone(base);
    item.id = `${base.id ?? "item"}-${i}`;
    item.properties.title = `${item.properties.title} #${i}`;
    if (i % 10 === 9) BREAKS[(i / 10) % BREAKS.length | 0](item);
    const text = `${JSON.stringify(item, null, 2)}\n`;
    bytes += text.length;
    writeFileSync(join(dir, `item-${String(i).padStart(4, "0")}.json`), text);
  }
  return { count, averageBytes: Math.round(bytes / count) };
}

// The floor for `basemodel validate <dir>`: read and JSON.parse every *.json file, nothing else.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const dir = process.argv[2];
let parsed = 0;
for (const name of readdirSync(dir)) {
  if (!name.endsWith(".json")) continue;
  JSON.parse(readFileSync(join(dir, name), "utf8"));
  parsed++;
}
process.stdout.write(`${parsed}\n`);

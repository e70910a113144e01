// `npm run bench`: every benchmark, printed as the Markdown that goes into BENCHMARKS.md.
import { existsSync } from "node:fs";
import os from "node:os";
import { markdown as itemMarkdown, run as runItem } from "./validate-item.mjs";
import { run as runCli } from "./cli.mjs";

const cpu = os.cpus()[0]?.model ?? "unknown CPU";
console.log(`Machine: ${os.cpus().length} × ${cpu}, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}\n`);
console.log("## validateItem() on one core\n");
console.log(itemMarkdown(await runItem()));
console.log("\n## basemodel validate (whole process, hyperfine)\n");
console.log(runCli());
console.log("\n## basemodel validate and --stac on fAIr's real items (hyperfine)\n");
console.log(await (await import("./stac.mjs")).run());
console.log("\n## What each part of basemodel validate costs (parts switched off in copies of the bundle)\n");
console.log(await (await import("./parts.mjs")).run());
console.log("\n## Reference server: import and HTTP\n");
console.log(await (await import("./server.mjs")).run());
console.log("\n## Reference server: asynchronous exports\n");
console.log(await (await import("./exports.mjs")).run());
console.log("\n## Reference server: custom exports (TM-Extractor)\n");
console.log(await (await import("./custom.mjs")).run());
console.log("\n## Reference server: change files and data quality reports\n");
console.log(await (await import("./update.mjs")).run());
console.log("\n## The home page in a browser, beside /docs\n");
console.log(existsSync("/usr/bin/chromium") ? await (await import("./page.mjs")).run() : "Not measured: install Debian's chromium.");

// `npm run bench`: every benchmark, printed as the Markdown that goes into BENCHMARKS.md.
import os from "node:os";
import { run as runItem } from "./validate-item.mjs";
import { run as runCli } from "./cli.mjs";

const cpu = os.cpus()[0]?.model ?? "unknown CPU";
console.log(`Machine: ${os.cpus().length} × ${cpu}, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}\n`);
console.log("## validateItem() on one core\n");
const itemRows = await runItem();
console.log(typeof itemRows === "string" ? itemRows : itemRows.join("\n"));
console.log("\n## basemodel validate (whole process, hyperfine)\n");
console.log(runCli());

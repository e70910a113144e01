// Measures one import: summary, CPU time and peak RSS. Not a test (no timing is asserted).
// Needs the build (`npm run build`), then:
//   node test/server/osm/measure-import.mjs fixtures/osm/andorra-2021-04-14.osm.pbf /tmp/andorra.db
import { importOsm } from "../../../dist/server/fill/import.js";

const [input, output] = process.argv.slice(2);
if (!input || !output) {
  console.error("usage: node test/server/osm/measure-import.mjs <input.osm.pbf|.osm|.osm.gz> <output.db>");
  process.exit(2);
}
let peakRss = process.memoryUsage.rss();
const sample = () => (peakRss = Math.max(peakRss, process.memoryUsage.rss()));
// Progress callbacks come once per block; the timer also catches the SQLite commit.
const timer = setInterval(sample, 10);
const cpuBefore = process.cpuUsage();
const summary = await importOsm(input, output, { onProgress: sample });
const cpu = process.cpuUsage(cpuBefore);
clearInterval(timer);
sample();
console.log(JSON.stringify(summary, null, 2));
console.log(`cpu ${((cpu.user + cpu.system) / 1e6).toFixed(2)} s, peak RSS ${(peakRss / 2 ** 20).toFixed(0)} MiB`);

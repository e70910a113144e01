#!/usr/bin/env node
// The command line: dist/cli-bundle/main.js, which `npm run build` makes. The package runs no
// script when it is installed, so a clone of the repository has no build until one is made: run
// from a clone (scripts/build.mjs beside it), the first command builds it once, saying so in one
// line. A package made by `npm pack` holds its build and no scripts/: it never builds.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const bundle = new URL("../dist/cli-bundle/main.js", import.meta.url);
if (!existsSync(bundle)) {
  const build = new URL("../scripts/build.mjs", import.meta.url);
  if (!existsSync(build)) {
    process.stderr.write(
      `basemodel: this copy has no build (${fileURLToPath(bundle)} is missing). npm builds basemodel when it packs it, ` +
        "and does not when it installs it from a git URL: install a tarball made by `npm pack` in a clone instead\n",
    );
    process.exit(2);
  }
  process.stderr.write("basemodel: no build in this clone yet (dist/ is missing): building it once with scripts/build.mjs\n");
  // The build's own messages (only errors) go to standard error, so that a command's output stays its own.
  const { spawnSync } = await import("node:child_process");
  const { status } = spawnSync(process.execPath, [fileURLToPath(build)], { stdio: ["ignore", 2, 2] });
  if (status !== 0) {
    process.stderr.write("basemodel: the build failed (above); fix it, then run `npm run build`\n");
    process.exit(2);
  }
}
// Named as written, not by `bundle`: the tests of the package's contents follow the import to it.
const { main } = await import("../dist/cli-bundle/main.js");
await main(process.argv);

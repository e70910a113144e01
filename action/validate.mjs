// The Validate step of action.yml: runs basemodel validate from the action's checkout with the
// step's inputs (passed as environment variables, so that no input is ever pasted into a shell
// command), then records the exit code as a step output instead of failing, so that the SARIF
// upload can run before the last step exits as the CLI did.
import { spawnSync } from "node:child_process";
import { appendFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";

const FORMATS = ["text", "json", "github", "sarif", "junit"];

/** Splits a line into words as a shell would for plain words and quoted ones; nothing is expanded. */
function words(line) {
  const found = [];
  let word = null;
  let quote = null;
  for (let i = 0; i < line.length; i++) {
    const char = line[i];
    if (quote !== null) {
      if (char === quote) quote = null;
      else if (char === "\\" && quote === '"' && i + 1 < line.length) word += line[++i];
      else word += char;
    } else if (char === "'" || char === '"') {
      quote = char;
      word ??= "";
    } else if (char === "\\" && i + 1 < line.length) {
      word = (word ?? "") + line[++i];
    } else if (/\s/.test(char)) {
      if (word !== null) found.push(word);
      word = null;
    } else {
      word = (word ?? "") + char;
    }
  }
  if (quote !== null) throw new Error(`unclosed ${quote} in ${JSON.stringify(line)}`);
  if (word !== null) found.push(word);
  return found;
}

function fail(message) {
  console.log(`::error title=basemodel action::${message}`);
  return 2;
}

function setOutput(name, value) {
  if (process.env.GITHUB_OUTPUT) appendFileSync(process.env.GITHUB_OUTPUT, `${name}=${value}\n`);
}

function run() {
  const env = process.env;
  const cli = resolve(env.GITHUB_ACTION_PATH ?? ".", "bin/basemodel.js");
  const format = env.BASEMODEL_FORMAT || "github";
  if (!FORMATS.includes(format)) return fail(`format must be one of ${FORMATS.join(", ")}; found ${JSON.stringify(format)}`);
  let paths;
  let extra;
  try {
    paths = words(env.BASEMODEL_PATHS || ".");
    extra = words(env.BASEMODEL_ARGS ?? "");
  } catch (error) {
    return fail(`paths and args: ${error.message}`);
  }
  const profile = env.BASEMODEL_PROFILE ? ["--profile", env.BASEMODEL_PROFILE] : [];
  const args = [cli, "validate", ...paths, ...profile, ...extra];
  const shown = spawnSync(process.execPath, [...args, "--format", format], { stdio: "inherit" });
  if (shown.error) return fail(`could not run basemodel: ${shown.error.message}`);
  const code = shown.status ?? 2;
  if (env.BASEMODEL_SARIF_FILE) {
    const sarifFile = resolve(env.BASEMODEL_SARIF_FILE);
    const sarif = spawnSync(process.execPath, [...args, "--format", "sarif"], { encoding: "utf8", maxBuffer: 1 << 30 });
    if (sarif.status === 2 || sarif.error) return fail(`could not write the SARIF report: ${sarif.error?.message ?? sarif.stderr.trim()}`);
    writeFileSync(sarifFile, sarif.stdout);
    setOutput("sarif-file", sarifFile);
  }
  return code;
}

const code = run();
setOutput("exit-code", code);

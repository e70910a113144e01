import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterFile } from "../../../support/cleanup.js";
import { describeStoreContract } from "./store-contract.js";

describeStoreContract("SQLite", async () => {
  const directory = mkdtempSync(join(tmpdir(), "basemodel-store-contract-"));
  afterFile(() => rmSync(directory, { recursive: true, force: true }));
  return join(directory, "monaco.db");
});

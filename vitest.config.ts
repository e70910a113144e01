import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/support/global-setup.ts"],
    // Many tests start the real CLI or tsc as child processes: leave room for a busy machine.
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});

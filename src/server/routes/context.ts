/** What every route group is given by the server: the store, its limits, and the exports when it has them. */
import type { ArtifactStore } from "../exports/artifacts.js";
import type { AccessTokens } from "../http/access.js";
import type { FeatureStore } from "../store/store.js";
import type { ExportSubmitter } from "../tasks/export-tasks.js";

export interface ExportsOptions {
  /** Where export tasks are queued; workers (not the server) run them, maybe in another process. */
  queue: ExportSubmitter;
  /** Where the workers publish exports, served under /exports/. */
  artifacts: ArtifactStore;
  /** The server's address as clients see it, for download URLs; default: the host each request was sent to. */
  publicUrl?: string;
  /** Largest export area in km²; larger is a 422. Default 100,000. */
  maxAreaKm2?: number;
}

export interface RouteContext {
  store: FeatureStore;
  plainFeatureLimit: number;
  plainMaxAreaKm2: number;
}

export interface ExportsContext extends ExportsOptions {
  maxAreaKm2: number;
  /** The users file's tokens, when the server has one. */
  tokens: AccessTokens | undefined;
}

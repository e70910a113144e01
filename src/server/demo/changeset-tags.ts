/**
 * What the demo's changesets say about themselves: the editor they were made with and their
 * hashtags. Hashtags follow HOT's habits: a Tasking Manager project's changesets carry
 * `hotosm-project-<id>` while the project runs, often with a campaign tag beside it.
 * The project ids are made up, above any real Tasking Manager project's.
 */
import type { Random } from "./random.js";

export interface ChangesetTags {
  editor: string;
  /** Without the leading `#`, as the store keeps them. */
  hashtags: string[];
}

interface Project {
  hashtag: string;
  /** Epoch milliseconds, UTC: when the project ran. */
  from: number;
  to: number;
}

const HOT_PROJECTS: readonly Project[] = [
  { hashtag: "hotosm-project-90017", from: Date.UTC(2020, 8, 1), to: Date.UTC(2021, 5, 30) },
  { hashtag: "hotosm-project-90242", from: Date.UTC(2022, 2, 1), to: Date.UTC(2022, 11, 31) },
  { hashtag: "hotosm-project-90583", from: Date.UTC(2024, 0, 15), to: Date.UTC(2024, 9, 31) },
];

const CAMPAIGNS = ["MissingMaps", "mapathon"] as const;

// The Tasking Manager opens iD or JOSM; survey apps add no project hashtags.
const PROJECT_EDITORS = [
  ["iD 2.27.3", 3],
  ["JOSM/1.5 (18822 en)", 1],
] as const;

const EDITORS = [
  ["iD 2.27.3", 40],
  ["JOSM/1.5 (18822 en)", 20],
  ["StreetComplete 57.4", 15],
  ["Every Door 5.2", 10],
  ["Vespucci 19.2.1.0", 5],
] as const;

export function changesetTags(random: Random, createdAt: number): ChangesetTags {
  const project = HOT_PROJECTS.find(({ from, to }) => from <= createdAt && createdAt <= to);
  if (project && random.chance(0.8)) {
    const campaign = random.weighted([[null, 2], ...CAMPAIGNS.map((name) => [name, 1] as const)]);
    return { editor: random.weighted(PROJECT_EDITORS), hashtags: campaign === null ? [project.hashtag] : [project.hashtag, campaign] };
  }
  const editor = random.weighted(EDITORS);
  const campaign = editor.startsWith("iD") && random.chance(0.25) ? random.pick(CAMPAIGNS) : null;
  return { editor, hashtags: campaign === null ? [] : [campaign] };
}

/**
 * The home page in Debian's Chromium, served by the real server over Monaco after a mapathon (a
 * SQLite store with data quality findings), exports on. The page is driven by role and accessible
 * name, as a person with a screen reader or a keyboard would find its controls.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { areaKm2 } from "../../src/model/area.js";
import type { PolygonalGeometry } from "../../src/model/geojson.js";
import { afterFile } from "../support/cleanup.js";
import { hasChromium, screenshot, watchedPage, type WatchedPage } from "../support/browser.js";
import { VectorTile } from "@mapbox/vector-tile";
import { PbfReader } from "pbf";
import { finishedExport, pythonZip, startExportServer, type ExportServer } from "../server/routes/exports.js";
import { homeServers, type HomeServer } from "./home-servers.js";
import { MONACO_CENTRE, ringOf } from "../server/routes/helpers.js";
import { BAD_VALUE, MAPATHON_BOX, mapathonStorePath, UNSQUARED } from "../server/routes/mapathon.js";

/** The OSM objects of a vector tile, every layer's, as "way/42". */
function osmObjectsIn(bytes: Uint8Array): string[] {
  const tile = new VectorTile(new PbfReader(bytes));
  return Object.values(tile.layers).flatMap((layer) => Array.from({ length: layer.length }, (_, index) => layer.feature(index).properties)).map((properties) => `${properties["osm_type"]}/${properties["osm_id"]}`);
}

/** Waits for states, never for a time: a busy machine renders slowly, not differently. */
const PATIENCE = { timeout: 120_000 };

function boxPolygon({ minX, minY, maxX, maxY }: typeof MONACO_CENTRE): PolygonalGeometry {
  return { type: "Polygon", coordinates: [[[minX, minY], [maxX, minY], [maxX, maxY], [minX, maxY], [minX, minY]]] };
}

/** The km² as the page writes it: three significant figures, whole km² from 100 up. */
function shownKm2(geometry: PolygonalGeometry): string {
  const km2 = areaKm2(geometry);
  return `${km2.toLocaleString("en-US", km2 >= 100 ? { maximumFractionDigits: 0 } : { maximumSignificantDigits: 3 })} km²`;
}

/** The home page, loaded until its map is idle; `view` is a view of the map to open it at (#zoom/lat/lon). */
async function openHome(server: Pick<HomeServer, "url">, watched?: WatchedPage, view = ""): Promise<WatchedPage> {
  const opened = watched ?? (await watchedPage());
  await opened.page.goto(`${server.url}/${view}`);
  await opened.page.locator("#map[aria-busy=false]").waitFor(PATIENCE);
  return opened;
}

/** Chooses the area by uploading it as a GeoJSON file, as "Upload area" does. */
async function uploadArea(page: Page, geometry: PolygonalGeometry, name = "area.geojson"): Promise<void> {
  await page.getByRole("tab", { name: "Area" }).click();
  const feature = { type: "Feature", properties: {}, geometry };
  await page.getByLabel("Upload area").setInputFiles({ name, mimeType: "application/geo+json", buffer: Buffer.from(JSON.stringify(feature)) });
  await page.getByRole("tabpanel", { name: "Area" }).getByText(shownKm2(geometry), { exact: true }).waitFor(PATIENCE);
}

describe.runIf(hasChromium()).each(homeServers())("the home page's journeys in a real browser (%s)", { timeout: 300_000 }, (_name, start, screenshots) => {
  let server: HomeServer;
  beforeAll(async () => {
    server = await start();
  }, 600_000);

  it("loads with no console error and no request to another origin, and says how old the data is", async () => {
    const { page, requests, errors } = await openHome(server);
    await page.getByText("Data as of 2025-01-10 11:40 UTC").waitFor(PATIENCE);
    for (const name of ["Area", "Export", "History", "Data quality"]) await page.getByRole("tab", { name }).waitFor(PATIENCE);
    await page.getByRole("link", { name: "API docs" }).waitFor(PATIENCE);
    expect(errors).toEqual([]);
    const origin = new URL(server.url).origin;
    expect(requests.length).toBeGreaterThan(3);
    expect(requests.filter((url) => new URL(url).origin !== origin)).toEqual([]);
    // MapLibre's worker is one of them, and the tiles it asked for: the map ran, from this server alone.
    expect(requests.some((url) => /\/assets\/maplibre-gl-worker-\w+\.mjs$/.test(url))).toBe(true);
    expect(requests.some((url) => /\/tiles\/\d+\/\d+\/\d+\.mvt$/.test(url))).toBe(true);
    // It opened over Monaco (the view in the address, #zoom/lat/lon), not the sea its ferry routes cross.
    const [, lat, lon] = new URL(page.url()).hash.slice(1).split("/").map(Number);
    expect(lat! > 43.72 && lat! < 43.76 && lon! > 7.40 && lon! < 7.45, page.url()).toBe(true);
  });

  it("the map draws the store's tiles: what a click finds shows what it is and links to it", async () => {
    // The largest building (a way) of Monaco's centre, and a view of it (#zoom/lat/lon) to open the page at.
    const { body: found } = await server.post("/raw/polygons", { area: ringOf(MONACO_CENTRE), tags: "building", pageSize: 5000 });
    const { body: listed } = await server.post("/raw/polygonsList", { area: ringOf(MONACO_CENTRE), tags: "building", pageSize: 5000 });
    const ways = new Map((listed as Array<{ id: number; type: string; lat: number; lon: number }>).filter((row) => row.type === "way").map((row) => [row.id, row]));
    const largest = (found.features as Array<{ id: number; geometry: PolygonalGeometry }>).filter((feature) => ways.has(feature.id)).reduce((a, b) => (areaKm2(b.geometry) > areaKm2(a.geometry) ? b : a));
    const { lat, lon } = ways.get(largest.id)!;
    const { page, requests, errors } = await openHome(server, undefined, `#18/${lat}/${lon}`);
    // The tiles MapLibre's worker asked for, read by an independent decoder: the building is in them.
    const tiles = requests.filter((url) => /\/tiles\/\d+\/\d+\/\d+\.mvt$/.test(url));
    expect(tiles.length).toBeGreaterThan(0);
    const answers = await Promise.all(tiles.map(async (url) => new Uint8Array(await (await fetch(url)).arrayBuffer())));
    const inTiles = new Set(answers.filter((bytes) => bytes.length > 0).flatMap(osmObjectsIn));
    expect(inTiles.has(`way/${largest.id}`)).toBe(true);
    // Drawn: a click in the middle of the map finds a feature of those tiles (the building, or what lies on it).
    const map = (await page.locator("#map").boundingBox())!;
    await page.mouse.click(map.x + map.width / 2, map.y + map.height / 2);
    const link = page.locator(".maplibregl-popup").getByRole("link", { name: / on openstreetmap\.org$/ });
    await link.waitFor(PATIENCE);
    const href = (await link.getAttribute("href"))!;
    expect(inTiles.has(href.replace("https://www.openstreetmap.org/", ""))).toBe(true);
    await screenshot(page, "building", screenshots);
    expect(errors).toEqual([]);
  });

  it("an uploaded area shows its km² against the limits, and what it holds of each kind", async () => {
    const { page, errors } = await openHome(server);
    const centre = boxPolygon(MONACO_CENTRE);
    await uploadArea(page, centre, "monaco-centre.geojson");
    const area = page.getByRole("tabpanel", { name: "Area" });
    await area.getByText("Within the export limit of 100,000 km²").waitFor(PATIENCE);
    await area.getByText("Small enough for POST /latest/snapshot/plain/").waitFor(PATIENCE);
    const counts = area.getByRole("region", { name: "Features in the area" });
    await counts.getByText("Buildings").waitFor(PATIENCE);
    await expect.poll(() => counts.getAttribute("aria-busy"), PATIENCE).toBe("false");
    // The figures are the server's own count of the area.
    const answer = await server.post("/layers/count/", { geometry: { type: "Feature", properties: {}, geometry: centre } });
    expect(answer.status, answer.text).toBe(200);
    for (const [name, layer] of [
      ["Buildings", "buildings"],
      ["Roads", "roads"],
      ["Water", "water"],
      ["Land use", "landuse"],
      ["Points of interest", "pois"],
    ] as const) {
      const count = answer.body[layer] as number;
      const shown = await counts.locator("dt", { hasText: name }).locator("xpath=following-sibling::dd[1]").textContent();
      expect(shown, name).toBe(count === 0 ? "no features of this kind here" : count.toLocaleString("en-US"));
    }
    expect(answer.body.buildings).toBeGreaterThan(0);
    await screenshot(page, "home", screenshots);
    expect(errors).toEqual([]);
  });

  it("an export runs to a Download, the request shown is the one sent, and the zip opens", async () => {
    const { page, errors } = await openHome(server);
    await uploadArea(page, boxPolygon(MONACO_CENTRE));
    await page.getByRole("tab", { name: "Export" }).click();
    const panel = page.getByRole("tabpanel", { name: "Export" });
    await panel.getByRole("combobox", { name: "Format" }).selectOption("geojson");
    await panel.getByRole("button", { name: "Add tag filter" }).click();
    await panel.getByRole("textbox", { name: "Tag key 1" }).fill("building");
    const shown = await panel.getByLabel("Request body").textContent();
    expect(JSON.parse(shown!)).toMatchObject({ outputType: "geojson", fileName: "Export", filters: { tags: { allGeometry: { building: [] } } } });
    expect(await panel.getByLabel("curl command").textContent()).toContain(`curl -X POST '${server.url}/latest/snapshot/'`);
    const sent = page.waitForRequest((request) => request.method() === "POST" && request.url().endsWith("/latest/snapshot/"));
    await panel.getByRole("button", { name: "Export", exact: true }).click();
    expect((await sent).postData()).toBe(shown);
    const download = panel.getByRole("link", { name: "Download" });
    await download.waitFor(PATIENCE);
    await screenshot(page, "export", screenshots);
    const url = await download.getAttribute("href");
    const response = await fetch(url!);
    expect(response.status).toBe(200);
    const folder = mkdtempSync(join(tmpdir(), "basemodel-page-export-"));
    afterFile(() => rmSync(folder, { recursive: true, force: true }));
    const zip = join(folder, "export.zip");
    writeFileSync(zip, Buffer.from(await response.arrayBuffer()));
    expect(pythonZip(zip, "print('\\n'.join(sorted(z.namelist())))").trim().split("\n")).toEqual(["Export.geojson", "Readme.txt", "clipping_boundary.geojson"]);
    const exported = JSON.parse(pythonZip(zip, "sys.stdout.write(z.read('Export.geojson').decode())"));
    expect(exported.features.length).toBeGreaterThan(0);
    expect(errors).toEqual([]);
  });

  it("History lists an export with its area, files and Download after a restart of serve, and runs it again", async () => {
    const body = { geometry: boxPolygon(MONACO_CENTRE), fileName: "History_test", outputType: "geojson", filters: { tags: { allGeometry: { building: [] } } } };
    const done = await finishedExport(server, body);
    // Remembered by the queue, not by the process: a restart of serve forgets nothing.
    await server.restart();
    const { page, errors } = await openHome(server);
    await page.getByRole("tab", { name: "History" }).click();
    const entry = page.getByRole("list", { name: "Exports, newest first" }).locator(":scope > li").filter({ hasText: "History_test" }).first();
    await entry.waitFor(PATIENCE);
    expect(await entry.textContent()).toContain("Done");
    expect(await entry.getByRole("link", { name: "Download" }).getAttribute("href")).toBe(done.result.downloadUrl);
    const show = entry.getByRole("button", { name: "Show area" });
    await show.click();
    expect(await show.getAttribute("aria-pressed")).toBe("true");
    const sent = page.waitForRequest((request) => request.method() === "POST" && request.url().endsWith("/latest/snapshot/"));
    await entry.getByRole("button", { name: "Run again" }).click();
    // The request as it was sent, sent again.
    expect(JSON.parse((await sent).postData()!)).toEqual(body);
    await page.getByRole("tabpanel", { name: "Export" }).getByRole("link", { name: "Download" }).waitFor(PATIENCE);
    await page.getByRole("tab", { name: "History" }).click();
    const entries = page.getByRole("list", { name: "Exports, newest first" }).locator(":scope > li");
    await expect.poll(() => entries.filter({ hasText: "History_test" }).count(), PATIENCE).toBe(2);
    await screenshot(page, "history", screenshots);
    expect(errors).toEqual([]);
  });

  it("lists the area's data quality findings, each linking to its object on openstreetmap.org", async () => {
    const { page, errors } = await openHome(server);
    await uploadArea(page, boxPolygon(MAPATHON_BOX), "mapathon.geojson");
    await page.getByRole("tab", { name: "Data quality" }).click();
    const findings = page.getByRole("list", { name: "Findings" });
    const unsquared = findings.getByRole("link", { name: `way ${UNSQUARED} on openstreetmap.org` });
    await unsquared.waitFor(PATIENCE);
    expect(await unsquared.getAttribute("href")).toBe(`https://www.openstreetmap.org/way/${UNSQUARED}`);
    await findings.getByRole("link", { name: `way ${BAD_VALUE} on openstreetmap.org` }).waitFor(PATIENCE);
    await findings.getByText("building=houes").waitFor(PATIENCE);
    expect(await findings.getByText("Bad geometry").count()).toBeGreaterThan(0);
    // Coloured on the map: shown there, a click on it finds the finding.
    await findings.getByRole("button", { name: `Show way ${UNSQUARED} on the map` }).click();
    await page.locator("#map[aria-busy=false]").waitFor(PATIENCE);
    const map = (await page.locator("#map").boundingBox())!;
    await page.mouse.click(map.x + map.width / 2, map.y + map.height / 2);
    const popup = page.locator(".maplibregl-popup");
    await popup.getByRole("link", { name: `way ${UNSQUARED} on openstreetmap.org` }).waitFor(PATIENCE);
    expect(await popup.textContent()).toContain("Bad geometry");
    expect(await popup.textContent()).toContain("not square");
    await screenshot(page, "data-quality", screenshots);
    // A hashtag no changeset has: nothing.
    await page.getByRole("textbox", { name: "Hashtag" }).fill("no-such-project");
    await page.getByRole("button", { name: "Show findings" }).click();
    await page.getByText("No findings here for these dates and hashtag.").waitFor(PATIENCE);
    expect(errors).toEqual([]);
  });
});

describe.runIf(hasChromium())("the home page in a real browser", { timeout: 300_000 }, () => {
  let server: ExportServer;
  beforeAll(async () => {
    server = await startExportServer({ store: await mapathonStorePath() });
  });

  it("behind --public-url, the page still asks its own server for the tiles", async () => {
    const behind = await startExportServer({ store: await mapathonStorePath(), exports: { publicUrl: "https://exports.example.org/" } });
    const { body: tileJson } = await behind.get("/tiles.json");
    expect(tileJson.tiles[0]).toMatch(/^https:\/\/exports\.example\.org\//);
    const { requests, errors } = await openHome(behind, undefined, "#16/43.7347/7.4251");
    const origin = new URL(behind.url).origin;
    expect(requests.filter((url) => new URL(url).origin !== origin)).toEqual([]);
    expect(requests.some((url) => /\/tiles\/16\/\d+\/\d+\.mvt$/.test(url))).toBe(true);
    expect(errors).toEqual([]);
  });

  it("a rectangle drawn on the map shows its km² while it is drawn and once closed", async () => {
    const { page, errors } = await openHome(server);
    const draw = page.getByRole("button", { name: "Draw rectangle" });
    await draw.click();
    expect(await draw.getAttribute("aria-pressed")).toBe("true");
    // The map takes clicks once it says how.
    await page.getByText("Click one corner on the map, then the opposite one.").waitFor(PATIENCE);
    const map = (await page.locator("#map").boundingBox())!;
    await page.mouse.click(map.x + map.width * 0.3, map.y + map.height * 0.3);
    await page.mouse.move(map.x + map.width * 0.6, map.y + map.height * 0.6, { steps: 5 });
    const area = page.getByRole("tabpanel", { name: "Area" });
    await area.getByText("· being drawn").waitFor(PATIENCE);
    await page.mouse.click(map.x + map.width * 0.6, map.y + map.height * 0.6);
    await area.getByText("· drawn rectangle").waitFor(PATIENCE);
    expect(await area.locator(".km2").textContent()).toMatch(/^[\d,.]+ km²$/);
    expect(await draw.getAttribute("aria-pressed")).toBe("false");
    expect(errors).toEqual([]);
  });

  it("an area over the export limit is said to be so while it is chosen, and cannot be exported", async () => {
    const { page } = await openHome(server);
    const large = boxPolygon({ minX: -10, minY: 30, maxX: 10, maxY: 50 });
    await uploadArea(page, large, "too-large.geojson");
    await page.getByRole("tabpanel", { name: "Area" }).getByText("Too large to export: the limit is 100,000 km²").waitFor(PATIENCE);
    await page.getByRole("tab", { name: "Export" }).click();
    expect(await page.getByRole("button", { name: "Export", exact: true }).isDisabled()).toBe(true);
  });

  it("a file that is no area is refused in words", async () => {
    const { page } = await openHome(server);
    await page.getByLabel("Upload area").setInputFiles({ name: "point.geojson", mimeType: "application/geo+json", buffer: Buffer.from('{"type": "Point", "coordinates": [7.42, 43.73]}') });
    await page.getByRole("alert").getByText("point.geojson is a GeoJSON Point, not an area").waitFor(PATIENCE);
    await page.getByLabel("Upload area").setInputFiles({ name: "broken.json", mimeType: "application/json", buffer: Buffer.from("{not json") });
    await page.getByRole("alert").getByText("broken.json is not JSON").waitFor(PATIENCE);
  });

  it("the map's view, moved by keyboard alone, is the area", async () => {
    const { page, errors } = await openHome(server, undefined, "#15/43.7347/7.4251");
    await page.getByRole("region", { name: "Map" }).focus();
    await page.keyboard.press("ArrowLeft");
    // The view in the address follows the map once it has moved.
    await expect.poll(() => Number(new URL(page.url()).hash.split("/")[2]), PATIENCE).toBeLessThan(7.4251);
    await page.locator("#map[aria-busy=false]").waitFor(PATIENCE);
    await page.getByRole("button", { name: "Use map view" }).focus();
    await page.keyboard.press("Enter");
    const panel = page.getByRole("tabpanel", { name: "Area" });
    await panel.getByText("· the map's view").waitFor(PATIENCE);
    const km2 = await panel.locator(".km2").textContent();
    await page.getByRole("tab", { name: "Export" }).click();
    const body = JSON.parse((await page.getByRole("tabpanel", { name: "Export" }).getByLabel("Request body").textContent())!) as { geometry: PolygonalGeometry };
    const [ring] = body.geometry.coordinates as Array<Array<[number, number]>>;
    const [west, south] = ring![0]!;
    const [east, north] = ring![2]!;
    // A box around the centre the address named, moved west by the arrow key; its km² as the panel wrote it.
    expect(west < 7.4251 && east > 7.4251 && south < 43.7347 && north > 43.7347, JSON.stringify(ring)).toBe(true);
    expect((west + east) / 2).toBeLessThan(7.4251);
    expect(km2).toBe(shownKm2(body.geometry));
    expect(errors).toEqual([]);
  });

  it("a country picked by name is the area", async () => {
    const { page } = await openHome(server);
    const countries = (await server.get("/latest/countries/?q=mona")).body.features as Array<{ properties: { name: string } }>;
    expect(countries.map((country) => country.properties.name)).toContain("Monaco");
    await page.getByRole("searchbox", { name: "Country" }).fill("mona");
    await page.getByRole("button", { name: /^Monaco/ }).click();
    await page.getByRole("tabpanel", { name: "Area" }).getByText("· Monaco").waitFor(PATIENCE);
  });

  it("a custom export's categories in YAML go to the YAML route, and each of its zips downloads", async () => {
    const { page, errors } = await openHome(server);
    await uploadArea(page, boxPolygon(MONACO_CENTRE));
    await page.getByRole("tab", { name: "Export" }).click();
    const panel = page.getByRole("tabpanel", { name: "Export" });
    await panel.getByRole("radio", { name: "Categories (YAML or JSON)" }).check();
    await panel.getByRole("textbox", { name: "File name" }).fill("monaco_centre");
    const shown = await panel.getByLabel("Request body").textContent();
    expect(shown).toMatch(/^geometry: \{"type":"Feature"/);
    expect(shown).toContain('dataset: {"dataset_prefix":"monaco_centre"}\ncategories:\n  - Buildings:\n');
    const sent = page.waitForRequest((request) => request.method() === "POST" && request.url().endsWith("/latest/custom/snapshot/yaml/"));
    await panel.getByRole("button", { name: "Export", exact: true }).click();
    const request = await sent;
    expect(request.postData()).toBe(shown);
    expect(request.headers()["content-type"]).toBe("application/yaml");
    // The example's two categories, one format each: two zips.
    const downloads = panel.getByRole("link", { name: /^Download monaco_centre_/ });
    await downloads.first().waitFor(PATIENCE);
    expect(await downloads.count()).toBe(2);
    for (const link of await downloads.all()) {
      const response = await fetch((await link.getAttribute("href"))!);
      expect(response.status).toBe(200);
      expect(Buffer.from(await response.arrayBuffer()).subarray(0, 2).toString()).toBe("PK");
    }
    expect(errors).toEqual([]);
  });

  it("pasted GeoJSON is the area", async () => {
    const { page } = await openHome(server);
    const centre = boxPolygon(MONACO_CENTRE);
    await page.getByText("Paste GeoJSON", { exact: true }).click();
    await page.getByRole("textbox", { name: "GeoJSON of the area" }).fill(JSON.stringify(centre));
    await page.getByRole("button", { name: "Use pasted area" }).click();
    const area = page.getByRole("tabpanel", { name: "Area" });
    await area.getByText(shownKm2(centre), { exact: true }).waitFor(PATIENCE);
    await area.getByText("· pasted GeoJSON").waitFor(PATIENCE);
  });

  it("downloads the findings as the server's CSV", async () => {
    const { page } = await openHome(server);
    await uploadArea(page, boxPolygon(MAPATHON_BOX), "mapathon.geojson");
    await page.getByRole("tab", { name: "Data quality" }).click();
    await page.getByRole("list", { name: "Findings" }).getByRole("listitem").first().waitFor(PATIENCE);
    const [download] = await Promise.all([page.waitForEvent("download", PATIENCE), page.getByRole("button", { name: "Geometry findings as CSV" }).click()]);
    expect(download.suggestedFilename()).toBe("geometry-findings.csv");
    const folder = mkdtempSync(join(tmpdir(), "basemodel-page-csv-"));
    afterFile(() => rmSync(folder, { recursive: true, force: true }));
    const path = join(folder, "findings.csv");
    await download.saveAs(path);
    const lines = readFileSync(path, "utf8").trim().split(/\r?\n/);
    expect(lines[0]).toBe("osm_id,type,status,source,values,changeset,timestamp,hashtags,link,lon,lat");
    expect(lines.some((line) => line.startsWith(`${UNSQUARED},way,badgeom,`))).toBe(true);
  });

  it("says so in a banner when /status fails, and what still works", async () => {
    const watched = await watchedPage();
    await watched.page.route("**/latest/status/", (route) => route.fulfill({ status: 503, contentType: "application/json", body: JSON.stringify({ detail: "the PostGIS database cannot be reached" }) }));
    const { page } = await openHome(server, watched);
    const banner = page.getByRole("alert").filter({ hasText: "The data service cannot be reached" });
    await banner.waitFor(PATIENCE);
    expect(await banner.textContent()).toContain("the PostGIS database cannot be reached");
    expect(await banner.textContent()).toContain("Still working");
    await page.getByText("Data age unknown").waitFor(PATIENCE);
    // What the banner says still works does.
    await uploadArea(page, boxPolygon(MONACO_CENTRE));
    await screenshot(page, "status-banner");
  });

  it("every control has an accessible name, and the keyboard reaches the main ones", async () => {
    const { page } = await openHome(server);
    for (const name of ["Area", "Export", "History", "Data quality"]) {
      await page.getByRole("tab", { name }).click();
      const tree = await page.locator("body").ariaSnapshot();
      const unnamed = tree.split("\n").filter((line) => /^\s*- (button|link|textbox|searchbox|combobox|checkbox|radio|tab|spinbutton)(\s*\[[^\]]*\])?:?\s*$/.test(line));
      expect(unnamed, `${name}:\n${tree}`).toEqual([]);
    }
    await page.getByRole("tab", { name: "Area" }).click();
    const reached = new Set<string>();
    await page.locator("body").focus();
    for (let step = 0; step < 40; step++) {
      await page.keyboard.press("Tab");
      reached.add(await page.evaluate<string>("document.activeElement.getAttribute('aria-label') || document.activeElement.labels?.[0]?.textContent || document.activeElement.textContent"));
    }
    for (const name of ["API docs", "Area", "Draw polygon", "Draw rectangle", "Upload area", "Use map view", "Clear area", "Country"]) {
      expect([...reached].some((text) => text?.trim().startsWith(name)), `${name} in ${[...reached].join(" | ")}`).toBe(true);
    }
    // The arrow keys move between the panels' tabs.
    await page.getByRole("tab", { name: "Area" }).focus();
    await page.keyboard.press("ArrowRight");
    expect(await page.getByRole("tab", { name: "Export" }).getAttribute("aria-selected")).toBe("true");
    await page.getByRole("combobox", { name: "Format" }).waitFor(PATIENCE);
  });
});

/**
 * `npm run bench:notion`: the Notion sync against the fake Notion server enforcing Notion's documented average
 * of 3 requests per second (token bucket, 429 + Retry-After above it).
 *
 * - first sync of NOTION_BENCH_PAGES pages (default 1,000) over NOTION_BENCH_DATABASES databases (default 4):
 *   achieved requests/s ÷ 3 (goal ≥ 0.9), total time, 429s received;
 * - an unchanged re-sync: its requests (goal: at most one query page per database, plus one trash search).
 *
 * The whole app runs (startTestApp: embedded store, knowledge service, REST), with the real request queue.
 */
import { startTestApp } from "../api/src/testing/app";
import { loginAdmin, rest } from "../api/src/testing/client";
import { startFakeNotion } from "../api/src/testing/fake-notion";

const PAGES = Number(process.env.NOTION_BENCH_PAGES ?? 1000);
const DATABASES = Number(process.env.NOTION_BENCH_DATABASES ?? 4);
const TOKEN = "secret_bench_token";

const fake = await startFakeNotion({ tokens: [TOKEN], rateLimit: true, rps: 3 });
// the workspace's pages were written an hour ago
fake.advance(-60 * 60_000);
const ids: string[] = [];
for (let d = 0; d < DATABASES; d++) {
  const ds = fake.addDataSource(`Vidensbank ${d + 1}`);
  ids.push(ds);
  for (let i = d; i < PAGES; i += DATABASES) {
    fake.addPage(ds, {
      title: `Procedure ${i + 1}`,
      category: ["Økonomi", "Procedurer", "Roller", "Sagsbehandling"][i % 4],
      tags: ["bench"],
      blocks: [
        { type: "heading_2", text: `Trin for procedure ${i + 1}` },
        { type: "paragraph", text: `Beskrivelse af arbejdsgang nummer ${i + 1} i sekretariatet.` },
        { type: "bulleted_list_item", text: "Kontrollér bilag" },
      ],
    });
  }
}
fake.advance(60 * 60_000);

const app = await startTestApp({ config: { notionApiBaseUrl: fake.url }, notion: { now: () => fake.now() } });
try {
  const admin = await loginAdmin(app);
  const connected = await rest(app, "POST", "/api/admin/notion/token", {
    token: admin,
    body: { token: TOKEN },
  });
  if (connected.status !== 200) throw new Error(`connect failed: ${JSON.stringify(connected.body)}`);

  const before = fake.requests.length;
  const started = performance.now();
  await rest(app, "POST", "/api/admin/notion/config", { token: admin, body: { selectedDatabases: ids } });
  await app.services.notion.sync.idle();
  const seconds = (performance.now() - started) / 1000;
  const first = fake.requests.slice(before);
  const answered = first.filter((r) => r.status !== 429).length;
  const run = (await rest(app, "GET", "/api/admin/notion/sync", { token: admin })).body;
  const articles = (await app.services.knowledge.listArticles()).filter((a) => a.source === "notion").length;

  const reBefore = fake.requests.length;
  const reStarted = performance.now();
  await app.services.notion.sync.run("manual");
  const reSeconds = (performance.now() - reStarted) / 1000;
  const re = fake.requests.slice(reBefore);
  const queries = re.filter((r) => r.path.endsWith("/query")).length;

  const rate = answered / seconds;
  const lines = [
    `first sync: ${PAGES} pages in ${DATABASES} databases, ${articles} articles, run ${run.state} (${run.pagesFailed} failed)`,
    `  requests answered: ${answered}, 429s: ${first.length - answered}, total time ${seconds.toFixed(1)} s`,
    `  achieved ${rate.toFixed(2)} req/s ÷ 3 = ${(rate / 3).toFixed(3)} (goal ≥ 0.9)`,
    `unchanged re-sync: ${re.length} requests (${queries} query pages for ${DATABASES} databases, ${re.length - queries} other), ${reSeconds.toFixed(1)} s`,
    `  goal: at most one query page per database → ${queries <= DATABASES ? "met" : "NOT met"}`,
  ];
  process.stdout.write(`${lines.join("\n")}\n`);
} finally {
  await app.close();
  await fake.close();
}

/**
 * npm run bench:web — how heavy and how fast the sign-in screen is.
 *
 * 1. Builds the web app (vite build, production, web/vite.config.ts) and a minimal page that uses the same
 *    framework libraries (React, react-router, MUI, Apollo Client) with the same Vite config.
 * 2. Serves each build as static files (SPA fallback to index.html, like the API's static handler; the bench needs
 *    no API: /login renders without a signed-in user) and loads /login in headless Chromium with an empty cache,
 *    recording every JavaScript file the browser fetched; reports raw and gzip bytes and the ratio app/baseline
 *    (goal ≤ 1.25).
 * 3. Reports first contentful paint of /login (median of several fresh loads).
 * 4. The signed-in screens, served by the real server (startTestApp, in-memory store) with the same build:
 *    - the JavaScript the browser fetches for `/` (chat) and `/knowledge` with an empty cache (route-split: /login
 *      does not load them);
 *    - the chat opening a session that holds 5,000 messages: from the click in the sidebar to the newest message
 *      painted (goal ≤ 200 ms for the render; the time to fetch the messages over GraphQL is shown beside it),
 *      the number of message rows in the DOM (virtualized), and a scroll from the newest to the oldest message
 *      in jumps of one screen, the earlier pages loading on the way (time per jump until two frames are painted:
 *      median, p95, max; the total includes the waits for the pages).
 */
import { createReadStream } from "node:fs";
import fs from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { type Browser, chromium } from "playwright-core";
import { build, type UserConfig } from "vite";
import { CHROMIUM_ARGS } from "../web/e2e/support/browser";
import webConfig from "../web/vite.config";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const FCP_RUNS = 5;
const GOAL = 1.25;
const BIG_SESSION = Number(process.env.WEB_BENCH_MESSAGES ?? 5_000);
const RENDER_GOAL_MS = 200;
const RENDER_RUNS = 5;

const BASELINE_MAIN = `
import { ApolloClient, HttpLink, InMemoryCache } from "@apollo/client";
import { ApolloProvider } from "@apollo/client/react";
import { Button, Container, CssBaseline, TextField, ThemeProvider, Typography, createTheme } from "@mui/material";
import { createRoot } from "react-dom/client";
import { BrowserRouter, Route, Routes } from "react-router-dom";

const client = new ApolloClient({ link: new HttpLink({ uri: "/graphql" }), cache: new InMemoryCache() });

function Login() {
  return (
    <Container maxWidth="xs">
      <Typography variant="h1">Log ind</Typography>
      <TextField label="Email" fullWidth />
      <Button variant="contained">Log ind</Button>
    </Container>
  );
}

createRoot(document.getElementById("root")!).render(
  <ApolloProvider client={client}>
    <ThemeProvider theme={createTheme()}>
      <CssBaseline />
      <BrowserRouter>
        <Routes>
          <Route path="*" element={<Login />} />
        </Routes>
      </BrowserRouter>
    </ThemeProvider>
  </ApolloProvider>,
);
`;

const BASELINE_HTML = `<!doctype html><html lang="da"><head><meta charset="UTF-8" />
<meta name="viewport" content="width=device-width, initial-scale=1.0" /><title>baseline</title></head>
<body><div id="root"></div><script type="module" src="/main.tsx"></script></body></html>`;

async function buildWith(root: string, outDir: string): Promise<void> {
  const config = webConfig as UserConfig;
  await build({
    ...config,
    configFile: false,
    root,
    logLevel: "warn",
    build: { ...config.build, outDir, emptyOutDir: true, chunkSizeWarningLimit: 5000 },
  });
}

interface Load {
  files: number;
  raw: number;
  gzip: number;
  fcp: number[];
}

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
};

/** A static server for one build: files by path, anything else (client routes) gets index.html. */
async function serveStatic(dir: string): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer(async (req, res) => {
    const pathname = decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname);
    let file = path.join(dir, path.normalize(pathname));
    const stat = file.startsWith(dir) ? await fs.stat(file).catch(() => null) : null;
    if (!stat?.isFile()) {
      if (pathname.startsWith("/assets/") || pathname === "/graphql") {
        res.writeHead(404).end();
        return;
      }
      file = path.join(dir, "index.html");
    }
    res.writeHead(200, { "content-type": TYPES[path.extname(file)] ?? "application/octet-stream" });
    createReadStream(file).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function measure(webDist: string, heading: string): Promise<Load> {
  const app = await serveStatic(webDist);
  const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: CHROMIUM_ARGS });
  try {
    const result: Load = { files: 0, raw: 0, gzip: 0, fcp: [] };
    for (let run = 0; run < FCP_RUNS; run++) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
      const page = await context.newPage();
      const scripts = new Map<string, Buffer>();
      page.on("response", async (res) => {
        if (new URL(res.url()).pathname.endsWith(".js")) scripts.set(res.url(), await res.body());
      });
      await page.goto(`${app.url}/login`, { waitUntil: "networkidle" });
      await page.getByRole("heading", { name: heading }).first().waitFor();
      const fcp = await page.evaluate(
        () => performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? Number.NaN,
      );
      result.fcp.push(fcp);
      if (run === 0) {
        for (const body of scripts.values()) {
          result.files++;
          result.raw += body.length;
          result.gzip += gzipSync(body).length;
        }
      }
      await context.close();
    }
    return result;
  } finally {
    await browser.close();
    await app.close();
  }
}

const kB = (n: number) => `${(n / 1024).toFixed(1)} kB`;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (n: number) => `${n.toFixed(0)} ms`;

async function main() {
  const work = await fs.mkdtemp(path.join(os.tmpdir(), "vidensbank-web-bench-"));
  // The baseline sources live under node_modules/.cache so they resolve the same installed packages.
  const baselineSrc = path.join(ROOT, "node_modules", ".cache", "vidensbank-web-bench-baseline");
  try {
    await fs.mkdir(baselineSrc, { recursive: true });
    await fs.writeFile(path.join(baselineSrc, "index.html"), BASELINE_HTML);
    await fs.writeFile(path.join(baselineSrc, "main.tsx"), BASELINE_MAIN);
    const appDist = path.join(work, "app");
    const baseDist = path.join(work, "baseline");
    await buildWith(path.join(ROOT, "web"), appDist);
    await buildWith(baselineSrc, baseDist);

    const appLoad = await measure(appDist, "Log ind");
    const baseLoad = await measure(baseDist, "Log ind");
    const ratio = appLoad.gzip / baseLoad.gzip;

    console.log("web bench — /login, vite production build, headless Chromium, empty cache");
    console.log(
      `  app       JS loaded: ${appLoad.files} files, ${kB(appLoad.raw)} raw, ${kB(appLoad.gzip)} gzip`,
    );
    console.log(
      `  baseline  JS loaded: ${baseLoad.files} files, ${kB(baseLoad.raw)} raw, ${kB(baseLoad.gzip)} gzip` +
        "  (React + react-router + MUI + Apollo Client, one small page)",
    );
    console.log(
      `  ratio app/baseline (gzip): ${ratio.toFixed(2)}×  (goal ≤ ${GOAL}×: ${ratio <= GOAL ? "met" : "NOT met"})`,
    );
    console.log(
      `  first contentful paint /login: median ${ms(median(appLoad.fcp))} (${appLoad.fcp.map(ms).join(", ")}); ` +
        `baseline median ${ms(median(baseLoad.fcp))}`,
    );
    await signedInScreens(appDist);
  } finally {
    await fs.rm(work, { recursive: true, force: true });
    await fs.rm(baselineSrc, { recursive: true, force: true });
  }
}

/** JS fetched (files, raw, gzip) while `path` loads in a fresh signed-in context until `ready` is visible. */
async function jsFor(
  browser: Browser,
  url: string,
  token: string,
  path: string,
  ready: string,
): Promise<{ files: number; raw: number; gzip: number }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  await context.addInitScript((t: string) => localStorage.setItem("auth_token", t), token);
  const page = await context.newPage();
  const scripts = new Map<string, Buffer>();
  page.on("response", async (res) => {
    if (new URL(res.url()).pathname.endsWith(".js")) scripts.set(res.url(), await res.body());
  });
  await page.goto(`${url}${path}`, { waitUntil: "networkidle" });
  await page.locator(ready).first().waitFor();
  const out = { files: 0, raw: 0, gzip: 0 };
  for (const body of scripts.values()) {
    out.files++;
    out.raw += body.length;
    out.gzip += gzipSync(body).length;
  }
  await context.close();
  return out;
}

/** The chat and knowledge screens against the real server; see the header (4). */
async function signedInScreens(appDist: string): Promise<void> {
  process.env.LOG_LEVEL ??= "warn";
  const { startTestApp } = await import("../api/src/testing/app");
  const { createVerifiedUser, gql } = await import("../api/src/testing/client");
  const { ChatMessageModel, ChatSessionModel } = await import("../api/src/chat/chat.model");
  const app = await startTestApp({ mail: "outbox", webDist: appDist });
  const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: CHROMIUM_ARGS });
  try {
    const { token, user } = await createVerifiedUser(app);
    const create = async (title: string) =>
      (await gql(app, "mutation($t: String) { createSession(title: $t) { sessionId } }", { t: title }, token))
        .data.createSession.sessionId as string;
    const big = await create("Stor samtale");
    const article = (await app.services.knowledge.listArticles())[0];
    const start = Date.now() - BIG_SESSION * 60_000;
    const docs = Array.from({ length: BIG_SESSION }, (_, i) => {
      const assistant = i % 2 === 1;
      return {
        userId: user.id,
        sessionId: big,
        role: assistant ? "assistant" : "user",
        timestamp: new Date(start + i * 60_000),
        content: assistant
          ? `Svar nummer ${i}: klagefristen er **fire uger** fra modtagelsen [1].\n\n- første punkt\n- andet punkt`
          : `Spørgsmål nummer ${i}: hvad er klagefristen?`,
        ...(assistant
          ? {
              status: "complete",
              mode: "llm",
              usedNumbers: [1],
              knowledgeGap: false,
              citations: [
                {
                  number: 1,
                  articleId: article.id,
                  title: article.title,
                  headingPath: [article.title],
                  passage: "…",
                },
              ],
            }
          : {}),
      };
    });
    await ChatMessageModel.insertMany(docs);
    await ChatSessionModel.updateOne({ sessionId: big }, { $set: { lastUpdated: new Date(start) } });
    await create("Lille samtale"); // the newest: auto-selected on load
    const lastText = `Svar nummer ${BIG_SESSION - 1}:`;

    const chatJs = await jsFor(browser, app.url, token, "/", "[data-testid=chat-input]");
    const knowledgeJs = await jsFor(browser, app.url, token, "/knowledge", "main h1");

    // fetch alone (GraphQL over HTTP, JSON parsed), for comparison with the render
    const fetchMs: number[] = [];
    for (let i = 0; i < RENDER_RUNS; i++) {
      const t0 = performance.now();
      await gql(
        app,
        `query($s: ID!) { messages(sessionId: $s) { id content citations { number } } }`,
        { s: big },
        token,
      );
      fetchMs.push(performance.now() - t0);
    }

    const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    await context.addInitScript((t: string) => localStorage.setItem("auth_token", t), token);
    // tsx keeps function names with a __name helper that the page does not have
    await context.addInitScript("window.__name = (f) => f;");
    const page = await context.newPage();
    browser.on("disconnected", () => console.error("  (the browser disconnected)"));
    page.on("close", () => console.error("  (the chat page closed)"));
    page.on("crash", () => console.error("  (the chat page crashed)"));
    page.on("pageerror", (e) => console.error(`  page error: ${e.message}`));
    await page.goto(`${app.url}/`);
    await page.getByText("Hvad vil du vide?").waitFor();
    const openMs: Array<{ total: number; render: number }> = [];
    let rows = 0;
    for (let i = 0; i < RENDER_RUNS; i++) {
      openMs.push(
        await page.evaluate(async (text) => {
          const items = [...document.querySelectorAll<HTMLElement>("[data-testid=session-item]")];
          const item = items.find((el) => el.innerText.includes("Stor samtale"));
          const t0 = performance.now();
          item?.click();
          const found = await new Promise<boolean>((resolve) => {
            const check = () => {
              const list = document.querySelector("[data-testid=message-list]") as HTMLElement | null;
              if (list?.innerText.includes(text)) resolve(true);
              else if (performance.now() - t0 > 20_000) resolve(false);
              else requestAnimationFrame(check);
            };
            check();
          });
          if (!found) return { total: Number.NaN, render: Number.NaN };
          await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
          const end = performance.now();
          const loaded = performance.getEntriesByName("chat:messages-loaded").at(-1)?.startTime ?? t0;
          return { total: end - t0, render: end - loaded };
        }, lastText),
      );
      rows = await page.locator("[data-testid=message-list] [data-index]").count();
      if (Number.isNaN(openMs.at(-1)?.total)) {
        await page.screenshot({ path: path.join(os.tmpdir(), "web-bench-chat.png") });
        throw new Error(
          `the newest message did not show (rows in DOM: ${rows}); see /tmp/web-bench-chat.png`,
        );
      }
      if (i < RENDER_RUNS - 1) {
        await page.getByTestId("session-item").filter({ hasText: "Lille samtale" }).click();
        await page.getByText("Hvad vil du vide?").waitFor();
      }
    }

    // the session opens at its newest page; scrolling near the top loads the page before (web chat paging), so
    // the scroll goes on until the first question is shown; waiting at the top for a page is not a jump
    const scroll = await page.evaluate(async (firstText) => {
      const list = document.querySelector("[data-testid=message-list]") as HTMLElement;
      const frame = () => new Promise((r) => requestAnimationFrame(() => r(null)));
      const steps: number[] = [];
      const t0 = performance.now();
      const jump = list.clientHeight;
      while (!list.innerText.includes(firstText) && performance.now() - t0 < 120_000) {
        if (list.scrollTop === 0) {
          await frame();
          continue;
        }
        const s0 = performance.now();
        list.scrollTop = Math.max(0, list.scrollTop - jump);
        await frame();
        await frame();
        steps.push(performance.now() - s0);
      }
      return { total: performance.now() - t0, steps };
    }, "Spørgsmål nummer 0:");
    await page.getByText("Spørgsmål nummer 0:").waitFor();
    await context.close();

    const totalMs = openMs.map((o) => o.total);
    const renderMs = openMs.map((o) => o.render);
    console.log("web bench — signed-in screens (real server, same build, headless Chromium, empty cache)");
    console.log(
      `  /           JS loaded: ${chatJs.files} files, ${kB(chatJs.raw)} raw, ${kB(chatJs.gzip)} gzip`,
    );
    console.log(
      `  /knowledge  JS loaded: ${knowledgeJs.files} files, ${kB(knowledgeJs.raw)} raw, ${kB(knowledgeJs.gzip)} gzip`,
    );
    console.log(
      `  chat, session of ${BIG_SESSION} messages — first render (messages received → newest message painted): ` +
        `median ${ms(median(renderMs))} (${renderMs.map(ms).join(", ")}; goal ≤ ${RENDER_GOAL_MS} ms: ` +
        `${median(renderMs) <= RENDER_GOAL_MS ? "met" : "NOT met"}); click → painted incl. the request: median ` +
        `${ms(median(totalMs))}; the messages query alone from Node: median ${ms(median(fetchMs))}; ` +
        `message rows in the DOM: ${rows}`,
    );
    const sorted = [...scroll.steps].sort((a, b) => a - b);
    console.log(
      `  chat, scroll newest → oldest in ${scroll.steps.length} jumps: ${ms(scroll.total)}; per jump (two frames) median ` +
        `${ms(median(scroll.steps))}, p95 ${ms(sorted[Math.floor(sorted.length * 0.95)] ?? 0)}, max ${ms(sorted.at(-1) ?? 0)}`,
    );
  } finally {
    await browser.close();
    await app.services.chat.whenIdle();
    await app.close();
  }
}

// WEB_BENCH_DIST=<a built web app>: only the signed-in screens, against that build (quick re-runs)
if (process.env.WEB_BENCH_DIST) await signedInScreens(process.env.WEB_BENCH_DIST);
else await main();

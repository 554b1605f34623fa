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
 */
import { createReadStream } from "node:fs";
import fs from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { chromium } from "playwright-core";
import { build, type UserConfig } from "vite";
import { CHROMIUM_ARGS } from "../web/e2e/support/browser";
import webConfig from "../web/vite.config";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const FCP_RUNS = 5;
const GOAL = 1.25;

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
  } finally {
    await fs.rm(work, { recursive: true, force: true });
    await fs.rm(baselineSrc, { recursive: true, force: true });
  }
}

await main();

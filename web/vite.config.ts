import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

// The API (npm run dev -w api) listens on 3000; the dev server proxies GraphQL (with websockets) and REST to it.
// changeOrigin rewrites Host only: websockets reach the API with the page's Origin (http://localhost:5173), and the
// web app signs them in with connectionParams, which works from any origin. Do not set rewriteWsOrigin: the API
// accepts the auth_token cookie on a websocket only from APP_URL's origin or ALLOWED_ORIGINS.
const api = process.env.VITE_API_URL ?? "http://localhost:3000";

export default defineConfig({
  root: import.meta.dirname,
  plugins: [react()],
  server: {
    proxy: {
      "/graphql": { target: api, ws: true, changeOrigin: true },
      "/api": { target: api, changeOrigin: true },
    },
  },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    sourcemap: false,
    // The entry holds React + MUI + Apollo (~505 kB raw, ~156 kB gzip); `npm run bench:web` tracks the real budget.
    chunkSizeWarningLimit: 600,
  },
});

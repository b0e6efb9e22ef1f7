import { defineConfig } from "vite";

// The lobby service serves dist/ itself (index.html at "/", hashed files under /assets/).
export default defineConfig({
  base: "/",
  build: { outDir: "dist", emptyOutDir: true, sourcemap: false },
});

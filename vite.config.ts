import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";

export default defineConfig({
  // The server build's entry is our own Express app (server/app.ts), so start-up work
  // (migrations, the admin setup code) is bundled with the routes it serves.
  environments: {
    ssr: {
      build: { rolldownOptions: { input: "./server/app.ts" } },
      // Bundled, so that only the icons the pages use are in the server: as a package, Node loads lucide-react's
      // CommonJS file of every icon (1.3 MB of source, kept twice, and an object per icon made at the start).
      resolve: { noExternal: ["lucide-react"] },
    },
    client: {
      build: {
        rolldownOptions: {
          output: {
            codeSplitting: {
              groups: [
                // React and the router in one file every page shares and browsers keep across releases of
                // the site's own code, instead of five; what is left is the site's own code per page. With them
                // Vite's helper for dynamic imports (it preloads a lazy module's imports): bundler code that
                // changes with Vite, not with the site, needed by any page that loads code on demand (the
                // lightbox's zoom, a post's copy buttons, the auth page's toasts).
                {
                  name: "framework",
                  test: /node_modules[\\/](react|react-dom|scheduler|react-router|turbo-stream|cookie|set-cookie-parser)[\\/]|^\0vite\/preload-helper\.js$/,
                },
                // What the root layout needs on every page (header, footer, shared helpers), in one file rather
                // than a dozen of a few hundred bytes each, each a request of its own. Not the form-validation
                // helpers: they bring zod, which only admin screens load; nor the helpers only the admin and account
                // screens use (their data hooks, action results, upload limits, date formatters, an uploaded file
                // name's words), which no visitor's page needs.
                {
                  name: "site",
                  test: /app[\\/](root\.tsx|i18n[\\/]i18n\.ts|lib[\\/](?![\w-]+\.server\.)(?!text-schema\.|field-errors\.|account-data\.|admin-data\.|action-result\.|upload-limit\.|intl-format\.|file-name-words\.)[\w-]+\.ts|components[\\/](site-header|site-footer|page-header|status-page|preference-toggles|search-field)\.tsx)/,
                },
                // The two picture parts that the gallery, the home page and a post share: one file, not two of a few
                // hundred bytes each (each its own request, each compressed alone). Not the gallery's rows: a post
                // does not show them.
                {
                  name: "pictures",
                  test: /app[\\/]components[\\/](responsive-image|gallery[\\/]watermark-badge)\.tsx$/,
                },
                // The gallery's rows, which the home page shows too: their own file, before the gallery's group takes
                // them as one of its imports.
                {
                  name: "picture-rows",
                  test: /app[\\/]components[\\/]gallery[\\/]picture-rows\.tsx$/,
                },
                // The gallery's page with its lightbox, which an album's page and a shared album also use: one file,
                // as before albums shared it. Split in two for the sharing, each compressed alone, the visitors' first
                // page carried half a KiB more. (The rows stay a file of their own: the home page shows them too.)
                {
                  name: "gallery",
                  test: /app[\\/](routes[\\/]gallery\.tsx|components[\\/]gallery[\\/]lightbox\.tsx)$/,
                },
                // The live updates (issue 19), loaded once a page is idle: one file, so that the import that loads
                // it (root.tsx) names one file in the first load. After "site": a group takes the modules its own
                // import, so listed first it took the helpers it shares with every page (the root data, the
                // translations), site.js imported them from here, and every first load carried this file.
                {
                  name: "live",
                  test: /app[\\/](web[\\/]live[\\/][\w-]+\.tsx?|components[\\/]live-public\.tsx)/,
                },
              ],
            },
          },
        },
      },
    },
  },
  plugins: [tailwindcss(), reactRouter()],
});

import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";

export default defineConfig({
  // The server build's entry is our own Express app (server/app.ts), so start-up work
  // (migrations, the admin setup code) is bundled with the routes it serves.
  environments: {
    ssr: { build: { rolldownOptions: { input: "./server/app.ts" } } },
    client: {
      build: {
        rolldownOptions: {
          output: {
            codeSplitting: {
              groups: [
                // React and the router in one file every page shares and browsers keep across releases of
                // the site's own code, instead of five; what is left is the site's own code per page.
                {
                  name: "framework",
                  test: /node_modules[\\/](react|react-dom|scheduler|react-router|turbo-stream|cookie|set-cookie-parser)[\\/]/,
                },
                // What the root layout needs on every page (header, footer, shared helpers), in one file rather
                // than a dozen of a few hundred bytes each, each a request of its own. Not the form-validation
                // helpers: they bring zod, which only admin screens load.
                {
                  name: "site",
                  test: /app[\\/](root\.tsx|i18n[\\/]i18n\.ts|lib[\\/](?![\w-]+\.server\.)(?!text-schema\.|field-errors\.)[\w-]+\.ts|components[\\/](site-header|site-footer|page-header|status-page|preference-toggles)\.tsx)/,
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

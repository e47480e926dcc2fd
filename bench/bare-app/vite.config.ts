import { reactRouter } from "@react-router/dev/vite";
import { defineConfig } from "vite";

// Nothing but the React Router plugin: the bare app measures what the framework costs on its own.
export default defineConfig({
  plugins: [reactRouter()],
});

import type { Config } from "@react-router/dev/config";

// The bench's yardstick: the framework's own defaults (entry files included), server rendering on.
export default {
  ssr: true,
  appDirectory: "app",
  buildDirectory: "build",
} satisfies Config;

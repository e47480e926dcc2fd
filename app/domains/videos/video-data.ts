import type { ImageDisplay } from "#app/domains/media/image-display.ts";

/** A video as the pages show it (the player and its poster, see app/components/video-player.tsx). */
export type VideoPlayerData =
  | {
      kind: "embed";
      host: "youtube" | "vimeo";
      /** The privacy-enhanced player, loaded on play. */
      src: string;
      /** The video's page on the host, for visitors without JavaScript. */
      pageUrl: string;
    }
  | { kind: "file"; src: string; type: string };

export type VideoData = {
  id: string;
  title: string;
  description: string;
  /** An image served by this site, or null for the neutral placeholder: never the video host's thumbnail. */
  poster: ImageDisplay | null;
  player: VideoPlayerData;
};

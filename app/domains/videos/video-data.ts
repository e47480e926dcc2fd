import type { ContentVisibility } from "#app/domains/access/reader.ts";
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
  /** Whom it is for, for a member's badge (a reader gets only what they may see). */
  visibility: ContentVisibility;
  /** The names of its groups that are the reader's own (an admin's: all); empty for everyone's and members'. */
  groups: string[];
};

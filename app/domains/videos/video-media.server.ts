import type { VideoMedia } from "./videos.server.ts";

/** Posters and files of videos as this site serves them. */
export const videoMedia: VideoMedia = {
  posterUrl: async () => null,
  fileUrl: (row) => `/media/${row.file_key}`,
};

import { Play, Video } from "lucide-react";
import { useState } from "react";
import { type ImageDisplay, imageSources } from "#app/domains/media/image-display.ts";
import type { VideoData, VideoPlayerData } from "#app/domains/videos/video-data.ts";
import { useTranslate } from "#app/web/root-data.ts";
import { ResponsiveImage } from "./responsive-image.tsx";

// A video's data is the videos domain's (videos.server.ts makes it); named here too for the pages that show it.
export type { VideoData, VideoPlayerData };

const HOST_NAMES = { youtube: "YouTube", vimeo: "Vimeo" } as const;

/**
 * `first`: the first video of the page, likely its largest picture on screen, so it is fetched at once and first.
 * Without an image the plain box shows the video's title, so that videos without a poster still differ.
 */
function Poster({ image, title, first = false }: { image: ImageDisplay | null; title: string; first?: boolean }) {
  // The site's own poster image, or a neutral placeholder: never the video host's thumbnail.
  if (image) {
    return (
      <ResponsiveImage
        image={image}
        alt=""
        sizes="(min-width: 1024px) 50vw, 100vw"
        loading={first ? "eager" : "lazy"}
        fetchPriority={first ? "high" : undefined}
        className="absolute inset-0 size-full object-cover"
      />
    );
  }
  return (
    // The title repeats the heading below and the play button's name: hidden from screen readers.
    <div
      aria-hidden="true"
      className="absolute inset-0 bg-gradient-to-br from-zinc-300 via-zinc-200 to-zinc-400 dark:from-zinc-700 dark:via-zinc-800 dark:to-zinc-950"
    >
      <p className="absolute inset-x-4 top-4 line-clamp-2 text-lg font-semibold text-zinc-900 sm:text-2xl dark:text-zinc-50">
        {title}
      </p>
      <Video className="absolute bottom-3 left-3 size-6 text-zinc-700 dark:text-zinc-300" />
    </div>
  );
}

/**
 * A YouTube or Vimeo video that contacts the host only once the visitor presses play: until then it is the
 * poster, a play button and a note saying what pressing it loads.
 */
function EmbedPlayer({
  video,
  player,
  first,
}: {
  video: VideoData;
  player: Extract<VideoPlayerData, { kind: "embed" }>;
  first: boolean;
}) {
  const t = useTranslate();
  const [playing, setPlaying] = useState(false);
  const host = HOST_NAMES[player.host];
  const noteId = `video-note-${video.id}`;
  if (playing) {
    return (
      <iframe
        src={player.src}
        title={t("videos.playerTitle", { title: video.title, host })}
        className="aspect-video w-full rounded-xl bg-black"
        allow="autoplay; encrypted-media; fullscreen; picture-in-picture"
        allowFullScreen
        referrerPolicy="strict-origin-when-cross-origin"
      />
    );
  }
  return (
    <div>
      <div className="relative aspect-video w-full overflow-hidden rounded-xl">
        <Poster image={video.poster} title={video.title} first={first} />
        <button
          type="button"
          onClick={() => setPlaying(true)}
          aria-describedby={noteId}
          className="group absolute inset-0 flex items-center justify-center focus-visible:outline-4 focus-visible:-outline-offset-4 focus-visible:outline-indigo-500"
        >
          <span className="flex size-16 items-center justify-center rounded-full bg-black/75 text-white shadow-lg group-hover:bg-indigo-700">
            <Play aria-hidden="true" className="ml-1 size-8" fill="currentColor" />
          </span>
          <span className="sr-only">{t("videos.play", { title: video.title })}</span>
        </button>
      </div>
      <p id={noteId} className="mt-2 text-sm text-zinc-600 dark:text-zinc-300">
        {t("videos.loadsFrom", { host })}
      </p>
      <noscript>
        <p className="mt-1 text-sm">
          <a
            href={player.pageUrl}
            rel="noopener noreferrer"
            className="text-indigo-700 underline underline-offset-4 dark:text-indigo-300"
          >
            {t("videos.watchOn", { host })}
          </a>
        </p>
      </noscript>
    </div>
  );
}

export function VideoPlayer({ video, first = false }: { video: VideoData; first?: boolean }) {
  const t = useTranslate();
  const { player } = video;
  if (player.kind === "embed") return <EmbedPlayer video={video} player={player} first={first} />;
  return (
    // biome-ignore lint/a11y/useMediaCaption: uploaded videos come without caption files
    <video
      controls
      preload="metadata"
      poster={(video.poster ? imageSources(video.poster).fallback.src : "") || undefined}
      className="aspect-video w-full rounded-xl bg-black"
      aria-label={video.title}
    >
      <source src={player.src} type={player.type} />
      {t("videos.noPlayback")}
    </video>
  );
}

/** A video with its title and description. */
export function VideoCard({
  video,
  headingLevel = 2,
  first = false,
}: {
  video: VideoData;
  headingLevel?: 2 | 3;
  first?: boolean;
}) {
  const t = useTranslate();
  const Heading = headingLevel === 2 ? "h2" : "h3";
  // Whom a restricted video is for, as a post's badge says it (PostMeta): only a reader who may see it gets it.
  const audience =
    video.visibility === "members"
      ? t("access.members")
      : video.visibility === "groups" && video.groups.length > 0
        ? t("access.groups", { groups: video.groups.join(", ") })
        : null;
  return (
    // The search's results link here (/videos#video-<id>).
    <article id={`video-${video.id}`} className="scroll-mt-24 space-y-3">
      <VideoPlayer video={video} first={first} />
      <Heading className="text-xl font-semibold">{video.title}</Heading>
      {audience ? <p className="access-badge">{audience}</p> : null}
      {video.description ? (
        <p className="whitespace-pre-line text-zinc-700 dark:text-zinc-300">{video.description}</p>
      ) : null}
    </article>
  );
}

import { describe, expect, it } from "vitest";
import { listAudit } from "#app/domains/audit/audit.server.ts";
import { idOfAccepted, testAdmin } from "#tests/support/service-actor.ts";
import { databaseKinds, useTestDatabase } from "#tests/support/test-database.ts";
import { latestVideo, listPublishedVideos, videosService } from "./videos.server.ts";

const valid = {
  title: "Alps",
  title_de: "Alpen",
  description: "A walk",
  description_de: "",
  embed_url: "https://youtu.be/dQw4w9WgXcQ?si=tracking",
  active: "on",
};

describe.each(databaseKinds)("videos (%s)", (kind) => {
  const database = useTestDatabase(kind, "each");

  it("stores the canonical address and gives visitors the privacy-enhanced player, in their language", async () => {
    await videosService.create(database.db, testAdmin, valid);
    await videosService.create(database.db, testAdmin, {
      ...valid,
      title: "Lake",
      title_de: "",
      embed_url: "https://vimeo.com/76979871",
    });

    const rows = await videosService.listAll(database.db);
    expect(rows.map((row) => row.embed_url)).toEqual([
      "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
      "https://vimeo.com/76979871",
    ]);
    const german = await listPublishedVideos(database.db, "de");
    expect(german).toEqual([
      {
        id: rows[0]?.id,
        title: "Alpen",
        description: "A walk",
        poster: null,
        player: {
          kind: "embed",
          host: "youtube",
          src: "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?autoplay=1",
          pageUrl: "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
        },
        visibility: "everyone",
        groups: [],
      },
      {
        id: rows[1]?.id,
        title: "Lake",
        description: "A walk",
        poster: null,
        player: {
          kind: "embed",
          host: "vimeo",
          src: "https://player.vimeo.com/video/76979871?dnt=1&autoplay=1",
          pageUrl: "https://vimeo.com/76979871",
        },
        visibility: "everyone",
        groups: [],
      },
    ]);
    expect((await latestVideo(database.db, "en"))?.title).toBe("Lake");
  });

  it("refuses an unknown video host, a javascript: address and a missing address, changing nothing", async () => {
    for (const embed_url of ["https://dailymotion.com/video/x7tgad0", "javascript:alert(1)"]) {
      expect(await videosService.create(database.db, testAdmin, { ...valid, embed_url })).toEqual({
        ok: false,
        reason: "invalid",
        fieldErrors: { embed_url: "admin.videos.error.url" },
      });
    }
    expect(await videosService.create(database.db, testAdmin, { ...valid, embed_url: " ", title: "" })).toEqual({
      ok: false,
      reason: "invalid",
      fieldErrors: { title: "admin.content.error.required", embed_url: "admin.videos.error.urlRequired" },
    });
    expect(await videosService.listAll(database.db)).toEqual([]);
    expect((await listAudit(database.db)).total).toBe(0);
  });

  it("refuses an update that removes or breaks the address and keeps the stored video", async () => {
    const id = idOfAccepted(await videosService.create(database.db, testAdmin, valid));

    for (const embed_url of ["", "https://example.com/video.mp4"]) {
      expect(await videosService.update(database.db, testAdmin, id, { ...valid, embed_url })).toMatchObject({
        ok: false,
        reason: "invalid",
      });
    }
    expect((await videosService.listAll(database.db))[0]?.embed_url).toBe(
      "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
    );
    expect(await videosService.update(database.db, testAdmin, "no-such-id", valid)).toEqual({
      ok: false,
      reason: "not-found",
    });
  });
});

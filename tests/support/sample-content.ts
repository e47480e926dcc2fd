import type { Kysely } from "kysely";
import type { Database } from "#app/db/schema.ts";
import { faqService } from "#app/domains/faq/faq.server.ts";
import { linksService } from "#app/domains/links/links.server.ts";
import type { FileStorage } from "#app/domains/media/storage.server.ts";
import { videosService } from "#app/domains/videos/videos.server.ts";
import { createGalleryPicture, factoryActor } from "./gallery-factories.ts";

const PICTURES = [
  { title: "Morning fog", title_de: "Morgennebel", category: "Landscape", category_de: "Landschaft", hue: 200 },
  { title: "Harbour lights", title_de: "Hafenlichter", category: "City", category_de: "Stadt", hue: 30 },
  { title: "Alpine lake", title_de: "Bergsee", category: "Landscape", category_de: "Landschaft", hue: 170 },
  { title: "Old town", title_de: "Altstadt", category: "City", category_de: "Stadt", hue: 340 },
  { title: "Autumn forest", title_de: "Herbstwald", category: "Landscape", category_de: "Landschaft", hue: 60 },
  { title: "Night tram", title_de: "Nachttram", category: "City", category_de: "Stadt", hue: 260 },
];

const LINKS = [
  { title: "My code", title_de: "Mein Code", url: "https://github.com/", icon: "github" },
  { title: "Write to me", title_de: "Schreiben Sie mir", url: "https://example.com/contact", icon: "mail" },
  { title: "Blog feed", title_de: "Blog-Feed", url: "https://example.com/feed.xml", icon: "rss" },
];

const QUESTIONS = [
  {
    question: "Can I use your pictures?",
    question_de: "Darf ich Ihre Bilder verwenden?",
    answer: "Please **ask first**: write to me through the links page.",
    answer_de: "Bitte **fragen Sie vorher**: Schreiben Sie mir über die Linkseite.",
  },
  {
    question: "Which camera do you use?",
    question_de: "Welche Kamera verwenden Sie?",
    answer: "Mostly an old mirrorless camera and a 35 mm lens.",
    answer_de: "Meist eine ältere spiegellose Kamera mit 35-mm-Objektiv.",
  },
];

async function created(result: Promise<{ ok: boolean }>, what: string) {
  const answer = await result;
  if (!answer.ok) throw new Error(`The sample ${what} was refused: ${JSON.stringify(answer)}`);
}

/**
 * Sample pictures, links, questions and a video, through the same services the admin screens use
 * (`npm run seed` on an empty site). Returns what it added.
 */
export async function addSampleContent(db: Kysely<Database>, storage: FileStorage) {
  for (const picture of PICTURES) {
    await createGalleryPicture(db, storage, {
      ...picture,
      description: `${picture.title}, a sample picture.`,
      description_de: `${picture.title_de}, ein Beispielbild.`,
    });
  }
  for (const link of LINKS) await created(linksService.create(db, factoryActor, { ...link, active: "true" }), "link");
  for (const entry of QUESTIONS)
    await created(faqService.create(db, factoryActor, { ...entry, active: "true" }), "FAQ");
  await created(
    videosService.create(db, factoryActor, {
      title: "A sample video",
      title_de: "Ein Beispielvideo",
      description: "Loads from YouTube only after you press play.",
      description_de: "Lädt erst von YouTube, wenn Sie auf Abspielen drücken.",
      embed_url: "https://www.youtube.com/watch?v=aqz-KE-bpKQ",
      active: "true",
    }),
    "video",
  );
  return { pictures: PICTURES.length, links: LINKS.length, questions: QUESTIONS.length, videos: 1 };
}

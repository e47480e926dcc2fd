import { useLoaderData } from "react-router";
import { firstPictures } from "../pictures.server";

export function loader() {
  return { pictures: firstPictures() };
}

export default function Gallery() {
  const { pictures } = useLoaderData<typeof loader>();
  const sizes = "(min-width: 1024px) 33vw, (min-width: 640px) 50vw, 100vw";
  return (
    <main>
      <h1>Gallery</h1>
      <ul>
        {pictures.map((picture) => (
          <li key={picture.id}>
            <picture>
              <source type="image/avif" srcSet={picture.srcsets.avif} sizes={sizes} />
              <source type="image/webp" srcSet={picture.srcsets.webp} sizes={sizes} />
              <img
                src={picture.src}
                srcSet={picture.srcsets.jpeg}
                sizes={sizes}
                width={picture.width}
                height={picture.height}
                alt={picture.title}
                loading="lazy"
                decoding="async"
                style={{ backgroundImage: `url("${picture.placeholder}")` }}
              />
            </picture>
          </li>
        ))}
      </ul>
    </main>
  );
}

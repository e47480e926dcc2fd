import sharp from "sharp";

/**
 * Bytes that start like an MP4 file (an ISO-BMFF `ftyp` box with the isom brand), which is all the upload
 * check looks at, followed by `payload` filler bytes. Not playable: browser tests record a real WebM.
 */
export function mp4Like(payload: number): Buffer {
  return Buffer.concat([
    Buffer.from([0, 0, 0, 0x18]),
    Buffer.from("ftypisom", "latin1"),
    Buffer.from([0, 0, 2, 0]),
    Buffer.from("isomiso2", "latin1"),
    Buffer.alloc(payload, 7),
  ]);
}

/** A plain PNG picture of the given size. */
export function pngPicture(width = 640, height = 360): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: "#336699" } })
    .png()
    .toBuffer();
}

/**
 * A camera-like JPEG that barely compresses (noise), so its size follows its pixels: 2100×1400 is over 3 MB, like
 * the photos phones and cameras make.
 */
export async function noisyPhoto(width: number, height: number): Promise<Buffer> {
  const noise = Buffer.alloc(width * height * 3);
  for (let i = 0; i < noise.length; i++) noise[i] = (i * 2654435761) >>> 24;
  return sharp(noise, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 100 })
    .toBuffer();
}

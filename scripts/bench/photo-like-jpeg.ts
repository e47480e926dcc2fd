import sharp from "sharp";

/**
 * A photo-like JPEG: noise over gradients, so the encoders work as hard as on a real photo. At 4240 × 2832
 * (12 MP) it is the very image scripts/measure-image-pipeline.ts has always timed.
 */
export async function photoLikeJpeg(width: number, height: number): Promise<Buffer> {
  const noise = await sharp({
    create: { width, height, channels: 3, background: "#808080", noise: { type: "gaussian", mean: 128, sigma: 40 } },
  })
    .png()
    .toBuffer();
  const gradient = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#1d4e89"/><stop offset="1" stop-color="#f2a541"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/><circle cx="${Math.round((width * 1400) / 4240)}" cy="${Math.round((height * 1000) / 2832)}" r="${Math.round((height * 700) / 2832)}" fill="#c0392b"/></svg>`,
  );
  return sharp(gradient)
    .composite([{ input: noise, blend: "soft-light" }])
    .jpeg({ quality: 90 })
    .toBuffer();
}

/** The load bench's uploads: a phone-like photo and the multipart body that carries it. */
import sharp from "sharp";

/** A phone-like photo: 1600×1200 JPEG with detail, so re-encoding costs what it would. */
export async function samplePhoto() {
  const width = 1600;
  const height = 1200;
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      pixels[i] = (x * 7 + y * 3) & 255;
      pixels[i + 1] = (Math.sin(x / 23) * 60 + y / 6) & 255;
      pixels[i + 2] = (x ^ y) & 255;
    }
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 85 })
    .toBuffer();
}

export function multipart(boundary: string, fields: Record<string, string>, photo: Buffer) {
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
      ),
    );
  }
  parts.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="photos"; filename="porch.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
    ),
    photo,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  return Buffer.concat(parts);
}

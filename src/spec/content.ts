/**
 * Message content parts (OpenAI chat-completions format), so that screenshots and other images
 * travel in the standard shape: a message's `content` is a string or a list of parts.
 *
 * - `{type: 'text', text}`
 * - `{type: 'image_url', image_url: {url, detail?}}` where `url` is a `data:image/png;base64,…`
 *   or `data:image/jpeg;base64,…` URL (servicegym never sends remote image URLs).
 */
import { z } from 'zod';

export const TextPartSchema = z.looseObject({ type: z.literal('text'), text: z.string() });
export const ImagePartSchema = z.looseObject({
  type: z.literal('image_url'),
  image_url: z.looseObject({ url: z.string(), detail: z.enum(['auto', 'low', 'high']).optional() }),
});
export const ContentPartSchema = z.discriminatedUnion('type', [TextPartSchema, ImagePartSchema]);
/** A message's content: plain text, or a list of parts. */
export const ContentSchema = z.union([z.string(), z.array(ContentPartSchema)]);

export type TextPart = z.infer<typeof TextPartSchema>;
export type ImagePart = z.infer<typeof ImagePartSchema>;
export type ContentPart = z.infer<typeof ContentPartSchema>;
export type Content = z.infer<typeof ContentSchema>;

/**
 * The text of a content value: the string itself, or the text parts joined with `\n` (image parts
 * contribute nothing). `null`/`undefined` give `''`. Evaluators that read what was *said* use this.
 */
export function contentText(content: Content | null | undefined): string {
  if (content == null) return '';
  if (typeof content === 'string') return content;
  return content.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('\n');
}

/** The image parts of a content value (none for a string). */
export function contentImages(content: Content | null | undefined): ImagePart[] {
  if (content == null || typeof content === 'string') return [];
  return content.filter((p): p is ImagePart => p.type === 'image_url');
}

/** An image part from raw bytes: `mime` is `image/png` or `image/jpeg`. */
export function imagePart(bytes: Uint8Array, mime: 'image/png' | 'image/jpeg', detail?: ImagePart['image_url']['detail']): ImagePart {
  const url = `data:${mime};base64,${Buffer.from(bytes).toString('base64')}`;
  return { type: 'image_url', image_url: detail ? { url, detail } : { url } };
}

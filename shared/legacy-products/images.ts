/**
 * The images a legacy product shows — never an empty list and never a blank entry:
 * its gallery_images, else its main image, else the account's placeholder, else a built-in one.
 */

const svg =
  '<svg xmlns="http://www.w3.org/2000/svg" width="400" height="300" viewBox="0 0 400 300">' +
  '<rect width="400" height="300" fill="#e5e7eb"/>' +
  '<text x="200" y="158" font-family="sans-serif" font-size="20" text-anchor="middle" fill="#6b7280">No image</text></svg>';

/** A self-contained image (data URI): it cannot break, whatever hosting the shop has. */
export const BUILT_IN_PLACEHOLDER = `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;

const present = (url: string | null | undefined): url is string => typeof url === 'string' && url.trim() !== '';

export function needsPlaceholder(product: { image: string | null; gallery_images: string[] }): boolean {
  return !product.gallery_images.some(present) && !present(product.image);
}

export function resolveImages(
  product: { image: string | null; gallery_images: string[] },
  accountPlaceholder: string | undefined,
): string[] {
  const gallery = product.gallery_images.filter(present);
  if (gallery.length) return gallery;
  if (present(product.image)) return [product.image];
  return [present(accountPlaceholder) ? accountPlaceholder : BUILT_IN_PLACEHOLDER];
}

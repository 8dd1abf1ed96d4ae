/**
 * Declared content types: what a client may say a file is, and the type it means. A declaration
 * is checked against the bytes (detect.ts); `application/octet-stream` (or nothing) says "look".
 */
import { ALLOWED_TYPES, type FileType } from './detect';

const ALIASES: Record<string, FileType> = {
  'image/jpg': 'image/jpeg',
  'image/pjpeg': 'image/jpeg',
  'image/tif': 'image/tiff',
  'image/x-tiff': 'image/tiff',
  'application/eps': 'application/postscript',
  'application/x-eps': 'application/postscript',
  'image/eps': 'application/postscript',
  'image/x-eps': 'application/postscript',
  'application/x-zip-compressed': 'application/zip',
  'application/x-pdf': 'application/pdf',
};

/** The type a declaration names: a known type, `undefined` for "look at the bytes", or `null` for a type not taken. */
export function declaredType(declared: string | undefined): FileType | undefined | null {
  const type = (declared ?? '').split(';')[0]!.trim().toLowerCase();
  if (type === '' || type === 'application/octet-stream') return undefined;
  if ((ALLOWED_TYPES as readonly string[]).includes(type)) return type as FileType;
  return ALIASES[type] ?? null;
}

export const allowedTypesText = ALLOWED_TYPES.join(', ');

import * as z from 'zod';
import { storableText } from './common';

/** True for an absolute http(s) URL with a host (what an <img src> can load). */
export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** An image URL in a request. */
export const imageUrl = /* @__PURE__ */ (() =>
  z
    .string()
    .trim()
    .max(2000, 'must be at most 2000 characters')
    .superRefine(storableText())
    .refine(isHttpUrl, 'must be an absolute http(s) URL')
    .meta({ format: 'uri', example: 'https://cdn.example.com/flyer.jpg' }))();

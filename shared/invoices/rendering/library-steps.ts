/**
 * Where this project repairs a step of @e-invoice-eu/core (cii-seller-identifier.ts,
 * pdfa-metadata.ts): the class that defines a step is not exported, so it is found from a
 * formatter the library's own factory makes, by walking up to the prototype that owns the method.
 * Each repair is installed once per process, before the first document is rendered.
 */
import { FormatFactoryService } from '@e-invoice-eu/core';

const silent = { log() {}, warn() {}, error() {} };
const replaced = new Set<string>();

/**
 * Replaces the method `step` of the class that defines it for `format`'s formatter with what
 * `replace` makes of the original; throws when the library no longer has that step (a version
 * change the tests then catch, instead of documents silently missing the repair).
 */
export function replaceLibraryStep<Step extends object, Name extends keyof Step & string>(
  format: string,
  step: Name,
  replace: (original: Step[Name]) => Step[Name],
): void {
  if (replaced.has(`${format} ${step}`)) return;
  let owner: object | null = Object.getPrototypeOf(new FormatFactoryService().createFormatService(format, silent)) as object | null;
  while (owner && !Object.hasOwn(owner, step)) owner = Object.getPrototypeOf(owner) as object | null;
  if (!owner) throw new Error(`${format}: the e-invoice library has no ${step} step to repair`);
  const target = owner as Step;
  target[step] = replace(target[step]);
  replaced.add(`${format} ${step}`);
}

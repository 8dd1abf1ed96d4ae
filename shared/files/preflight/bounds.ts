/**
 * What preflight may spend on one file (docs/files.md#bounds): a PDF is read by pdf-lib, whose
 * parser would follow whatever a file says — 20,000 pages, a compressed stream that inflates a
 * thousandfold, arrays nested without end, a page tree that loops or shares its nodes. Every one of
 * those is bounded here, and a file that crosses a bound is not read further: its preflight says
 * which bound (`failed` when the file is built to be unreadable, `skipped` when it is only larger
 * than preflight reads), never an unbounded time, memory or message.
 *
 * The guard is cooperative: the bounded parser (pdf-parser.ts) calls it from every primitive
 * pdf-lib's loops go through (objects, keywords, numbers, whitespace), so a loop of any shape
 * reaches a check within a few bytes of work; once a bound is crossed it throws at every call, so
 * no recovery loop of pdf-lib's can go on past it.
 */

const MB = 1024 * 1024;

export interface PreflightLimits {
  /** Pages read; beyond them the file is skipped (its page tree's own count is said). */
  pages: number;
  /** Objects and values parsed (every number, name, array, dictionary…): what pdf-lib holds in memory. */
  objects: number;
  /** Arrays and dictionaries nested in one another. */
  depth: number;
  /** Levels of the page tree. */
  pageTreeDepth: number;
  /** Bytes any one compressed object stream may inflate to (each filter's output). */
  streamBytes: number;
  /** Bytes all of a file's object streams may inflate to together. */
  inflatedBytes: number;
  /** Objects pdf-lib could not parse and skipped (each a warning in the log). */
  invalidObjects: number;
  /** Bytes of one name (pdf-lib keeps every distinct name for the life of the process). */
  nameBytes: number;
  /** Milliseconds of reading. */
  ms: number;
}

export const PREFLIGHT_LIMITS: Readonly<PreflightLimits> = {
  pages: 10_000,
  objects: 2_000_000,
  depth: 100,
  pageTreeDepth: 64,
  streamBytes: 32 * MB,
  inflatedBytes: 128 * MB,
  invalidObjects: 100,
  nameBytes: 255,
  ms: 30_000,
};

/** The longest message a check may carry (what it names is summarised to fit). */
export const MAX_CHECK_MESSAGE_LENGTH = 300;

export type LimitOutcome = 'failed' | 'skipped';

/**
 * The file crossed a bound: `failed` when it is built to be unreadable (a decompression bomb, a
 * cyclic or endlessly nested structure), `skipped` when it is larger than preflight reads.
 */
export class PdfLimitError extends Error {
  constructor(
    readonly limit: keyof PreflightLimits | 'pageTree',
    readonly outcome: LimitOutcome,
    message: string,
  ) {
    super(message);
    this.name = 'PdfLimitError';
  }
}

export const count = (value: number): string => value.toLocaleString('en-US');
export const megabytes = (bytes: number): string => `${count(Math.round(bytes / MB))} MB`;

/** Clock checks every this many calls: a call of the guard costs a counter, not a system call. */
const CLOCK_EVERY = 1024;

export class ParseGuard {
  private calls = 0;
  private objects = 0;
  private depth = 0;
  private invalid = 0;
  private inflated = 0;
  private readonly deadline: number;
  /** The first bound crossed: thrown again by every later call. */
  stopped: PdfLimitError | undefined;

  constructor(
    readonly limits: Readonly<PreflightLimits> = PREFLIGHT_LIMITS,
    private readonly clock: () => number = Date.now,
  ) {
    this.deadline = clock() + limits.ms;
  }

  /** Records the bound crossed (the first one stays) and throws it. */
  stop(error: PdfLimitError): never {
    this.stopped ??= error;
    throw this.stopped;
  }

  /** A step of work: throws once a bound was crossed or the time is up. */
  tick(): void {
    if (this.stopped) throw this.stopped;
    if (++this.calls % CLOCK_EVERY === 0 && this.clock() > this.deadline) {
      this.stop(new PdfLimitError('ms', 'skipped', `Not checked: reading the PDF took longer than ${count(this.limits.ms / 1000)} s`));
    }
  }

  /** An object or value begins (nested in `depth` others). */
  enter(): void {
    this.tick();
    if (++this.objects > this.limits.objects) {
      this.stop(
        new PdfLimitError(
          'objects',
          'skipped',
          `Not checked: the PDF has more than ${count(this.limits.objects)} objects and values, more than preflight reads`,
        ),
      );
    }
    if (++this.depth > this.limits.depth) {
      this.stop(new PdfLimitError('depth', 'failed', `The PDF nests arrays or dictionaries more than ${this.limits.depth} levels deep`));
    }
  }

  /** The object begun last ended; `failed`: it could not be parsed (pdf-lib skips it and warns). */
  leave(failed: boolean): void {
    this.depth--;
    if (failed && this.depth === 0 && !this.stopped && ++this.invalid > this.limits.invalidObjects) {
      this.stop(new PdfLimitError('invalidObjects', 'failed', `More than ${this.limits.invalidObjects} objects of the PDF cannot be read`));
    }
  }

  /** Bytes the next filter of a stream may produce: its own bound, or what is left of the file's. */
  allowance(): number {
    return Math.min(this.limits.streamBytes, this.limits.inflatedBytes - this.inflated);
  }

  /** A filter produced more than its allowance: which bound that was. */
  overInflated(): never {
    const own = this.limits.streamBytes <= this.limits.inflatedBytes - this.inflated;
    return this.stop(
      new PdfLimitError(
        own ? 'streamBytes' : 'inflatedBytes',
        'failed',
        own
          ? `A compressed object stream of the PDF inflates to more than ${megabytes(this.limits.streamBytes)}: it is not read`
          : `The PDF's compressed object streams inflate to more than ${megabytes(this.limits.inflatedBytes)} in all: they are not read`,
      ),
    );
  }

  /** A filter produced `bytes` (within its allowance). */
  spend(bytes: number): void {
    this.inflated += bytes;
  }

  /** A name of `bytes` bytes begins. */
  name(bytes: number): void {
    this.tick();
    if (bytes > this.limits.nameBytes)
      this.stop(new PdfLimitError('nameBytes', 'failed', `The PDF has a name longer than ${this.limits.nameBytes} bytes`));
  }
}

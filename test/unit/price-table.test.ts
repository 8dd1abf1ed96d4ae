import { describe, expect, it } from 'vitest';
import { DomainError } from '#shared/errors';
import { parseCsv } from '#shared/legacy-products/csv';
import { BUILT_IN_PLACEHOLDER, resolveImages } from '#shared/legacy-products/images';
import { cellProblems, missingCellProblem } from '#shared/legacy-products/lookup';
import { rowsFromCsv, tableShape } from '#shared/legacy-products/price-table';

function rejection(run: () => unknown): DomainError {
  try {
    run();
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error('expected a rejection');
}

describe('CSV reading', () => {
  it('reads quoted fields with commas, quotes and line breaks, LF and CRLF, and skips blank lines', () => {
    const parsed = parseCsv('a,b\r\n"x, y","say ""hi"""\n\n"multi\nline",z\n');
    expect(parsed).toEqual({
      ok: true,
      records: [
        { line: 1, fields: ['a', 'b'] },
        { line: 2, fields: ['x, y', 'say "hi"'] },
        { line: 4, fields: ['multi\nline', 'z'] },
      ],
      truncated: false,
    });
  });

  it('stops after the records asked for, whatever follows', () => {
    const parsed = parseCsv('h\n' + 'a\n'.repeat(1000), 3);
    expect(parsed).toEqual({
      ok: true,
      records: [
        { line: 1, fields: ['h'] },
        { line: 2, fields: ['a'] },
        { line: 3, fields: ['a'] },
      ],
      truncated: true,
    });
    expect(parseCsv('h\na\n', 3)).toMatchObject({ ok: true, truncated: false });
  });

  it('names the line of malformed quoting', () => {
    expect(parseCsv('a\n"open')).toEqual({ ok: false, line: 2, message: 'a quoted field is not closed' });
    expect(parseCsv('a\nb"c')).toMatchObject({ ok: false, line: 2 });
    expect(parseCsv('a\n"b"c')).toMatchObject({ ok: false, line: 2 });
  });
});

describe('price tables from CSV', () => {
  const header = 'format,color,quantity,pages,price';

  it('reads rows into minor units without floating point and derives the option lists', () => {
    const rows = rowsFromCsv(`${header}\nA5,4/0,250,2,19.9\nA4,4/4,100,8,49.90\nA4,"4/4",250, 8 ,89\n`);
    expect(rows).toEqual([
      { format: 'A5', color: '4/0', quantity: 250, pages: 2, price: 1990 },
      { format: 'A4', color: '4/4', quantity: 100, pages: 8, price: 4990 },
      { format: 'A4', color: '4/4', quantity: 250, pages: 8, price: 8900 },
    ]);
    expect(tableShape(rows)).toEqual({ formats: ['A5', 'A4'], colors: ['4/0', '4/4'], quantities: [100, 250], pages: [2, 8] });
  });

  it('accepts the columns in any order and a header in any case', () => {
    expect(rowsFromCsv('Price,Pages,Quantity,Color,Format\n1.50,4,100,4/4,A6')).toEqual([
      { format: 'A6', color: '4/4', quantity: 100, pages: 4, price: 150 },
    ]);
  });

  it('requires the header line and at least one row', () => {
    expect(rejection(() => rowsFromCsv('A4,4/4,100,8,49.90')).details).toEqual([
      { field: 'line 1', message: 'the first line must name the columns format,color,quantity,pages,price (any order)' },
    ]);
    expect(rejection(() => rowsFromCsv('')).code).toBe('validation_failed');
    expect(rejection(() => rowsFromCsv(header)).details?.[0]?.message).toBe('at least one price row is required');
  });

  it('names every bad line and field', () => {
    const error = rejection(() => rowsFromCsv(`${header}\nA4,4/4,100,8,49.90\nA4,4/4,abc,8,12\nA4,,100,0,1.999\nA4,4/4,100`));
    expect(error.code).toBe('validation_failed');
    expect(error.message).toContain('nothing was stored');
    expect(error.details).toEqual([
      { field: 'line 3', message: 'quantity must be a whole number from 1 to 10000000 (got "abc")' },
      { field: 'line 4', message: 'color must not be empty' },
      { field: 'line 4', message: 'pages must be a whole number from 1 to 100000 (got "0")' },
      { field: 'line 4', message: 'price must be an amount from 0 to 1000000 with at most 2 decimals and a dot (got "1.999")' },
      { field: 'line 5', message: 'expected 5 fields, found 3' },
    ]);
  });

  it('refuses duplicate combinations naming both lines', () => {
    expect(rejection(() => rowsFromCsv(`${header}\nA4,4/4,100,8,49.90\nA5,4/4,100,8,1\nA4,4/4,100,8,50`)).details).toEqual([
      { field: 'line 4', message: 'duplicates line 2 (same format, color, quantity and pages)' },
    ]);
  });

  it('refuses cells that cannot be stored: unpaired surrogates, NUL and other control characters', () => {
    const error = rejection(() => rowsFromCsv(`${header}\n\ud800,4/4,100,8,1\nA4,4\u0000/4,100,8,1\nA4,x\u001b,100,8,1\nA4,4/4,250,8,1`));
    expect(error.details).toEqual([
      { field: 'line 2', message: 'format must not contain control characters (such as NUL), U+FFFE, U+FFFF or unpaired surrogates' },
      { field: 'line 3', message: 'color must not contain control characters (such as NUL), U+FFFE, U+FFFF or unpaired surrogates' },
      { field: 'line 4', message: 'color must not contain control characters (such as NUL), U+FFFE, U+FFFF or unpaired surrogates' },
    ]);
  });

  it('stops reading at the row cap: millions of junk lines cost one pass over the first 100,001', () => {
    const junk = `${header}\n${'a\n'.repeat(2_900_000)}`;
    const started = performance.now();
    const error = rejection(() => rowsFromCsv(junk));
    expect(error.message).toBe('The CSV holds too many prices');
    expect(error.details).toEqual([{ field: 'line 100002', message: 'at most 100000 price rows are accepted' }]);
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('caps the details of a wholly wrong file', () => {
    const lines = Array.from({ length: 200 }, () => 'x,y,z,w,v');
    const error = rejection(() => rowsFromCsv(`${header}\n${lines.join('\n')}`));
    expect(error.details).toHaveLength(50);
    expect(error.message).toBe('The CSV has errors; nothing was stored (600 problems; the first 50 are listed)');
  });
});

describe('lookup problems', () => {
  const shape = { formats: ['A4', 'A5'], colors: ['4/0', '4/4'], quantities: [100, 250, 500, 1000], pages: [4, 8, 12] };

  it('lists the valid values of each failing field, and the nearest quantities without interpolating', () => {
    expect(cellProblems(shape, { format: 'A4', color: '4/4', quantity: 250, pages: 8 })).toEqual([]);
    expect(cellProblems(shape, { format: 'A3', color: '1/1', quantity: 750, pages: 8 })).toEqual([
      { field: 'format', message: 'Unknown format "A3"; valid formats: A4, A5' },
      { field: 'color', message: 'Unknown color "1/1"; valid colors: 4/0, 4/4' },
      {
        field: 'quantity',
        message:
          'No price for quantity 750 (quantities are not interpolated); nearest valid quantities: 500, 1000; all valid quantities: 100, 250, 500, 1000',
      },
    ]);
    expect(cellProblems(shape, { format: 'A4', color: '4/4', quantity: 5000, pages: 2 })[0]?.message).toContain(
      'nearest valid quantities: 1000;',
    );
    expect(
      cellProblems({ formats: [], colors: [], quantities: [], pages: [] }, { format: 'A4', color: '4/4', quantity: 1, pages: 1 })[0]?.field,
    ).toBe('id');
  });

  it('explains a combination missing from a sparse table', () => {
    const cell = { format: 'A4', color: '4/4', quantity: 250, pages: 12 };
    expect(missingCellProblem(cell, [])).toEqual({ field: 'color', message: 'No prices for color "4/4" with format "A4"' });
    expect(
      missingCellProblem(cell, [
        { quantity: 250, pages: 4 },
        { quantity: 250, pages: 8 },
        { quantity: 100, pages: 12 },
      ]).field,
    ).toBe('pages');
    const quantity = missingCellProblem(cell, [
      { quantity: 100, pages: 12 },
      { quantity: 500, pages: 12 },
    ]);
    expect(quantity).toEqual({
      field: 'quantity',
      message:
        'No price for quantity 250 with A4, 4/4 (quantities are not interpolated); nearest valid quantities: 100, 500; all valid quantities: 100, 500',
    });
  });
});

describe('legacy product images', () => {
  it('falls back from the gallery to the main image to the account placeholder to a built-in one', () => {
    expect(resolveImages({ gallery_images: ['https://x/1.jpg', ' '], image: 'https://x/main.jpg' }, undefined)).toEqual([
      'https://x/1.jpg',
    ]);
    expect(resolveImages({ gallery_images: [], image: 'https://x/main.jpg' }, 'https://x/ph.png')).toEqual(['https://x/main.jpg']);
    expect(resolveImages({ gallery_images: [''], image: null }, 'https://x/ph.png')).toEqual(['https://x/ph.png']);
    expect(resolveImages({ gallery_images: [], image: null }, undefined)).toEqual([BUILT_IN_PLACEHOLDER]);
    expect(BUILT_IN_PLACEHOLDER).toMatch(/^data:image\/svg\+xml;base64,/);
  });
});

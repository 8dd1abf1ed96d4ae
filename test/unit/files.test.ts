import { describe, expect, it } from 'vitest';
import { detectFileType } from '#shared/files/detect';
import { attachmentDisposition, sanitizeFilename } from '#shared/files/filename';
import { multipartUploadOf } from '#shared/files/multipart';
import { declaredType } from '#shared/files/types';

const bytes = (...values: (number | string)[]) =>
  new Uint8Array(values.flatMap((value) => (typeof value === 'string' ? [...Buffer.from(value, 'latin1')] : [value])));

describe('what a file is, by its bytes', () => {
  it('knows the types a print shop takes', () => {
    expect(detectFileType(bytes('%PDF-1.7\n'))).toBe('application/pdf');
    expect(detectFileType(bytes(0x89, 'PNG', 0x0d, 0x0a, 0x1a, 0x0a, 0, 0))).toBe('image/png');
    expect(detectFileType(bytes(0xff, 0xd8, 0xff, 0xe0))).toBe('image/jpeg');
    expect(detectFileType(bytes('II', 0x2a, 0))).toBe('image/tiff');
    expect(detectFileType(bytes('MM', 0, 0x2a))).toBe('image/tiff');
    expect(detectFileType(bytes('%!PS-Adobe-3.0 EPSF-3.0\n'))).toBe('application/postscript');
    expect(detectFileType(bytes(0xc5, 0xd0, 0xd3, 0xc6))).toBe('application/postscript');
    expect(detectFileType(bytes('PK', 3, 4))).toBe('application/zip');
    expect(detectFileType(bytes('PK', 5, 6))).toBe('application/zip');
  });

  it('finds an SVG root after a BOM, an XML declaration, comments and a DOCTYPE — and nothing else', () => {
    expect(detectFileType(bytes('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBe('image/svg+xml');
    const prolog = '\uFEFF  <?xml version="1.0"?>\n<!-- made by hand -->\n<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "x">\n<svg>';
    expect(detectFileType(new TextEncoder().encode(prolog))).toBe('image/svg+xml');
    expect(detectFileType(bytes('<html><svg></svg></html>'))).toBeUndefined();
    expect(detectFileType(bytes('<svgx>'))).toBeUndefined();
  });

  it('takes nothing else, whatever it is called', () => {
    for (const other of [bytes('hello'), bytes('GIF89a'), bytes(0, 0, 0), new Uint8Array(), bytes('%PD')]) {
      expect(detectFileType(other)).toBeUndefined();
    }
  });
});

describe('declared types', () => {
  it('names a taken type, says "look" for octet-stream or nothing, and refuses the rest', () => {
    expect(declaredType('application/pdf')).toBe('application/pdf');
    expect(declaredType('Image/JPG; charset=binary')).toBe('image/jpeg');
    expect(declaredType('application/x-zip-compressed')).toBe('application/zip');
    expect(declaredType('application/octet-stream')).toBeUndefined();
    expect(declaredType(undefined)).toBeUndefined();
    expect(declaredType('text/html')).toBeNull();
  });

  it("takes a multipart part's text/plain — what the form encoding gives a part without a type — as no declaration", () => {
    const part = (mimetype: string) =>
      multipartUploadOf({ file: { filename: 'a.pdf', mimetype, content: Buffer.from('%PDF-') }, purpose: 'artwork', order_id: undefined });
    expect(part('text/plain').declaredType).toBeUndefined();
    expect(part('text/plain; charset=utf-8').declaredType).toBeUndefined();
    expect(part('text/html').declaredType).toBe('text/html');
    expect(part('application/pdf').declaredType).toBe('application/pdf');
  });
});

describe('file names', () => {
  it('keeps the last path segment, without characters that break headers, paths or display', () => {
    expect(sanitizeFilename('../../etc/passwd')).toBe('passwd');
    expect(sanitizeFilename('C:\\Users\\anna\\Flyer A5.pdf')).toBe('Flyer A5.pdf');
    expect(sanitizeFilename('a"b<c>d|e.pdf')).toBe('a_b_c_d_e.pdf');
    expect(sanitizeFilename('invoice\u202Efdp.exe')).toBe('invoice_fdp.exe');
    expect(sanitizeFilename('line\r\nbreak.pdf')).toBe('line__break.pdf');
    expect(sanitizeFilename('...hidden')).toBe('hidden');
    expect(sanitizeFilename('')).toBe('file');
    expect(sanitizeFilename('///')).toBe('file');
    expect([...sanitizeFilename('x'.repeat(500))]).toHaveLength(200);
  });

  it('downloads under an ASCII name and the exact UTF-8 one', () => {
    expect(attachmentDisposition('Łódź plakat.pdf')).toBe(
      `attachment; filename="__d_ plakat.pdf"; filename*=UTF-8''%C5%81%C3%B3d%C5%BA%20plakat.pdf`,
    );
  });
});

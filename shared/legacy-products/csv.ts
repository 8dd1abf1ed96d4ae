/**
 * A small RFC 4180 CSV reader: comma-separated, fields optionally in double quotes ("" is a quote
 * inside them, quoted fields may hold commas and line breaks), LF or CRLF line ends. Each record
 * carries the line it starts on, so that errors can name it. Blank lines are skipped.
 *
 * Reading stops after `maxRecords` records (`truncated: true`): a caller that accepts at most N
 * rows asks for N + 1 and refuses the file, having held no more than that in memory — a body of
 * millions of one-character lines costs one pass over N lines, not millions of arrays.
 */
export interface CsvRecord {
  line: number;
  fields: string[];
}

export type CsvResult = { ok: true; records: CsvRecord[]; truncated: boolean } | { ok: false; line: number; message: string };

export function parseCsv(text: string, maxRecords = Number.POSITIVE_INFINITY): CsvResult {
  const records: CsvRecord[] = [];
  let fields: string[] = [];
  let field = '';
  let line = 1;
  let recordLine = 1;
  let quoted = false; // inside a quoted field
  let wasQuoted = false; // the current field was quoted (only a separator may follow its closing quote)

  const endField = () => {
    fields.push(field);
    field = '';
    wasQuoted = false;
  };
  const endRecord = () => {
    endField();
    const blank = fields.length === 1 && fields[0] === '';
    if (!blank) records.push({ line: recordLine, fields });
    fields = [];
  };

  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (quoted) {
      if (char === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else {
          quoted = false;
          wasQuoted = true;
        }
      } else {
        if (char === '\n') line++;
        field += char;
      }
      continue;
    }
    if (char === ',') endField();
    else if (char === '\n' || char === '\r') {
      if (char === '\r' && text[i + 1] === '\n') i++;
      endRecord();
      if (records.length >= maxRecords) return { ok: true, records, truncated: i + 1 < text.length };
      line++;
      recordLine = line;
    } else if (wasQuoted) {
      return { ok: false, line, message: 'a quoted field must be followed by a comma or the end of the line' };
    } else if (char === '"') {
      if (field !== '') return { ok: false, line, message: 'a quote may only start a field' };
      quoted = true;
    } else field += char;
  }
  if (quoted) return { ok: false, line: recordLine, message: 'a quoted field is not closed' };
  endRecord();
  return { ok: true, records, truncated: false };
}

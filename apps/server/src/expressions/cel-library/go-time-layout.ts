/**
 * Go's reference-time layouts (`2006-01-02T15:04:05Z07:00`, `Jan 2, 2006`, ...) for `time.Parse`:
 * the layout becomes a regular expression whose groups fill the date fields. Named layouts
 * (`RFC3339`, `Kitchen`, ...) are accepted by name too.
 */
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const LONG_MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

export const NAMED_LAYOUTS: Record<string, string> = {
  ANSIC: 'Mon Jan _2 15:04:05 2006',
  RFC822: '02 Jan 06 15:04 MST',
  RFC822Z: '02 Jan 06 15:04 -0700',
  RFC850: 'Monday, 02-Jan-06 15:04:05 MST',
  RFC1123: 'Mon, 02 Jan 2006 15:04:05 MST',
  RFC1123Z: 'Mon, 02 Jan 2006 15:04:05 -0700',
  RFC3339: '2006-01-02T15:04:05Z07:00',
  RFC3339Nano: '2006-01-02T15:04:05.999999999Z07:00',
  Kitchen: '3:04PM',
  DateTime: '2006-01-02 15:04:05',
  DateOnly: '2006-01-02',
  TimeOnly: '15:04:05',
};

type Field =
  | 'year'
  | 'year2'
  | 'month'
  | 'monthName'
  | 'day'
  | 'hour'
  | 'hour12'
  | 'minute'
  | 'second'
  | 'fraction'
  | 'pm'
  | 'zone'
  | 'zoneName'
  | 'weekday';

// Longest tokens first, as Go's layout scanner does.
const TOKENS: [string, string, Field | undefined][] = [
  ['January', LONG_MONTHS.join('|'), 'monthName'],
  ['Monday', '[A-Za-z]+day', 'weekday'],
  ['Z07:00', 'Z|[+-]\\d{2}:\\d{2}', 'zone'],
  ['-07:00', '[+-]\\d{2}:\\d{2}', 'zone'],
  ['Z0700', 'Z|[+-]\\d{4}', 'zone'],
  ['-0700', '[+-]\\d{4}', 'zone'],
  ['2006', '\\d{4}', 'year'],
  ['Jan', MONTHS.join('|'), 'monthName'],
  ['Mon', '[A-Za-z]{3}', 'weekday'],
  ['MST', '[A-Z]{3,5}|[+-]\\d{2,4}', 'zoneName'],
  ['-07', '[+-]\\d{2}', 'zone'],
  ['01', '\\d{2}', 'month'],
  ['02', '\\d{2}', 'day'],
  ['_2', ' ?\\d{1,2}', 'day'],
  ['15', '\\d{2}', 'hour'],
  ['03', '\\d{2}', 'hour12'],
  ['04', '\\d{2}', 'minute'],
  ['05', '\\d{2}', 'second'],
  ['06', '\\d{2}', 'year2'],
  ['PM', 'AM|PM', 'pm'],
  ['pm', 'am|pm', 'pm'],
  ['1', '\\d{1,2}', 'month'],
  ['2', '\\d{1,2}', 'day'],
  ['3', '\\d{1,2}', 'hour12'],
  ['4', '\\d{1,2}', 'minute'],
  ['5', '\\d{1,2}', 'second'],
];

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function compileLayout(layout: string): { pattern: RegExp; fields: Field[] } {
  let source = '';
  const fields: Field[] = [];
  let index = 0;
  while (index < layout.length) {
    const fraction = /^[.,](0+|9+)/.exec(layout.slice(index));
    if (fraction && !/\d/.test(layout[index + fraction[0].length] ?? '')) {
      source += fraction[1].startsWith('9') ? '(?:[.,](\\d+))?' : `[.,](\\d{${fraction[1].length}})`;
      fields.push('fraction');
      index += fraction[0].length;
      continue;
    }
    const token = TOKENS.find(([text]) => layout.startsWith(text, index));
    if (token) {
      source += `(${token[1]})`;
      fields.push(token[2] as Field);
      index += token[0].length;
      continue;
    }
    source += escape(layout[index]);
    index += 1;
  }
  return { pattern: new RegExp(`^${source}$`), fields };
}

/** Parses `value` with Go layout `layout` (or a named layout); epoch milliseconds. */
export function parseGoTime(layout: string, value: string): number {
  const { pattern, fields } = compileLayout(NAMED_LAYOUTS[layout] ?? layout);
  const match = pattern.exec(value);
  if (!match) throw new Error(`parsing time "${value}" as "${layout}": cannot parse`);
  let year = 0;
  let month = 1;
  let day = 1;
  let hour = 0;
  let minute = 0;
  let second = 0;
  let millis = 0;
  let pm: boolean | undefined;
  let offsetMinutes = 0;
  fields.forEach((field, position) => {
    const text = match[position + 1];
    if (text === undefined) return;
    switch (field) {
      case 'year':
        year = Number(text);
        break;
      case 'year2':
        year = Number(text) + (Number(text) >= 69 ? 1900 : 2000);
        break;
      case 'month':
        month = Number(text);
        break;
      case 'monthName':
        month = (text.length === 3 ? MONTHS.indexOf(text) : LONG_MONTHS.indexOf(text)) + 1;
        break;
      case 'day':
        day = Number(text.trim());
        break;
      case 'hour':
        hour = Number(text);
        break;
      case 'hour12':
        hour = Number(text) % 12;
        break;
      case 'minute':
        minute = Number(text);
        break;
      case 'second':
        second = Number(text);
        break;
      case 'fraction':
        millis = Number(`0.${text}`) * 1000;
        break;
      case 'pm':
        pm = text.toUpperCase() === 'PM';
        break;
      case 'zone': {
        if (text === 'Z') break;
        const digits = text.replace(':', '');
        const sign = digits.startsWith('-') ? -1 : 1;
        offsetMinutes = sign * (Number(digits.slice(1, 3)) * 60 + Number(digits.slice(3, 5) || '0'));
        break;
      }
      default:
        break;
    }
  });
  if (pm === true) hour += 12;
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 59)
    throw new Error(`parsing time "${value}": value out of range`);
  return Date.UTC(year, month - 1, day, hour, minute, second) + millis - offsetMinutes * 60_000;
}

/**
 * Values read by kind with libraries rather than patterns of our own: e-mail addresses
 * (validator), times of day and dates in English and Chinese (chrono-node), IANA time zones and
 * the cities they are named after (`Intl.supportedValuesOf('timeZone')`). Each finder returns
 * literals with their offsets; literals.ts merges them with the other kinds before the text is
 * split into clauses, so the dots in an address or a zone's slash never split or mislead.
 */
import * as chrono from 'chrono-node';
import isEmail from 'validator/lib/isEmail';
import type { Literal } from './literals';

/** What an address cannot hold: spaces, quotes, brackets, separators, CJK. */
const NOT_IN_ADDRESS = String.raw`\s@"'<>()[\]{},;:，。；：、“”‘’（）\u3400-\u9fff`;
/**
 * A run of characters that may be an e-mail address, from the start of the run only (the
 * lookbehind keeps the search linear on a long run with no address in it).
 */
const EMAIL_CANDIDATE = new RegExp(
  `(?<![^${NOT_IN_ADDRESS}])[^${NOT_IN_ADDRESS}]+@[^${NOT_IN_ADDRESS}]+`,
  'g',
);

/** E-mail addresses, checked with validator's `isEmail` (a trailing full stop is not part of one). */
export function findEmails(text: string): Literal[] {
  const found: Literal[] = [];
  for (const m of text.matchAll(EMAIL_CANDIDATE)) {
    const value = m[0].replace(/[.!?]+$/, '');
    if (!isEmail(value)) continue;
    found.push({ kind: 'email', value, start: m.index, end: m.index + value.length });
  }
  return found;
}

/** IANA time zones this runtime knows, and each one's city as people write it ("New York"). */
let zones: { names: Set<string>; byCity: Map<string, string> } | undefined;

function getZones(): { names: Set<string>; byCity: Map<string, string> } {
  if (zones) return zones;
  const names = new Set([...Intl.supportedValuesOf('timeZone'), 'UTC', 'Etc/UTC']);
  const byCity = new Map<string, string>();
  for (const name of names) {
    const city = name.split('/').at(-1)!.replace(/_/g, ' ');
    // Only a continent's city ("Asia/Tokyo"), not "UTC", "America/Indiana/Vevay" or a research
    // station; the first zone of a city wins.
    const parts = name.split('/');
    if (parts.length === 2 && parts[0] !== 'Antarctica' && /^[A-Z][a-z]/.test(city) && !byCity.has(city))
      byCity.set(city, name);
  }
  zones = { names, byCity };
  return zones;
}

/** A zone written as IANA spells it (`Europe/Berlin`, `America/Argentina/Buenos_Aires`, `UTC`). */
const ZONE_CANDIDATE = /(?<![\w/])(?:[A-Z][A-Za-z_-]+(?:\/[A-Z][A-Za-z0-9_+-]+){1,2}|UTC|GMT)(?![\w/])/g;
/** Capitalised words that may name a city ("Tokyo", "New York", "Los Angeles"). */
const CITY_CANDIDATE = /(?<![\w/])[A-Z][a-z]+(?: [A-Z][a-z]+){0,2}(?![\w/])/g;

/**
 * Time zones: IANA names written out, and cities that give a zone its name ("in Tokyo" →
 * Asia/Tokyo). A city stays ordinary words too (`keepWords`): "Paris" may be a place to go to.
 */
export function findTimeZones(text: string): Literal[] {
  const { names, byCity } = getZones();
  const found: Literal[] = [];
  for (const m of text.matchAll(ZONE_CANDIDATE)) {
    if (names.has(m[0]))
      found.push({ kind: 'timezone', value: m[0], start: m.index, end: m.index + m[0].length });
  }
  for (const m of text.matchAll(CITY_CANDIDATE)) {
    // The longest run of words that names a city: "New York", not "York".
    const words = m[0].split(' ');
    for (let length = words.length; length > 0; length--) {
      let matched = false;
      for (let first = 0; first + length <= words.length; first++) {
        const city = words.slice(first, first + length).join(' ');
        const zone = byCity.get(city);
        if (!zone) continue;
        const start = m.index + words.slice(0, first).join(' ').length + (first > 0 ? 1 : 0);
        found.push({
          kind: 'timezone',
          value: zone,
          start,
          end: start + city.length,
          keepWords: true,
          written: city,
        });
        matched = true;
        break;
      }
      if (matched) break;
    }
  }
  return found;
}

/** A time of day as written: `16:30`, `9:15 PM`, `07:45`, `下午3点` is left to the words. */
const CLOCK = /\d{1,2}:\d{2}(?::\d{2})?(?:\s*[ap]\.?m\.?)?/i;

/**
 * Times of day, read with chrono-node (English, or its Chinese parser for Chinese text): a time
 * with hours and minutes written as a clock reads as `HH:MM` (24-hour). A date chrono finds with
 * a time in it is left to the date pattern (ISO dates are read there, whole).
 */
export function findTimes(text: string): Literal[] {
  const parser = /[\u3400-\u9fff]/.test(text) ? chrono.zh : chrono;
  const found: Literal[] = [];
  for (const result of parser.parse(text, new Date(Date.UTC(2000, 0, 1)))) {
    for (const [component, offset] of [
      [result.start, 0],
      [result.end, 1],
    ] as const) {
      if (!component || !component.isCertain('hour') || !component.isCertain('minute')) continue;
      // Which clock in the result's text this component is (a range has two).
      const clocks = [...result.text.matchAll(new RegExp(CLOCK.source, 'gi'))];
      const clock = clocks[offset === 1 ? clocks.length - 1 : 0];
      if (!clock || (offset === 1 && clocks.length < 2)) continue;
      const hour = component.get('hour')!;
      const minute = component.get('minute')!;
      const start = result.index + clock.index;
      found.push({
        kind: 'time',
        value: `${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`,
        start,
        end: start + clock[0].length,
      });
    }
  }
  return found;
}

/** A month written as a word or with 月: what makes a date in words a date and not a count. */
const MONTH_WRITTEN = /\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b|月/i;

/**
 * Dates written in words ("March 3, 2026", "14 March 2025", "2026年4月3日"), read with chrono-node,
 * as `YYYY-MM-DD`. A day without its year takes the year of the date written before it ("2026年4月3日
 * 入住，4月6日退房"); with none, it is no date. Dates with a time of day, ranges, dates written only
 * in digits with slashes (05/06/2026 is May or June) and relative days ("tomorrow") are not read.
 */
export function findDates(text: string): Literal[] {
  const parser = /[\u3400-\u9fff]/.test(text) ? chrono.zh : chrono;
  const found: Literal[] = [];
  let year: number | undefined;
  for (const result of parser.parse(text, new Date(Date.UTC(2000, 0, 1)))) {
    const { start } = result;
    if (result.end || start.isCertain('hour') || !start.isCertain('day') || !start.isCertain('month'))
      continue;
    if (!MONTH_WRITTEN.test(result.text)) continue;
    const written = new RegExp(`\\b${start.get('year')}\\b|${start.get('year')}年`).test(result.text);
    if (written) year = start.get('year')!;
    if (year === undefined) continue;
    // Where the date itself starts ("on 14 March 2025", "，4月6日").
    const lead = /^[^\p{L}\p{N}]*(?:on\s+)?/iu.exec(result.text)![0].length;
    const pad = (n: number) => String(n).padStart(2, '0');
    found.push({
      kind: 'date',
      value: `${year}-${pad(start.get('month')!)}-${pad(start.get('day')!)}`,
      start: result.index + lead,
      end: result.index + result.text.length,
    });
  }
  return found;
}

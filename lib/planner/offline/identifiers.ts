/**
 * Parameters that hold an identifier (`calendarId`, "List of calendar IDs"), what they identify,
 * and whether the text gives a value as that identifier rather than as a title or a name.
 */
import type { PlacedLiteral } from './clauses';
import { findChineseWords } from './lexicon';
import type { IndexedParam } from './tool-index';

/** A parameter that holds an identifier: `calendarId`, `event_id`, `id`, "List of calendar IDs". */
const ID_NAME = /(?:^ids?|[a-z0-9]Ids?|_ids?)$/;
const ID_DESCRIPTION =
  /^(?:(?:[Tt]he|[Aa]n?|[Ll]ist of|[Oo]ne or more)\s+)?(?:[\w-]+\s+){0,2}(?:IDs?|[Ii]dentifiers?(?:\(s\))?)\b/;

export function isIdentifierParam(param: IndexedParam): boolean {
  return ID_NAME.test(param.name) || ID_DESCRIPTION.test(param.description);
}

/** What an identifier parameter identifies: `calendarId` → calendar, "List of calendar IDs" → calendar. */
export function getIdentifiedThing(param: IndexedParam): string | undefined {
  const named = param.name
    .replace(/_?ids?$/i, '')
    .split(/_|(?=[A-Z])/)
    .pop();
  if (ID_NAME.test(param.name) && named) return named.toLowerCase();
  // A bare `id` says what it identifies in its description: "Note id", "ID of the queue".
  const m =
    /([\p{L}\w-]+)\s+(?:IDs?|ids?|[Ii]dentifiers?(?:\(s\))?)\b/u.exec(param.description.slice(0, 60)) ??
    /\b(?:IDs?|ids?|[Ii]dentifiers?)\s+of\s+(?:the\s+|a\s+)?([\w-]+)/.exec(param.description.slice(0, 60));
  return m ? m[1].toLowerCase() : undefined;
}

/**
 * An identifier is a code the text gives as one: a quoted title or a name is an identifier only
 * right after the word for the thing it identifies or the word "id" ("calendar 'team'", "event
 * id 'x7'"), never with a space in it (an id has none), and not after a verb that creates the
 * thing unless "id" is said ("create an event 'Postmortem'": a title; the id is made for it).
 */
export function isIdentifierGiven(placed: PlacedLiteral, param: IndexedParam): boolean {
  if (!isIdentifierParam(param) || param.enum) return true;
  const value = String(placed.literal.value);
  if (/\s/.test(value)) return false;
  const thing = getIdentifiedThing(param);
  // "删除记录 'r-17'": the Chinese word right before the value, read in English.
  const run = /[\p{Script=Han}]+\s*$/u.exec(
    placed.before.replace(/\s*(?:ID|id|编号|标识)?\s*[:：=]?\s*$/u, ''),
  );
  if (run && thing !== undefined) {
    const last = findChineseWords(run[0].trim()).pop();
    if (last && last.at + last.word.length === run[0].trim().length && last.english.some((e) => e === thing))
      return true;
  }
  const words = placed.before
    .toLowerCase()
    .replace(/\b(?:named|called|with|of)\s*$|[:=#'"“‘]\s*$/g, '')
    .trim()
    .split(/\s+/);
  const last = words.pop() ?? '';
  if (last === param.name.toLowerCase()) return true;
  // "event id 'x7'", "with ID 'x7'": the text names the value an identifier.
  if (/^(?:id|ids|identifier)$/.test(last)) return true;
  // "create an event 'Postmortem'": the quoted word names what is made; its id is made for it.
  if (CREATE_BEFORE.test(placed.before)) return false;
  return thing !== undefined && isThing(last, thing);
}

/** A verb that makes the thing named after it ("create an event", "新建日程"). */
export const CREATE_BEFORE = /\b(?:create|add|make|new|open|schedule|set\s+up|insert)\b|创建|新建|添加|新增/i;

function isThing(word: string, thing: string): boolean {
  return word.replace(/s$/, '') === thing.replace(/s$/, '');
}

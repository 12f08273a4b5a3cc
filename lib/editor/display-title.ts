/**
 * A tool's title in the interface's language. The built-in toolkits write titles in two languages,
 * "Optimize (relax) structure · 结构优化（几何优化、结构弛豫）", because the offline planner
 * matches Chinese tasks against them; the declaration keeps both (search and planning read it),
 * and the UI shows the part in its own language.
 */

/** The language of the interface (the pages' `lang`). */
export const UI_LANGUAGE = 'en';

/** Kana, Han characters and Hangul: a part written in Japanese, Chinese or Korean. */
const CJK = /[\u3040-\u9fff\uac00-\ud7af]/;

/**
 * The parts of a bilingual `title` ("English · 中文") in `language`: for English, the parts
 * without CJK characters; for zh, ja or ko, the parts with them. A title in one language
 * ("Files · read and write") is returned whole.
 */
export function getDisplayTitle(title: string, language: string = UI_LANGUAGE): string {
  const parts = title.split(' · ');
  const wantsCjk = /^(zh|ja|ko)\b/i.test(language);
  const mine = parts.filter((part) => CJK.test(part) === wantsCjk);
  return mine.length > 0 && mine.length < parts.length ? mine.join(' · ') : title;
}

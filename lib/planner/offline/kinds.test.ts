import { describe, expect, it } from 'vitest';
import { findLiterals } from './literals';

const read = (text: string) => findLiterals(text).map((l) => [l.kind, l.value]);

describe('values read by kind', () => {
  it('reads an e-mail address whole, never its domain as a file name', () => {
    expect(read('mail it to ana@example.org.')).toEqual([['email', 'ana@example.org']]);
    expect(read('给 wang.lei@example.cn 发邮件')).toEqual([['email', 'wang.lei@example.cn']]);
    expect(read("send to 'bo@example.com'")).toEqual([['email', 'bo@example.com']]);
  });

  it('reads times of day as HH:MM, in English and Chinese, and keeps ISO dates whole', () => {
    expect(read('Convert 9:15 PM now')).toEqual([['time', '21:15']]);
    expect(read('把北京时间 16:30 换算一下')).toEqual([['time', '16:30']]);
    expect(read('since 2025-03-14T10:00:00Z')).toEqual([['date', '2025-03-14T10:00:00Z']]);
  });

  it('reads IANA zones as written and cities that name one, the city kept as written', () => {
    expect(read('from America/Los_Angeles to Europe/Berlin')).toEqual([
      ['timezone', 'America/Los_Angeles'],
      ['timezone', 'Europe/Berlin'],
    ]);
    const [tokyo] = findLiterals('What time is it in Tokyo?');
    expect(tokyo).toMatchObject({ kind: 'timezone', value: 'Asia/Tokyo', written: 'Tokyo' });
    expect(findLiterals('in New York')[0]).toMatchObject({ value: 'America/New_York', written: 'New York' });
  });

  it('reads numbers with thousands separators and metric lengths', () => {
    expect(findLiterals('within 1,500 m')[0]).toMatchObject({ kind: 'number', value: 1500, unit: 'm' });
    expect(findLiterals('超时 120,000 毫秒')[0]).toMatchObject({ value: 120000, unit: '毫秒' });
    expect(findLiterals('2 公里内')[0]).toMatchObject({ value: 2, unit: '公里' });
    // Coordinates are one point, not one number with a separator (nor two numbers).
    expect(read('116.481028,39.989643')).toEqual([['coordinates', '116.481028,39.989643']]);
  });

  it('reads dates written in words as YYYY-MM-DD, a day without its year taking the year written before it', () => {
    expect(read('arriving on 14 March 2025')).toEqual([['date', '2025-03-14']]);
    expect(read('from March 3, 2026')).toEqual([['date', '2026-03-03']]);
    expect(read('2026年4月3日入住，4月6日退房')).toEqual([
      ['date', '2026-04-03'],
      ['date', '2026-04-06'],
    ]);
  });

  it('reads no date that the text leaves open: no year, digits only, or relative', () => {
    expect(read('release on May 1').filter(([kind]) => kind === 'date')).toEqual([]);
    expect(read('check-in 05/06/2026').filter(([kind]) => kind === 'date')).toEqual([]);
    expect(read('meet tomorrow').filter(([kind]) => kind === 'date')).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { getDisplayTitle } from './display-title';
import { MATERIALS_TOOLS } from '../toolkits/builtin/materials';

describe('getDisplayTitle', () => {
  it('shows the English part of a bilingual title to an English interface', () => {
    expect(getDisplayTitle('Optimize (relax) structure · 结构优化（几何优化、结构弛豫）')).toBe(
      'Optimize (relax) structure',
    );
  });

  it('shows the Chinese part to a Chinese interface', () => {
    expect(getDisplayTitle('Calculate phonons · 计算声子谱', 'zh-CN')).toBe('计算声子谱');
  });

  it('finds the language whichever part comes first', () => {
    expect(getDisplayTitle('计算声子谱 · Calculate phonons')).toBe('Calculate phonons');
  });

  it('keeps a title of one language whole, separator or not', () => {
    expect(getDisplayTitle('Fetch a file')).toBe('Fetch a file');
    expect(getDisplayTitle('Files · read and write')).toBe('Files · read and write');
    expect(getDisplayTitle('计算声子谱')).toBe('计算声子谱');
    expect(getDisplayTitle('计算 · 声子谱')).toBe('计算 · 声子谱');
  });

  it('gives every built-in materials tool a title without Chinese in English', () => {
    for (const tool of MATERIALS_TOOLS) {
      const shown = getDisplayTitle(tool.title!);
      expect(shown).not.toMatch(/[\u4e00-\u9fff]/);
      expect(shown.length).toBeGreaterThan(0);
    }
  });
});

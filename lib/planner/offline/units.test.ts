import { describe, expect, it } from 'vitest';
import { convertUnit, getDescribedUnit, getParamDimension } from './units';

describe('convertUnit', () => {
  it('converts within a dimension, exactly for round figures', () => {
    expect(convertUnit(2, 'GPa', 'bar')).toBe(20000);
    expect(convertUnit(1, 'atm', 'bar')).toBe(1.01325);
    expect(convertUnit(10, 'ps', 'fs')).toBe(10000);
    expect(convertUnit(25, '°C', 'K')).toBe(298.15);
    expect(convertUnit(0.5, 'nm', 'Å')).toBe(5);
    expect(convertUnit(30, 'seconds', 's')).toBe(30);
  });

  it('refuses to convert between dimensions', () => {
    expect(convertUnit(300, 'K', 'bar')).toBeUndefined();
    expect(convertUnit(1, 'eV', 'fs')).toBeUndefined();
  });
});

describe('getDescribedUnit', () => {
  it('reads the unit a description names', () => {
    expect(getDescribedUnit('Target pressure in bar (NPT only)')).toBe('bar');
    expect(getDescribedUnit('Target temperature in kelvin')).toBe('K');
    expect(getDescribedUnit('Integration time step in femtoseconds')).toBe('fs');
    expect(getDescribedUnit('Lattice constant a in ångström; omit to use the experimental value')).toBe('Å');
    expect(getDescribedUnit('Duration of the operation in seconds')).toBe('s');
  });

  it('takes no inverse length or volume for a length', () => {
    expect(getDescribedUnit('k-point spacing for the self-consistent run, in 1/ångström')).toBeUndefined();
    expect(getDescribedUnit('Volume at the energy minimum, ångström³ per cell')).toBeUndefined();
  });
});

describe('getParamDimension', () => {
  it('reads the dimension from the unit, else from the words', () => {
    expect(getParamDimension('pressure', 'Target pressure in bar')).toBe('pressure');
    expect(getParamDimension('temperature', 'Target temperature')).toBe('temperature');
    expect(getParamDimension('num_steps', 'Number of MD steps')).toBeUndefined();
  });
});

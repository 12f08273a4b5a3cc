'use client';
import type { WidgetProps } from '@rjsf/utils';

/**
 * Booleans as a switch rather than a bare checkbox. An unset boolean (no value, no default) is
 * shown as "not set", since its zero-value `false` is a guess, not a configured value.
 */
export function SwitchWidget({ id, value, onChange, onBlur, onFocus, disabled, readonly }: WidgetProps) {
  const state = value === true ? 'true' : value === false ? 'false' : 'not set';
  return (
    <label className="switch">
      <input
        id={id}
        type="checkbox"
        role="switch"
        className="switch__input"
        checked={value === true}
        aria-checked={value === true}
        disabled={disabled || readonly}
        onChange={(event) => onChange(event.target.checked)}
        onBlur={() => onBlur(id, value)}
        onFocus={() => onFocus(id, value)}
      />
      <span className="switch__track" aria-hidden="true">
        <span className="switch__thumb" />
      </span>
      <span className={`switch__text${value === undefined ? ' switch__text--unset' : ''}`}>{state}</span>
    </label>
  );
}

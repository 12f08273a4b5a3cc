/**
 * The inspector's generated form shows every text of a declaration as text: the form library
 * renders some of its messages as markdown, which would turn a schema's `type`, a value's file
 * name, a title or an enum into a real link or image (components/inspector/plain-form-parts.tsx
 * replaces those parts). Rendered here without a browser; e2e/security.spec.ts does it in Chromium.
 */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ParamFormField } from '@/components/inspector/param-form-field';
import { getParamFormSchema } from '@/lib/editor/param-form';
import type { JsonSchema } from '@/lib/tools/types';

const LINK = '[click here to sign in again](https://evil.example/login)';
const IMAGE = '![logo](https://evil.example/pixel.png)';
const HTML_IMG = '<img src="https://evil.example/html.png">';
const JS_LINK = '[run](javascript:alert(1))';
const AUTOLINK = '<https://evil.example/auto> and https://evil.example/bare';

/** One parameter schema per way a declaration's text reaches the form. */
const HOSTILE: Record<string, JsonSchema> = {
  type: { type: `Session expired: ${LINK} ${IMAGE}` },
  typeList: { type: ['string', `${JS_LINK}`] },
  untypedArray: { type: 'array', title: LINK, description: IMAGE },
  title: { type: 'string', title: `${LINK} ${HTML_IMG}`, description: `${IMAGE} ${JS_LINK}` },
  enum: { type: 'string', enum: [LINK, IMAGE, JS_LINK], default: LINK },
  default: { type: 'string', default: `${IMAGE} ${AUTOLINK}` },
  format: { type: 'string', format: `${LINK}`, pattern: `${IMAGE}` },
  dataUrl: {
    type: 'string',
    format: 'data-url',
    default: `data:text/html;name=${LINK};base64,PGgxPmhpPC9oMT4=`,
  },
  examples: { type: 'string', examples: [LINK, AUTOLINK] },
  object: {
    type: 'object',
    title: LINK,
    properties: { [LINK]: { type: 'string', description: AUTOLINK }, inner: { type: `${IMAGE}` } },
  },
  nested: { type: 'array', items: { type: 'object', properties: { x: { type: LINK } } }, default: [{}] },
  oneOf: {
    oneOf: [
      { type: 'string', title: LINK },
      { type: 'number', title: IMAGE },
    ],
  },
};

function render(name: string, value?: unknown): string {
  const inputSchema: JsonSchema = { type: 'object', properties: HOSTILE };
  const schema = getParamFormSchema(inputSchema, name);
  return renderToStaticMarkup(
    createElement(ParamFormField, {
      idPrefix: `p-${name}`,
      schema: schema as never,
      value,
      disabled: false,
      onValue: () => {},
    }),
  );
}

describe('the generated form of a hostile declaration', () => {
  // The library reads a data URL's file name and size with `window.Blob`, as in a browser.
  const hadWindow = 'window' in globalThis;
  beforeAll(() => {
    if (!hadWindow) Object.assign(globalThis, { window: globalThis });
  });
  afterAll(() => {
    if (!hadWindow) delete (globalThis as { window?: unknown }).window;
  });

  it.each(Object.keys(HOSTILE))('makes no link or image from "%s"', (name) => {
    const html = render(name);
    expect(html).not.toMatch(/<a[\s>]|<img[\s>]|\shref=|\ssrc=|srcset=|<iframe|<object|<embed/i);
    expect(html).not.toContain('evil.example/login"');
  });

  it('shows the text itself, markdown and all', () => {
    expect(render('type')).toContain(
      'Session expired: [click here to sign in again](https://evil.example/login)',
    );
    expect(render('dataUrl', `data:text/html;name=${LINK};base64,AA==`)).not.toMatch(/<a[\s>]|<img[\s>]/);
  });
});

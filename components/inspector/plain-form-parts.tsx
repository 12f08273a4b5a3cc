'use client';
/**
 * The form library's parts that render text as markdown, replaced by plain-text ones. A
 * declaration is data: its schema's `type`, titles and values reach the form's messages, and
 * markdown would turn `[sign in](https://evil.example)` into a real link and `![](…)` into an
 * image. These render every such text as React text, so no link or image URL ever comes from a
 * declaration. The other parts (titles, descriptions, help, errors) render plain text already:
 * markdown there is an option the inspector never turns on.
 */
import type { RegistryWidgetsType, TemplatesType, UnsupportedFieldProps, WidgetProps } from '@rjsf/utils';

/**
 * A schema the form cannot show as a field (an unknown `type`, an array without `items`): why,
 * as text, and where to edit the value instead.
 */
function PlainUnsupportedField({ reason, schema }: UnsupportedFieldProps) {
  return (
    <div className="unsupported-field" data-testid="form-unsupported">
      <p>No form field for this schema{reason ? ` (${reason})` : ''}: edit the value in the Raw JSON tab.</p>
      {schema ? <pre>{JSON.stringify(schema, null, 2)}</pre> : null}
    </div>
  );
}

/**
 * A `data-url` value as text. The library's file widget shows the name inside a data URL through
 * markdown and can preview the URL as a link or an image; here it is a string like any other.
 */
function PlainFileWidget(props: WidgetProps) {
  const { TextWidget } = props.registry.widgets;
  return <TextWidget {...props} />;
}

export const plainTemplates: Partial<TemplatesType> = { UnsupportedFieldTemplate: PlainUnsupportedField };

export const plainWidgets: RegistryWidgetsType = { FileWidget: PlainFileWidget };

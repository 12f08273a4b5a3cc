'use client';
import { memo, useRef, useState } from 'react';
import Form from '@rjsf/core';
import { customizeValidator } from '@rjsf/validator-ajv8';
import type { IChangeEvent } from '@rjsf/core';
import type { RegistryWidgetsType, RJSFSchema, UiSchema } from '@rjsf/utils';
import { isJsonEqual } from '@/lib/editor/param-form';
import { linearRegExp } from '@/lib/tools/linear-pattern';
import { plainTemplates, plainWidgets } from './plain-form-parts';
import { SwitchWidget } from './switch-widget';

/**
 * The form checks values against the schema itself (which `oneOf` branch a value takes, an
 * `if`/`then`), so its Ajv evaluates schema patterns too: on RE2, in linear time, like every
 * other Ajv in Toolflow.
 */
const validator = customizeValidator({ ajvOptionsOverrides: { code: { regExp: linearRegExp } } });

const widgets: RegistryWidgetsType = { ...plainWidgets, CheckboxWidget: SwitchWidget };

const uiSchema: UiSchema = {
  'ui:submitButtonOptions': { norender: true },
  'ui:label': false,
};

/** Never fill schema defaults into the value: a default is shown, not written as an arg. */
const defaultFormStateBehavior = {
  emptyObjectFields: 'skipDefaults',
  arrayMinItems: { populate: 'never' },
  mergeDefaultsIntoFormData: 'useDefaultIfFormDataUndefined',
} as const;

interface Props {
  /** Unique per node and parameter; prefixes the ids of every input in the form. */
  idPrefix: string;
  schema: RJSFSchema;
  value: unknown;
  disabled: boolean;
  /** Called with the new value when the person changes the field (undefined = cleared). */
  onValue(value: unknown): void;
}

/**
 * One parameter's value as a form generated from its JSON Schema by @rjsf/core: enums become
 * selects, booleans switches, numbers get their bounds, string formats their input types, and
 * arrays and objects nested fields. Validation messages come from the node's own Ajv check
 * (shown by the inspector), so the form does not validate a second time.
 */
export const ParamFormField = memo(function ParamFormField({
  idPrefix,
  schema,
  value,
  disabled,
  onValue,
}: Props) {
  // The form library may report a change it made itself (normalising the value it was given);
  // only a change after the person touched this field is theirs.
  const touched = useRef(false);
  const touch = () => {
    touched.current = true;
  };
  // The form library reads `formData={undefined}` as "keep your own data", so a value taken away
  // from outside (Reset, Undo) would stay on screen: such a change starts the form afresh. A
  // value the person cleared themselves does not, so the field they are typing in keeps focus.
  const [emitted, setEmitted] = useState<{ value: unknown } | null>(null);
  const [shown, setShown] = useState(value);
  const [generation, setGeneration] = useState(0);
  if (!Object.is(value, shown)) {
    setShown(value);
    if (value === undefined && !(emitted && emitted.value === undefined)) setGeneration((g) => g + 1);
  }
  const onChange = (event: IChangeEvent) => {
    if (!touched.current) return;
    if (isJsonEqual(event.formData, value)) return;
    setEmitted({ value: event.formData });
    onValue(event.formData);
  };
  return (
    <div
      className="param-form"
      onKeyDownCapture={touch}
      onPointerDownCapture={touch}
      onInputCapture={touch}
      onChangeCapture={touch}
    >
      <Form
        key={generation}
        tagName="div"
        schema={schema}
        uiSchema={uiSchema}
        formData={value}
        validator={validator}
        widgets={widgets}
        templates={plainTemplates}
        idPrefix={idPrefix}
        disabled={disabled}
        showErrorList={false}
        noHtml5Validate
        experimental_defaultFormStateBehavior={defaultFormStateBehavior}
        onChange={onChange}
      />
    </div>
  );
});

import type { InputSpec } from './spec.js';

// Apart from spec.ts so that the browser (the widget's forms) reads options without loading the spec's zod schemas.

/** An enum's options as { label, value }; a boolean's two words; null for other types. */
export function inputOptions(spec: InputSpec): { label: string; value: string | boolean }[] | null {
  if (spec.type === 'enum') return spec.options.map((o) => (typeof o === 'string' ? { label: o, value: o } : o));
  if (spec.type === 'boolean')
    return [
      { label: spec.trueLabel ?? 'Yes', value: true },
      { label: spec.falseLabel ?? 'No', value: false },
    ];
  return null;
}

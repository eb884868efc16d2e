// Labelled form controls the panels share: `<label>name <select|input …/></label>`, the shape the e2e specs and
// screen readers find them by.
import type { ReactNode } from 'react';

interface FieldProps<V> {
  label: string;
  testId?: string;
  ariaLabel?: string;
  value: V;
  disabled?: boolean;
  onChange(value: V): void;
}

/** The attributes both controls take from their props. */
function attributes(f: Pick<FieldProps<unknown>, 'testId' | 'ariaLabel' | 'disabled'>) {
  return { 'data-testid': f.testId, 'aria-label': f.ariaLabel, disabled: f.disabled };
}

/** A labelled <select>; `children` are its <option>s, whose values come back as text. */
export function SelectField(f: Omit<FieldProps<string>, 'value'> & { value: string | number; children: ReactNode }) {
  return (
    <label>
      {f.label}{' '}
      <select {...attributes(f)} value={f.value} onChange={(e) => f.onChange(e.target.value)}>
        {f.children}
      </select>
    </label>
  );
}

/** A labelled number input; onChange gets Number(text) (NaN for text that is no number: the caller clamps). */
export function NumberField(f: FieldProps<number> & { min?: number; max?: number; step?: number; width?: number }) {
  return (
    <label>
      {f.label}{' '}
      <input
        {...attributes(f)}
        type="number"
        min={f.min}
        max={f.max}
        step={f.step}
        value={f.value}
        style={f.width === undefined ? undefined : { width: f.width }}
        onChange={(e) => f.onChange(Number(e.target.value))}
      />
    </label>
  );
}

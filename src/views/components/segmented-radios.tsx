/**
 * A segmented switch (one of a few options) made of native radio buttons: a radiogroup named by
 * `aria-labelledby`, arrow keys to move, Space to pick, the whole segment clickable. Looks like
 * Mantine's SegmentedControl in both colour schemes at a fraction of its code, which keeps it on
 * the sign-in pages without weighing them down.
 */
import { Text } from '@mantine/core';
import { useId } from 'react';
import classes from './segmented-radios.module.css';

export interface SegmentedRadiosProps<V extends string> {
  value: V;
  options: ReadonlyArray<{ value: V; label: string }>;
  onChange: (value: V) => void;
  'aria-labelledby': string;
}

/** The switch under a visible label that names it. */
export function LabelledRadios<V extends string>({ label, ...rest }: Omit<SegmentedRadiosProps<V>, 'aria-labelledby'> & { label: string }) {
  const labelId = useId();
  return (
    <>
      <Text id={labelId} size="sm" fw={500} mb={4}>
        {label}
      </Text>
      <SegmentedRadios aria-labelledby={labelId} {...rest} />
    </>
  );
}

export function SegmentedRadios<V extends string>({ value, options, onChange, 'aria-labelledby': labelledBy }: SegmentedRadiosProps<V>) {
  const name = useId();
  return (
    <div role="radiogroup" aria-labelledby={labelledBy} className={classes.root}>
      {options.map((o) => {
        const id = `${name}-${o.value}`;
        return (
          <div key={o.value} className={classes.item}>
            <input
              id={id}
              className={classes.input}
              type="radio"
              name={name}
              value={o.value}
              checked={o.value === value}
              onChange={() => onChange(o.value)}
            />
            <label htmlFor={id} className={classes.label}>
              {o.label}
            </label>
          </div>
        );
      })}
    </div>
  );
}

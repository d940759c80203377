/**
 * A native <select> drawn exactly as Mantine's NativeSelect draws it (the same markup and classes, so the same
 * styles), for the selects of the first page (the language switch, the phone code): NativeSelect brings Mantine's
 * combobox data parsing and its chevron component along, which nothing else on that page needs.
 * tests/views/plain-select.test.tsx holds the two to the same markup.
 */
import { InputBase, type BoxProps, type ElementProps, type __BaseInputProps } from '@mantine/core';

export interface PlainSelectOption {
  value: string;
  label: string;
  disabled?: boolean;
}

export interface PlainSelectProps extends BoxProps, Omit<__BaseInputProps, 'pointer' | 'size'>, ElementProps<'select', 'size'> {
  data: readonly PlainSelectOption[];
  size?: 'xs' | 'sm' | 'md' | 'lg' | 'xl';
}

/** Mantine's combobox chevron (its class carries the size, colour and error styles of Combobox.css). */
function Chevron({ size, error }: { size: string; error: React.ReactNode }) {
  return (
    <svg
      className="m_2943220b mantine-ComboboxChevron-chevron"
      style={{ '--combobox-chevron-size': `var(--combobox-chevron-size-${size})` } as React.CSSProperties}
      data-size={size}
      data-combobox-chevron="true"
      data-error={error === '' || error === false || error === null ? undefined : error}
      viewBox="0 0 15 15"
      fill="none"
      xmlns="http://www.w3.org/2000/svg"
    >
      <path
        d="M4.93179 5.43179C4.75605 5.60753 4.75605 5.89245 4.93179 6.06819C5.10753 6.24392 5.39245 6.24392 5.56819 6.06819L7.49999 4.13638L9.43179 6.06819C9.60753 6.24392 9.89245 6.24392 10.0682 6.06819C10.2439 5.89245 10.2439 5.60753 10.0682 5.43179L7.81819 3.18179C7.73379 3.0974 7.61933 3.04999 7.49999 3.04999C7.38064 3.04999 7.26618 3.0974 7.18179 3.18179L4.93179 5.43179ZM10.0682 9.56819C10.2439 9.39245 10.2439 9.10753 10.0682 8.93179C9.89245 8.75606 9.60753 8.75606 9.43179 8.93179L7.49999 10.8636L5.56819 8.93179C5.39245 8.75606 5.10753 8.75606 4.93179 8.93179C4.75605 9.10753 4.75605 9.39245 4.93179 9.56819L7.18179 11.8182C7.35753 11.9939 7.64245 11.9939 7.81819 11.8182L10.0682 9.56819Z"
        fill="currentColor"
        fillRule="evenodd"
        clipRule="evenodd"
      />
    </svg>
  );
}

export function PlainSelect({ data, size = 'sm', error, ...others }: PlainSelectProps) {
  return (
    <InputBase
      component="select"
      rightSectionPointerEvents="none"
      {...others}
      __staticSelector="NativeSelect"
      size={size}
      pointer
      error={error}
      rightSection={<Chevron size={size} error={error} />}
    >
      {data.map(({ value, label, disabled }) => (
        <option key={value} value={value} disabled={disabled}>
          {label}
        </option>
      ))}
    </InputBase>
  );
}

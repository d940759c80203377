/**
 * Field errors the server sent for fields this form does not show (e.g. `_body` for a malformed
 * request): listed together under the form so no message is lost.
 */
import { useFieldError } from '../../components/field-error';
import { LightAlert } from '../../components/light-alert';

export function UnplacedErrors({ errors, shown }: { errors: Record<string, string>; shown: readonly string[] }) {
  const error = useFieldError(errors);
  const rest = Object.keys(errors).filter((f) => !shown.includes(f));
  if (!rest.length) return null;
  return (
    <LightAlert color="red">{rest.map((f) => error(f)).join(' ')}</LightAlert>
  );
}

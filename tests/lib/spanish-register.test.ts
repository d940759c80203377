/**
 * The Spanish texts speak to the member as "tú" throughout (the register the product chose), never as
 * "usted": a page that switches register reads as written by someone else.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const dir = path.join(process.cwd(), 'public/locales/es');

function strings(value: unknown, at: string, out: [string, string][]) {
  if (typeof value === 'string') out.push([at, value]);
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) strings(v, at ? `${at}.${k}` : k, out);
  return out;
}

// "usted" itself, its possessive with things the member owns, and formal imperatives seen before.
const FORMAL = [
  /\busted(es)?\b/i,
  /\b[Ss]us? (enlace|cuenta|red|equipo|conexión|contraseña|correo|perfil|billetera|saldo|descendencia|datos|pedidos?)\b/,
  /\b(Compruebe|Cambie|Comparta|Pulse|pulse|Arrastre para|Pase el cursor|Inténtelo|inténtelo|Introduzca|Seleccione|Escriba|Revise|Contacte|contacte)\b/,
  // Further formal forms: imperatives and "le" addressing the member.
  /\b(Ingrese|ingrese|[Hh]aga clic|Confirme|Espere|[Vv]uelva a|Asegúrese|asegúrese|Regístrese|regístrese|Elija|Indique|Añada|Agregue|Utilice|Descargue|Recargue|Verifique|Toque|Acepte|Inicie sesión)\b/,
  /\b(le enviaremos|le enviamos|le hemos|le pedimos|le recomendamos|se le ha|le quedan?)\b/i,
];

describe('Spanish register', () => {
  const files = readdirSync(dir).filter((f) => f.endsWith('.json'));
  it.each(files)('%s addresses the member as tú', (file) => {
    const formal = strings(JSON.parse(readFileSync(path.join(dir, file), 'utf8')), '', []).filter(([, s]) => FORMAL.some((re) => re.test(s)));
    expect(formal).toEqual([]);
  });
});

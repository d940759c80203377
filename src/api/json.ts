/**
 * The answer's body as the client's JSON reading (ofetch's destr) gives it: the JSON value; the text
 * itself when it is not JSON; keys that could reach an object prototype dropped.
 */
export function readJson(text: string): unknown {
  if (text[0] === '"' && text[text.length - 1] === '"' && text.indexOf('\\') === -1) return text.slice(1, -1);
  const trimmed = text.trim();
  if (trimmed.length <= 9) {
    const words: Record<string, unknown> = {
      true: true,
      false: false,
      undefined: undefined,
      null: null,
      nan: Number.NaN,
      infinity: Number.POSITIVE_INFINITY,
      '-infinity': Number.NEGATIVE_INFINITY,
    };
    const lower = trimmed.toLowerCase();
    if (Object.hasOwn(words, lower)) return words[lower];
  }
  if (!JSON_SIG.test(text)) return text;
  try {
    if (SUSPECT_PROTO.test(text) || SUSPECT_CONSTRUCTOR.test(text)) return JSON.parse(text, dropPrototypeKeys);
    return JSON.parse(text);
  } catch {
    return text;
  }
}

const SUSPECT_PROTO = /"(?:_|\\u0{2}5[Ff]){2}(?:p|\\u0{2}70)(?:r|\\u0{2}72)(?:o|\\u0{2}6[Ff])(?:t|\\u0{2}74)(?:o|\\u0{2}6[Ff])(?:_|\\u0{2}5[Ff]){2}"\s*:/;
const SUSPECT_CONSTRUCTOR =
  /"(?:c|\\u0063)(?:o|\\u006[Ff])(?:n|\\u006[Ee])(?:s|\\u0073)(?:t|\\u0074)(?:r|\\u0072)(?:u|\\u0075)(?:c|\\u0063)(?:t|\\u0074)(?:o|\\u006[Ff])(?:r|\\u0072)"\s*:/;
const JSON_SIG = /^\s*["[{]|^\s*-?\d{1,16}(\.\d{1,17})?([Ee][+-]?\d+)?\s*$/;
const dropPrototypeKeys = (key: string, value: unknown) =>
  key === '__proto__' || (key === 'constructor' && value && typeof value === 'object' && 'prototype' in value) ? undefined : value;

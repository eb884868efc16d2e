// Dotted key paths of a nested config (lists are leaves), as the verl export's fixtures and checks compare them.
export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

/** `{a: {b: 1, c: [2]}}` → `{'a.b': 1, 'a.c': [2]}`; an empty mapping stays a leaf so its key is not lost. */
export function flattenKeys(obj: Record<string, unknown>, prefix = ''): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (v && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length)
      Object.assign(out, flattenKeys(v as Record<string, unknown>, key));
    else out[key] = v;
  }
  return out;
}

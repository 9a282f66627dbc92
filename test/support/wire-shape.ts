/*
 * Field-by-field comparison of an answer with a documented example (name, type, nesting), for the
 * wire-samples test: a documented field missing or of another type is a failure; extra keys are
 * allowed and listed. `null` in the example documents a field of unknown type (only its presence is
 * checked); `null` in the answer is a documented field with no value here (listed, not a failure).
 * An array is compared element by element against the example's first element.
 */

export interface ShapeReport {
  missing: string[];
  retyped: string[];
  extra: string[];
  nullHere: string[];
  notCompared: string[];
}

const kind = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

export function compareShape(example: unknown, answer: unknown, path = '', out: ShapeReport = { missing: [], retyped: [], extra: [], nullHere: [], notCompared: [] }): ShapeReport {
  const [ek, ak] = [kind(example), kind(answer)];
  if (ek === 'null') return out;
  if (ak === 'null') {
    out.nullHere.push(path || '(root)');
    return out;
  }
  if (ek !== ak) {
    out.retyped.push(`${path || '(root)'}: ${ek} documented, ${ak} answered`);
    return out;
  }
  if (ek === 'array') {
    const [first] = example as unknown[];
    const items = answer as unknown[];
    if (first === undefined) return out;
    if (items.length === 0) out.notCompared.push(`${path}[] (empty here)`);
    items.slice(0, 25).forEach((item, i) => compareShape(first, item, `${path}[${i}]`, out));
    return out;
  }
  if (ek === 'object') {
    const [e, a] = [example as Record<string, unknown>, answer as Record<string, unknown>];
    for (const key of Object.keys(e)) {
      const at = path ? `${path}.${key}` : key;
      if (!(key in a)) out.missing.push(at);
      else compareShape(e[key], a[key], at, out);
    }
    for (const key of Object.keys(a)) if (!(key in e)) out.extra.push(path ? `${path}.${key}` : key);
  }
  return out;
}

/** The report without repeats of the same field at other array positions (`data[3].x` as `data[].x`). */
export function collapsed(r: ShapeReport): ShapeReport {
  const norm = (list: string[]) => [...new Set(list.map((p) => p.replace(/\[\d+\]/g, '[]')))];
  return { missing: norm(r.missing), retyped: norm(r.retyped), extra: norm(r.extra), nullHere: norm(r.nullHere), notCompared: norm(r.notCompared) };
}

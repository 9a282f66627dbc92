import type { OpenApiDocument } from './openapi.types.js';

/*
 * GET /docs: the OpenAPI document rendered once into one self-contained HTML page (no script, no
 * font or stylesheet from elsewhere), so it works on a machine without internet access. It shows
 * what a client author needs: every operation with its parameters, body, answers, error codes,
 * security and examples, then every named schema.
 */

type Json = Record<string, unknown>;

const esc = (v: unknown) =>
  String(v).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The little Markdown the descriptions use: `code`, **bold**, paragraphs and pipe tables. */
function md(text: unknown): string {
  if (typeof text !== 'string' || text === '') return '';
  const inline = (s: string) => esc(s).replace(/`([^`]+)`/g, '<code>$1</code>').replace(/\*\*([^*]+)\*\*/g, '<b>$1</b>');
  const out: string[] = [];
  for (const block of text.split(/\n\s*\n/)) {
    const lines = block.split('\n').map((l) => l.trim());
    if (lines.every((l) => l.startsWith('|'))) {
      const cells = (l: string) => l.replace(/^\||\|$/g, '').split('|').map((c) => inline(c.trim()));
      const [head, , ...rows] = lines;
      out.push(`<table><tr>${cells(head ?? '').map((c) => `<th>${c}</th>`).join('')}</tr>${rows.map((r) => `<tr>${cells(r).map((c) => `<td>${c}</td>`).join('')}</tr>`).join('')}</table>`);
    } else {
      out.push(`<p>${inline(lines.join(' '))}</p>`);
    }
  }
  return out.join('');
}

const refName = (ref: string) => ref.split('/').pop() ?? ref;

function typeOf(s: Json): string {
  if (typeof s.$ref === 'string') return `<a href="#schema-${esc(refName(s.$ref))}">${esc(refName(s.$ref))}</a>`;
  const alts = (s.anyOf ?? s.oneOf) as Json[] | undefined;
  if (alts) return alts.map(typeOf).join(' | ');
  if (s.type === 'array') return `array of ${typeOf((s.items as Json | undefined) ?? {})}`;
  const t = Array.isArray(s.type) ? s.type.join(' | ') : typeof s.type === 'string' ? s.type : 'any';
  return esc(typeof s.format === 'string' ? `${t} (${s.format})` : t);
}

function constraints(s: Json): string {
  const parts: string[] = [];
  if (Array.isArray(s.enum)) parts.push(`one of ${s.enum.map((v) => `<code>${esc(JSON.stringify(v))}</code>`).join(', ')}`);
  if ('const' in s) parts.push(`always <code>${esc(JSON.stringify(s.const))}</code>`);
  for (const k of ['minimum', 'exclusiveMinimum', 'maximum', 'minLength', 'maxLength', 'minItems', 'maxItems', 'pattern', 'default']) {
    if (s[k] !== undefined) parts.push(`${k} <code>${esc(s[k])}</code>`);
  }
  const items = s.items as Json | undefined;
  if (s.type === 'array' && items && !items.$ref) parts.push(constraints(items));
  return parts.filter(Boolean).join('; ');
}

/** A schema as a table of its properties (nested objects indented), or one line for a scalar. */
function schemaHtml(s: Json | undefined, depth = 0): string {
  if (!s) return '';
  const props = s.properties as Record<string, Json> | undefined;
  if (!props) {
    const alts = (s.anyOf ?? s.oneOf) as Json[] | undefined;
    if (alts && depth === 0) return `<p>One of:</p>${alts.map((a) => schemaHtml(a, 1)).join('')}`;
    return `<p class="t">${typeOf(s)} ${constraints(s)}</p>${md(s.description)}`;
  }
  const required = new Set((s.required as string[] | undefined) ?? []);
  const rows = Object.entries(props).map(([name, p]) => {
    const inner = p.type === 'array' ? (p.items as Json | undefined) : p;
    const nested = inner?.properties && depth < 4 ? schemaHtml(inner, depth + 1) : '';
    return `<tr><td><code>${esc(name)}</code>${required.has(name) ? ' <span class="req">required</span>' : ''}</td><td class="t">${typeOf(p)}</td><td>${md(p.description)}${constraints(p) ? `<div class="c">${constraints(p)}</div>` : ''}${nested}</td></tr>`;
  });
  return `${depth === 0 ? md(s.description) : ''}<table class="schema"><tr><th>field</th><th>type</th><th>meaning</th></tr>${rows.join('')}</table>`;
}

const example = (v: unknown, open: boolean, label = 'example') =>
  v === undefined ? '' : `<details${open ? ' open' : ''}><summary>${esc(label)}</summary><pre>${esc(typeof v === 'string' ? v : JSON.stringify(v, null, 2))}</pre></details>`;

/** The error code(s) an error envelope schema allows, e.g. "code 13 or 14". */
function errorCodes(s: Json | undefined): string {
  const error = (s?.properties as Record<string, Json> | undefined)?.error;
  const code = (error?.properties as Record<string, Json> | undefined)?.code;
  return Array.isArray(code?.enum) ? `code ${code.enum.join(' or ')}` : '';
}

/**
 * A body or answer: a named schema is shown in full where it is used (an error envelope as its
 * name and code), with its examples; success examples open, error examples folded.
 */
function mediaHtml(content: Record<string, Json> | undefined, schemas: Record<string, Json>, success: boolean): string {
  return Object.entries(content ?? {})
    .map(([type, m]) => {
      const examples = m.examples as Record<string, { summary?: string; value: unknown }> | undefined;
      const shown = examples
        ? Object.values(examples).map((e) => example(e.value, success, `example: ${e.summary ?? ''}`)).join('')
        : example(m.example, success);
      const schema = m.schema as Json | undefined;
      const ref = typeof schema?.$ref === 'string' ? refName(schema.$ref) : undefined;
      const target = ref ? schemas[ref] : schema;
      const shape = ref && ref.endsWith('Error')
        ? `<p>${typeOf(schema ?? {})}: <code>{"error": {...}}</code>, ${esc(errorCodes(target))}</p>`
        : `${ref ? `<p class="c">schema ${typeOf(schema ?? {})}</p>` : ''}${schemaHtml(target)}`;
      return `<div class="media"><span class="mt">${esc(type)}</span>${shape}${shown}</div>`;
    })
    .join('');
}

function operationHtml(method: string, path: string, op: Json, schemas: Record<string, Json>): string {
  const id = esc(op.operationId ?? `${method}-${path}`);
  const params = (op.parameters as Json[] | undefined) ?? [];
  const security = (op.security as Record<string, string[]>[] | undefined) ?? [];
  // The scopes themselves are in the description; the security requirements repeat them per scheme.
  const auth = security.length === 0 ? 'No token.' : 'Token: the <code>access_token</code> query parameter or <code>Authorization: Bearer</code>.';
  const paramRows = params.map((p) => `<tr><td><code>${esc(p.name)}</code>${p.required ? ' <span class="req">required</span>' : ''}</td><td>${esc(p.in)}</td><td class="t">${typeOf((p.schema as Json | undefined) ?? {})}</td><td>${md(p.description)}${constraints((p.schema as Json | undefined) ?? {}) ? `<div class="c">${constraints(p.schema as Json)}</div>` : ''}${p.example !== undefined ? `<div class="c">e.g. <code>${esc(p.example)}</code></div>` : ''}</td></tr>`);
  const body = op.requestBody as Json | undefined;
  const responses = Object.entries((op.responses as Record<string, Json> | undefined) ?? {}).map(([status, r]) => {
    const headers = Object.keys((r.headers as Json | undefined) ?? {});
    return `<div class="resp"><h4><span class="st s${esc(status[0])}">${esc(status)}</span> ${md(r.description)}</h4>${headers.length ? `<div class="c">headers: ${headers.map((h) => `<code>${esc(h)}</code>`).join(', ')}</div>` : ''}${mediaHtml(r.content as Record<string, Json> | undefined, schemas, status.startsWith('2'))}</div>`;
  });
  return `<section class="op" id="${id}"><h3><span class="m ${esc(method)}">${esc(method.toUpperCase())}</span> <code>${esc(path)}</code> <small>${esc(op.summary ?? '')}</small></h3>
${md(op.description)}<p class="auth">${auth}</p>
${params.length ? `<h4>Parameters</h4><table><tr><th>name</th><th>in</th><th>type</th><th>meaning</th></tr>${paramRows.join('')}</table>` : ''}
${body ? `<h4>Body</h4>${mediaHtml(body.content as Record<string, Json> | undefined, schemas, true)}` : ''}
<h4>Answers</h4>${responses.join('')}</section>`;
}

const style = `body{font:15px/1.5 system-ui,sans-serif;margin:0;color:#1d2330;display:flex}
nav{position:sticky;top:0;height:100vh;overflow:auto;width:270px;flex:none;background:#f4f6fa;border-right:1px solid #dde2ec;padding:16px;box-sizing:border-box;font-size:14px}
nav a{display:block;color:#1d2330;text-decoration:none;padding:2px 0}nav b{display:block;margin-top:12px}
main{padding:24px 40px;max-width:1100px;min-width:0}h1{margin-top:0}code{background:#eef1f6;padding:0 4px;border-radius:3px;font-size:90%}
table{border-collapse:collapse;margin:8px 0;width:100%}td,th{border:1px solid #dde2ec;padding:4px 8px;text-align:left;vertical-align:top}th{background:#f4f6fa}
.op{border-top:2px solid #dde2ec;padding-top:8px;margin-top:28px}.m{color:#fff;border-radius:4px;padding:2px 8px;font-size:13px}
.get{background:#2f7d32}.post{background:#1f5fbf}.st{border-radius:4px;padding:1px 6px;color:#fff;font-size:13px}.s2{background:#2f7d32}.s4{background:#b26a00}.s5{background:#b3261e}
.req{color:#b3261e;font-size:12px}.t{white-space:nowrap;font-family:monospace}.c{color:#555;font-size:13px}.auth{color:#444;font-style:italic}
pre{background:#1d2330;color:#e8ecf4;padding:10px;border-radius:4px;overflow:auto;font-size:13px}.mt{color:#666;font-size:12px}
.resp{margin-left:12px}.resp h4{margin:14px 0 4px}table.schema table.schema{margin:4px 0}`;

export function renderDocsPage(doc: OpenApiDocument): string {
  const d = doc as unknown as Json;
  const info = d.info as Json;
  const paths = d.paths as Record<string, Record<string, Json>>;
  const ops = Object.entries(paths).flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ method, path, op })));
  const tags = ((d.tags as Json[] | undefined) ?? []).map((t) => String(t.name));
  const nav = tags
    .map((tag) => `<b>${esc(tag)}</b>${ops.filter((o) => (o.op.tags as string[] | undefined)?.includes(tag)).map((o) => `<a href="#${esc(o.op.operationId)}">${esc(o.method.toUpperCase())} ${esc(o.path)}</a>`).join('')}`)
    .join('');
  const named = ((d.components as Json | undefined)?.schemas as Record<string, Json> | undefined) ?? {};
  const schemas = Object.entries(named);
  const body = tags
    .map((tag) => `<h2>${esc(tag)}</h2>${ops.filter((o) => (o.op.tags as string[] | undefined)?.includes(tag)).map((o) => operationHtml(o.method, o.path, o.op, named)).join('')}`)
    .join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(info.title)} ${esc(info.version)}</title><style>${style}</style></head><body>
<nav><b>${esc(info.title)} <small>${esc(info.version)}</small></b><a href="/openapi.json">openapi.json</a>${nav}<b>Schemas</b>${schemas.map(([n]) => `<a href="#schema-${esc(n)}">${esc(n)}</a>`).join('')}</nav>
<main><h1>${esc(info.title)} <small>${esc(info.version)}</small></h1><p>OpenAPI ${esc(d.openapi)} · <a href="/openapi.json">/openapi.json</a></p>${md(info.description)}
${body}<h2>Schemas</h2>${schemas.map(([n, s]) => `<section id="schema-${esc(n)}"><h3>${esc(n)}</h3>${schemaHtml(s)}</section>`).join('')}</main></body></html>`;
}

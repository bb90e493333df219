import type { OpenApiObject as Json } from '@xle/core';

const escape = (text: unknown): string =>
  String(text ?? '').replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

/** A self-contained HTML page rendering the OpenAPI document (no scripts, no CDN). */
export function renderDocsPage(openapi: Json): string {
  const info = openapi.info as { title: string; version: string; description: string };
  const byTag = new Map<string, string[]>();
  for (const [path, methods] of Object.entries(openapi.paths as Record<string, Record<string, Json>>)) {
    for (const [method, op] of Object.entries(methods)) {
      const params = ((op.parameters as Json[] | undefined) ?? [])
        .map((p) => {
          const schema = (p.schema ?? {}) as Json;
          const constraint = [
            schema.type,
            schema.pattern === undefined ? '' : `pattern ${schema.pattern}`,
            schema.minimum === undefined ? '' : `min ${schema.minimum}`,
            schema.maximum === undefined ? '' : `max ${schema.maximum}`,
            schema.default === undefined ? '' : `default ${schema.default}`,
          ]
            .filter((x) => x !== undefined && x !== '')
            .join(', ');
          return `<tr><td><code>${escape(p.name)}</code></td><td>${escape(p.in)}${p.required === true ? ', required' : ''}</td><td>${escape(constraint)}</td><td>${escape(p.description)}</td></tr>`;
        })
        .join('');
      const tag = ((op.tags as string[] | undefined) ?? ['Other'])[0] ?? 'Other';
      const html = `<section id="${escape(op.operationId)}"><h3><span class="m">${escape(method.toUpperCase())}</span> <code>${escape(path)}</code></h3><p>${escape(op.summary)}</p>${op.description === undefined ? '' : `<p class="note">${escape(op.description)}</p>`}${params === '' ? '' : `<table><tr><th>Parameter</th><th>In</th><th>Schema</th><th>Meaning</th></tr>${params}</table>`}</section>`;
      byTag.set(tag, [...(byTag.get(tag) ?? []), html]);
    }
  }
  const sections = [...byTag].map(([tag, ops]) => `<h2>${escape(tag)}</h2>${ops.join('')}`).join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escape(info.title)}</title><style>body{font:15px/1.5 system-ui,sans-serif;max-width:960px;margin:2em auto;padding:0 1em;color:#1b1b1b}code{font:13px ui-monospace,monospace}h3{margin:1.4em 0 .2em}.m{background:#2d6cdf;color:#fff;border-radius:3px;padding:0 .4em;font-size:12px}table{border-collapse:collapse;width:100%;font-size:13px}td,th{border-bottom:1px solid #ddd;padding:.3em;text-align:left;vertical-align:top}.note{color:#8a5a00}</style></head><body><h1>${escape(info.title)} <small>${escape(info.version)}</small></h1><p>${escape(info.description)}</p><p>Machine-readable: <a href="/api/v1/openapi.json">/api/v1/openapi.json</a> (OpenAPI 3.1). Every error is <code>{"error": {"code", "message", "details"}}</code>.</p>${sections}</body></html>`;
}

import { readFileSync } from 'node:fs';
import { templatesDir } from '@xle/core';

/**
 * The amount-like fields: exactly the top-level properties of the shared amount component
 * (index-templates/components/amount.json), so the mapping and the transform cannot disagree.
 */
export function loadAmountFields(dir: string = templatesDir): readonly string[] {
  const component = JSON.parse(readFileSync(`${dir}/components/amount.json`, 'utf8')) as {
    template: { mappings: { properties: Record<string, unknown> } };
  };
  return Object.keys(component.template.mappings.properties).filter((name) => name !== 'meta');
}

export const AMOUNT_FIELDS: readonly string[] = loadAmountFields();

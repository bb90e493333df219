import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The committed amount component, whether this runs from packages/documents/src or its dist/src. */
const AMOUNT_COMPONENT = fileURLToPath(
  new URL(
    `${import.meta.url.includes('/dist/') ? '../../../../' : '../../../'}index-templates/components/amount.json`,
    import.meta.url,
  ),
);

/**
 * The amount-like fields: exactly the top-level properties of the shared amount component
 * (index-templates/components/amount.json), so the mapping and the transform cannot disagree.
 */
export function loadAmountFields(file: string = AMOUNT_COMPONENT): readonly string[] {
  const component = JSON.parse(readFileSync(file, 'utf8')) as {
    template: { mappings: { properties: Record<string, unknown> } };
  };
  return Object.keys(component.template.mappings.properties).filter((name) => name !== 'meta');
}

export const AMOUNT_FIELDS: readonly string[] = loadAmountFields();

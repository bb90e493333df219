import { decodeHexText } from '@xle/documents';

/** One memo field: its hex as stored and, when the bytes are readable UTF-8, their text. */
export interface MemoField {
  hex: string;
  text?: string;
}

export interface MemoView {
  type?: MemoField;
  data?: MemoField;
  format?: MemoField;
}

function field(hex: unknown): MemoField | undefined {
  if (typeof hex !== 'string') return undefined;
  const text = decodeHexText(hex);
  return text === undefined ? { hex } : { hex, text };
}

/** A transaction's memos, each field decoded to text where it is text (pure). */
export function memosOf(tx: Record<string, unknown>): MemoView[] {
  const memos = Array.isArray(tx.Memos) ? (tx.Memos as unknown[]) : [];
  return memos.flatMap((entry) => {
    const memo = (entry as { Memo?: Record<string, unknown> } | null)?.Memo;
    if (memo === undefined || memo === null) return [];
    const view: MemoView = {};
    const type = field(memo.MemoType);
    const data = field(memo.MemoData);
    const format = field(memo.MemoFormat);
    if (type !== undefined) view.type = type;
    if (data !== undefined) view.data = data;
    if (format !== undefined) view.format = format;
    return [view];
  });
}

/** A knowledge source as the API shows it (list items; `text` and `pageList` in a detail). */
export type SourceItem = {
  id: string;
  type: string;
  title: string;
  status: string;
  error: string | null;
  chars: number;
  created_at: string;
  updated_at: string;
  filename?: string;
  contentType?: string;
  bytes?: number;
  url?: string;
  pages?: { done: number; failed: number; total: number };
  question?: string;
  answer?: string;
  text?: string;
  pageList?: { url: string; title: string; status: string; chars: number; reason?: string }[];
};

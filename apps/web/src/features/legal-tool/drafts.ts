/**
 * Unsaved texts of templates, by template id: the detail page's tabs unmount the editor when
 * another tab opens, and what was typed must still be there when it comes back. The page asks
 * before leaving while a draft exists and forgets them when it goes.
 */
import type { TemplateTexts } from '@backoffice/core/legal';
import { create } from 'zustand';

export interface Draft {
  texts: TemplateTexts;
  /** The version the texts started from (null: the template had none). */
  base: number | null;
  comment: string;
}

interface Drafts {
  drafts: Record<number, Draft>;
  put: (templateId: number, draft: Draft) => void;
  drop: (templateId: number) => void;
  clear: () => void;
}

export const useDrafts = create<Drafts>((set) => ({
  drafts: {},
  put: (templateId, draft) => set((s) => ({ drafts: { ...s.drafts, [templateId]: draft } })),
  drop: (templateId) =>
    set((s) => {
      const { [templateId]: _gone, ...rest } = s.drafts;
      return { drafts: rest };
    }),
  clear: () => set({ drafts: {} }),
}));

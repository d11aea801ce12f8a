/**
 * The code view's grammars, each loaded when a view first needs it (a VAST builder never
 * downloads the JavaScript grammar). Part of the lazy CodeMirror code: import it only from
 * code-editor.tsx and compare-view.tsx.
 */
import type { BuilderLanguage } from '@backoffice/core/builders/common';
import type { Extension } from '@codemirror/state';

const loaded = new Map<BuilderLanguage, Promise<Extension>>();

function load(language: BuilderLanguage): Promise<Extension> {
  switch (language) {
    case 'json':
      return import('@codemirror/lang-json').then((m) => m.json());
    case 'javascript':
      return import('@codemirror/lang-javascript').then((m) => m.javascript());
    case 'xml':
    case 'html':
      // No HTML grammar is installed: a tag snippet's tags highlight as XML.
      return import('@codemirror/lang-xml').then((m) => m.xml());
  }
}

/** The grammar of a language (the same promise for every view). */
export function languageExtension(language: BuilderLanguage): Promise<Extension> {
  let p = loaded.get(language);
  if (!p) {
    p = load(language).catch((err: unknown) => {
      loaded.delete(language);
      throw err;
    });
    loaded.set(language, p);
  }
  return p;
}

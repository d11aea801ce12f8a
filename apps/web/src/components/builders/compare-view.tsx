/**
 * Compare two saved versions (loaded lazily with CodeMirror): their code side by side with
 * @codemirror/merge's MergeView (read-only, changes highlighted; one unified view under 768 px,
 * where two columns would not fit), and the configuration paths that changed.
 */
import type { BuilderCompareAnswer, BuilderLanguage } from '@backoffice/core/builders/common';
import { MergeView, unifiedMergeView } from '@codemirror/merge';
import { EditorState, type Extension } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { basicSetup } from 'codemirror';
import { Empty, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../lib/session-store.ts';
import { useViewport } from '../../lib/use-viewport.ts';
import { languageExtension } from './code-languages.ts';
import { codeTheme } from './code-theme.ts';

export interface CompareViewProps {
  answer: BuilderCompareAnswer;
  language: BuilderLanguage;
  testId: string;
}

export default function CompareView({ answer, language, testId }: CompareViewProps) {
  const { t } = useTranslation();
  const host = useRef<HTMLDivElement>(null);
  const dark = useSession((s) => s.theme === 'dark');
  const { isMobile } = useViewport();
  const labelA = t('builders.version_label', { number: answer.a.number, name: answer.a.name });
  const labelB = t('builders.version_label', { number: answer.b.number, name: answer.b.name });
  const [grammar, setGrammar] = useState<Extension>([]);
  useEffect(() => {
    let live = true;
    languageExtension(language).then(
      (ext) => live && setGrammar(ext),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [language]);

  useEffect(() => {
    const parent = host.current;
    if (!parent) return;
    const common = (label: string): Extension[] => [
      basicSetup,
      EditorView.lineWrapping,
      grammar,
      codeTheme(dark),
      EditorState.readOnly.of(true),
      EditorView.editable.of(false),
      EditorView.contentAttributes.of({ 'aria-label': label, tabindex: '0' }),
    ];
    if (isMobile) {
      const view = new EditorView({
        parent,
        state: EditorState.create({ doc: answer.b.code ?? '', extensions: [...common(`${labelA} → ${labelB}`), unifiedMergeView({ original: answer.a.code ?? '', mergeControls: false, gutter: true })] }),
      });
      return () => view.destroy();
    }
    const merge = new MergeView({
      parent,
      a: { doc: answer.a.code ?? '', extensions: common(labelA) },
      b: { doc: answer.b.code ?? '', extensions: common(labelB) },
      gutter: true,
      highlightChanges: true,
    });
    return () => merge.destroy();
  }, [answer, grammar, dark, isMobile, labelA, labelB]);

  return (
    <div className="bo-builder-compare" data-testid={`${testId}-compare-view`}>
      <section aria-labelledby={`${testId}-changed-title`}>
        <Typography.Title level={3} id={`${testId}-changed-title`} className="bo-builder-compare__title">
          {t('builders.compare_changed')}
        </Typography.Title>
        {answer.changed_paths.length === 0 ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('builders.compare_changed_none')} />
        ) : (
          <ul className="bo-builder-compare__paths" data-testid={`${testId}-changed-paths`}>
            {answer.changed_paths.map((p) => (
              <li key={p}>
                <code>{p === '' ? t('builders.compare_root') : p}</code>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby={`${testId}-diff-title`}>
        <Typography.Title level={3} id={`${testId}-diff-title`} className="bo-builder-compare__title">
          {t('builders.compare_code')}
        </Typography.Title>
        {isMobile ? null : (
          <div className="bo-builder-compare__heads" aria-hidden="true">
            <span>{labelA}</span>
            <span>{labelB}</span>
          </div>
        )}
        <div ref={host} className="bo-builder-compare__diff" data-testid={`${testId}-diff`} />
      </section>
    </div>
  );
}

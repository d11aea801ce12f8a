/**
 * A template's text (the "Text and versions" tab): titles and bodies in English and Spanish, the
 * placeholder picker that inserts `{{key}}` where the cursor was, the problems of the text as it is
 * typed (the API checks the same with core's `templateIssues`), and saving it as the next version
 * with a comment. Another person's save meanwhile answers 409: load theirs or keep editing over it.
 */
import {
  LEGAL_LANGUAGES,
  PLACEHOLDERS,
  PLACEHOLDER_GROUPS,
  placeholderToken,
  templateIssues,
  type LegalLanguage,
  type TemplateTexts,
  type TemplateVersionDto,
} from '@backoffice/core/legal';
import { Alert, App, Button, Form, Input, Select, Space, Spin, Tabs, Typography } from 'antd';
import type { TextAreaRef } from 'antd/es/input/TextArea';
import { useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNotice } from '../../components/use-notice.ts';
import { errorText, isSessionError } from '../../lib/api.ts';
import { FetchError } from '../../lib/fetch-client.ts';
import { usePermission } from '../../lib/permission.tsx';
import { useDrafts, type Draft } from './drafts.ts';
import { useLegalMutations, useVersion } from './legal-api.ts';
import { VersionsPanel } from './versions-panel.tsx';

const EMPTY: TemplateTexts = { title_en: '', title_es: '', body_en: '', body_es: '' };
const textsOf = (v: TemplateVersionDto | null | undefined): TemplateTexts =>
  v ? { title_en: v.title_en, title_es: v.title_es, body_en: v.body_en, body_es: v.body_es } : EMPTY;
const same = (a: TemplateTexts, b: TemplateTexts) =>
  a.title_en === b.title_en &&
  a.title_es === b.title_es &&
  a.body_en === b.body_en &&
  a.body_es === b.body_es;

type FieldName = keyof TemplateTexts;

/** The placeholder picker: every placeholder by group, with what it is. */
export function PlaceholderPicker({
  onPick,
  disabled,
}: {
  onPick: (key: string) => void;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  const [value, setValue] = useState<string | null>(null);
  const options = PLACEHOLDER_GROUPS.map((group) => ({
    label: t(`legal.placeholder_group.${group}`),
    title: t(`legal.placeholder_group.${group}`),
    options: PLACEHOLDERS.filter((p) => p.group === group).map((p) => ({
      value: p.key,
      label: `${t(`legal.placeholder.${p.key}`)} · ${placeholderToken(p.key)}`,
    })),
  }));
  return (
    <Select
      showSearch={{ optionFilterProp: 'label' }}
      className="bo-legal-picker"
      placeholder={t('legal.editor.insert_placeholder')}
      aria-label={t('legal.editor.insert_placeholder')}
      options={options}
      value={value}
      disabled={disabled}
      data-testid="legal-placeholder-picker"
      onChange={(key: string) => {
        onPick(key);
        setValue(null);
      }}
    />
  );
}

export function TemplateEditor({
  templateId,
  currentVersion,
}: {
  templateId: number;
  currentVersion: number | null;
}) {
  const { t } = useTranslation();
  const notice = useNotice();
  const { modal } = App.useApp();
  const canWrite = usePermission('/v1/legal', 'write');
  const current = useVersion(templateId, currentVersion);
  const { saveVersion } = useLegalMutations(templateId);
  const draft = useDrafts((s) => s.drafts[templateId] ?? null);
  const put = useDrafts((s) => s.put);
  const drop = useDrafts((s) => s.drop);
  const [commentError, setCommentError] = useState<string | null>(null);
  const [language, setLanguage] = useState<LegalLanguage>('en');
  const [saving, setSaving] = useState(false);
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const refs = useRef<Partial<Record<FieldName, TextAreaRef | null>>>({});
  const lastField = useRef<FieldName>('body_en');
  const caret = useRef<Partial<Record<FieldName, number>>>({});
  const ready = currentVersion === null || current.isSuccess;

  // The current version's texts; what is typed lives in the draft until it is saved or discarded.
  const loaded =
    currentVersion !== null && current.data?.number === currentVersion ? textsOf(current.data) : EMPTY;
  const texts = draft?.texts ?? loaded;
  const base = draft ? draft.base : currentVersion;
  const comment = draft?.comment ?? '';
  const dirty = draft !== null && !same(draft.texts, loaded);
  const issues = useMemo(() => templateIssues(texts), [texts]);

  const update = (change: Partial<Draft>) => {
    const next = { texts, base, comment, ...change };
    // Back to the current version's text: nothing left to lose.
    if (same(next.texts, loaded) && next.comment.trim() === '' && next.base === currentVersion)
      drop(templateId);
    else put(templateId, next);
  };
  const set = (field: FieldName, value: string) => {
    update({ texts: { ...texts, [field]: value } });
    setServerErrors((prev) => {
      const { [field]: _gone, ...rest } = prev;
      return rest;
    });
  };
  const setComment = (value: string) => update({ comment: value });

  const remember = (field: FieldName) => {
    lastField.current = field;
    const el =
      refs.current[field]?.resizableTextArea?.textArea ??
      (document.getElementById(`legal-${field}`) as HTMLInputElement | null);
    if (el && typeof el.selectionStart === 'number') caret.current[field] = el.selectionStart;
  };

  const insert = (key: string) => {
    // Into the field last used in the language shown (its body when that was another language's).
    const field: FieldName = lastField.current.endsWith(`_${language}`)
      ? lastField.current
      : (`body_${language}` as FieldName);
    const value = texts[field];
    const at = Math.min(caret.current[field] ?? value.length, value.length);
    const token = placeholderToken(key);
    set(field, value.slice(0, at) + token + value.slice(at));
    caret.current[field] = at + token.length;
    lastField.current = field;
    requestAnimationFrame(() => {
      const el = field.startsWith('body')
        ? refs.current[field]?.resizableTextArea?.textArea
        : (document.getElementById(`legal-${field}`) as HTMLInputElement | null);
      if (!el) return;
      el.focus();
      el.setSelectionRange(at + token.length, at + token.length);
    });
  };

  const save = async () => {
    if (comment.trim() === '') {
      setCommentError('legal.comment_required');
      return;
    }
    setSaving(true);
    try {
      const saved = await saveVersion({ ...texts, comment: comment.trim(), base_version: base });
      drop(templateId);
      void notice.success(t('legal.version_saved_number', { number: saved.number }));
    } catch (error) {
      if (isSessionError(error)) return;
      if (error instanceof FetchError && error.httpStatus === 409) {
        const theirs =
          (error.details.body as { data?: { current?: TemplateVersionDto | null } } | undefined)?.data
            ?.current ?? null;
        modal.confirm({
          title: t('legal.conflict_title'),
          content: t('legal.conflict_body', {
            number: theirs?.number ?? '?',
            name: theirs?.author.name ?? t('resource.nobody'),
          }),
          okText: t('legal.conflict_load'),
          cancelText: t('legal.conflict_keep'),
          okButtonProps: { id: 'legal-conflict-load' },
          onOk: () => put(templateId, { texts: textsOf(theirs), base: theirs?.number ?? null, comment }),
          // Keep mine: the next save goes over theirs (which stays among the versions).
          onCancel: () => update({ base: theirs?.number ?? null }),
        });
        return;
      }
      if (error instanceof FetchError && error.details.errors) setServerErrors(error.details.errors);
      if (error instanceof FetchError && error.details.errors?.comment)
        setCommentError(error.details.errors.comment);
      void notice.error(errorText(error));
    } finally {
      setSaving(false);
    }
  };

  if (!ready)
    return current.isError ? <Alert type="error" showIcon title={errorText(current.error)} /> : <Spin />;

  const fieldIssue = (field: FieldName) => {
    const [kind, lang] = field.split('_') as ['title' | 'body', LegalLanguage];
    const own = issues.find((i) => i.field === kind && i.language === lang);
    const key = own?.key ?? serverErrors[field];
    return key ? t(key, { placeholder: own?.placeholder ?? '' }) : null;
  };

  const languageTab = (lang: LegalLanguage) => {
    const titleField = `title_${lang}` as FieldName;
    const bodyField = `body_${lang}` as FieldName;
    const titleIssue = fieldIssue(titleField);
    const bodyIssue = fieldIssue(bodyField);
    return (
      <div className="bo-legal-editor__fields">
        <Form.Item
          label={t('legal.editor.title')}
          htmlFor={`legal-${titleField}`}
          validateStatus={titleIssue ? 'error' : undefined}
          help={titleIssue}
          layout="vertical"
        >
          <Input
            id={`legal-${titleField}`}
            value={texts[titleField]}
            disabled={!canWrite}
            maxLength={200}
            onChange={(e) => set(titleField, e.target.value)}
            onSelect={() => remember(titleField)}
            onFocus={() => remember(titleField)}
            data-testid={`legal-${titleField}`}
          />
        </Form.Item>
        <Form.Item
          label={t('legal.editor.body')}
          htmlFor={`legal-${bodyField}`}
          validateStatus={bodyIssue ? 'error' : undefined}
          help={bodyIssue ?? t('legal.editor.syntax_help')}
          layout="vertical"
        >
          <Input.TextArea
            id={`legal-${bodyField}`}
            ref={(el) => {
              refs.current[bodyField] = el;
            }}
            className="bo-legal-editor__body"
            value={texts[bodyField]}
            disabled={!canWrite}
            autoSize={{ minRows: 12, maxRows: 28 }}
            spellCheck
            onChange={(e) => set(bodyField, e.target.value)}
            onSelect={() => remember(bodyField)}
            onFocus={() => remember(bodyField)}
            onKeyUp={() => remember(bodyField)}
            onClick={() => remember(bodyField)}
            data-testid={`legal-${bodyField}`}
          />
        </Form.Item>
      </div>
    );
  };

  const langName = (l: LegalLanguage) => t(`legal.document.language.${l}`);
  const fieldName = (field: 'title' | 'body', l: LegalLanguage) =>
    `${t(field === 'title' ? 'legal.editor.title' : 'legal.editor.body')} (${langName(l)})`;

  return (
    <div className="bo-legal-editor" data-testid="legal-editor">
      {currentVersion === null ? (
        <Alert type="info" showIcon title={t('legal.editor.first_version')} className="bo-legal-gap" />
      ) : null}
      <div className="bo-legal-editor__toolbar">
        <PlaceholderPicker onPick={insert} disabled={!canWrite} />
        <Typography.Text type="secondary">{t('legal.editor.picker_help')}</Typography.Text>
      </div>
      <Tabs
        activeKey={language}
        onChange={(k) => setLanguage(k as LegalLanguage)}
        items={LEGAL_LANGUAGES.map((l) => ({
          key: l,
          label: langName(l),
          children: languageTab(l),
          forceRender: true,
        }))}
      />
      {issues.length > 0 ? (
        <Alert
          type="error"
          showIcon
          className="bo-legal-gap"
          data-testid="legal-issues"
          title={t('legal.editor.issues', { count: issues.length })}
          description={
            <ul className="bo-legal-issues">
              {issues.slice(0, 20).map((i, n) => (
                <li key={n}>
                  {t('legal.editor.issue_at', { field: fieldName(i.field, i.language), line: i.line })}:{' '}
                  {t(i.key, { placeholder: i.placeholder ?? '' })}
                </li>
              ))}
            </ul>
          }
        />
      ) : null}
      {canWrite ? (
        <div className="bo-legal-editor__save">
          <Form.Item
            label={t('legal.editor.comment')}
            htmlFor="legal-comment"
            validateStatus={commentError ? 'error' : undefined}
            help={commentError ? t(commentError) : t('legal.editor.comment_help')}
            layout="vertical"
            className="bo-legal-editor__comment"
          >
            <Input
              id="legal-comment"
              value={comment}
              maxLength={300}
              onChange={(e) => {
                setComment(e.target.value);
                setCommentError(null);
              }}
              data-testid="legal-comment"
            />
          </Form.Item>
          <Space wrap>
            <Button
              type="primary"
              onClick={() => void save()}
              loading={saving}
              disabled={!dirty || issues.length > 0}
              data-testid="legal-save-version"
            >
              {t('legal.editor.save')}
            </Button>
            <Button onClick={() => drop(templateId)} disabled={!dirty || saving} data-testid="legal-discard">
              {t('legal.editor.discard')}
            </Button>
          </Space>
        </div>
      ) : null}
      <VersionsPanel templateId={templateId} currentVersion={currentVersion} dirty={dirty} />
    </div>
  );
}

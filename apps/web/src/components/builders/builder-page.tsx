/**
 * The screen every builder shares (issue 25; docs/decisions/037-builders.md): the builder's form
 * and the code view side by side (stacked under 1200 px), kept in sync by builder-state.ts; the
 * issues of the builder's rules and of the code's syntax at once, and the standard's validator's
 * from the API (debounced POST render), marked in the code and listed under it (an issue takes
 * you to its line or its field); copy and download; a subject to save named versions for, the
 * versions drawer (load, delete, pick two to compare) and the comparison (lazy, with CodeMirror).
 * A builder brings its definition, its form, and optionally a preview and extra toolbar actions.
 */
import { AppstoreOutlined, CopyOutlined, DownloadOutlined, HistoryOutlined, ReloadOutlined, SaveOutlined } from '@ant-design/icons';
import { BUILDER_PERMISSION, type BuilderIssue, type BuilderSubject, type BuilderVersionDto } from '@backoffice/core/builders/common';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Dropdown, Modal, Skeleton, Space, Tag, Tooltip, Typography } from 'antd';
import { lazy, Suspense, useEffect, useId, useMemo, useReducer, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNotice } from '../../components/use-notice.ts';
import { errorText, isSessionError } from '../../lib/api.ts';
import { saveBlob } from '../../lib/download.ts';
import { usePermission } from '../../lib/permission.tsx';
import { useDebouncedValue } from '../../lib/use-debounced-value.ts';
import { useUrlState } from '../../lib/use-url-state.ts';
import { useViewport } from '../../lib/use-viewport.ts';
import { Page } from '../../shell/page.tsx';
import { builderReducer, configSchemaIssues, currentIssues, initialBuilderState, isDirty, issueCounts, renderRequest } from './builder-state.ts';
import { fetchVersion, useCompare, useServerCheck, useSubjects, versionsKey } from './builders-api.ts';
import { CodeView, type CodeViewHandle } from './code-view.tsx';
import { findFieldElement } from './field-issue.ts';
import { IssuesList } from './issues-list.tsx';
import { useLeaveGuard } from './use-leave-guard.ts';
import { SaveVersionModal } from './save-version-modal.tsx';
import { SubjectPicker } from './subject-picker.tsx';
import type { BuilderCommands, BuilderPageProps, BuilderSubjectRef } from './types.ts';
import { VersionsDrawer } from './versions-drawer.tsx';
import './builders.css';

const CompareView = lazy(() => import('./compare-view.tsx'));

/** How long the code or configuration must stay the same before the API checks it. */
export const SERVER_CHECK_DEBOUNCE_MS = 400;

const idParam = (v: string | null) => (v && /^[1-9]\d{0,9}$/.test(v) ? Number(v) : null);

export function BuilderPage<C>({ definition: def, titleKey, introKey, Form: BuilderForm, Preview, extraActions, testId = def.kind, validKey, validParams }: BuilderPageProps<C>) {
  const { t } = useTranslation();
  const notice = useNotice();
  const { modal } = App.useApp();
  const queries = useQueryClient();
  const { isMobile } = useViewport();
  const canWrite = usePermission(BUILDER_PERMISSION[def.kind], 'write');
  const reducer = useMemo(() => builderReducer(def), [def]);
  const [state, dispatch] = useReducer(reducer, def, (d) => initialBuilderState(d));
  const [params, updateUrl] = useUrlState();
  const uid = useId().replace(/:/g, '');
  const codeHandle = useRef<CodeViewHandle | null>(null);
  const formBox = useRef<HTMLDivElement>(null);

  // The subject: from the URL (a link reproduces the view), else the builder's first kind.
  const [subjectType, setSubjectType] = useState<BuilderSubject>(() => {
    const fromUrl = params.get('subject_type');
    return def.subjects.find((s) => s === fromUrl) ?? def.subjects[0] ?? 'none';
  });
  const [picked, setPicked] = useState<BuilderSubjectRef | null>(() => {
    const id = idParam(params.get('subject_id'));
    return id !== null && subjectType !== 'none' ? { type: subjectType, id, name: null } : null;
  });
  const named = useSubjects(def.kind, picked && picked.name === null ? picked.type : null, '', picked?.id ?? null);
  useEffect(() => {
    const found = named.data?.find((s) => s.id === picked?.id);
    if (picked && picked.name === null && found) setPicked({ ...picked, name: found.name });
  }, [named.data, picked]);
  const subject: BuilderSubjectRef | null = subjectType === 'none' ? { type: 'none', id: null, name: null } : picked;
  useEffect(() => {
    updateUrl({ subject_type: subjectType === def.subjects[0] ? null : subjectType, subject_id: subject?.id ? String(subject.id) : null });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the URL follows the subject only
  }, [subjectType, subject?.id]);

  // The standard's check by the API, for the text or configuration as it is now.
  const request = useMemo(() => renderRequest(state), [state]);
  const requestKey = request === null ? null : JSON.stringify(request);
  const checkedKey = useDebouncedValue(requestKey, SERVER_CHECK_DEBOUNCE_MS);
  const checkedBody = useMemo(() => (checkedKey === null ? null : (JSON.parse(checkedKey) as typeof request)), [checkedKey]);
  const check = useServerCheck(def.kind, checkedBody);
  const fresh = requestKey !== null && checkedKey === requestKey && !check.isFetching;
  const standard = useMemo<BuilderIssue[]>(() => (fresh && check.data ? check.data.issues.filter((i) => i.source === 'schema') : []), [fresh, check.data]);
  const checking = requestKey !== null && (checkedKey !== requestKey || check.isFetching);
  const issues = useMemo(() => currentIssues(state, standard), [state, standard]);
  const { errors } = issueCounts(issues);
  const dirty = isDirty(state);
  useLeaveGuard(canWrite && dirty);

  const [versionsOpen, setVersionsOpen] = useState(false);
  const [saveOpen, setSaveOpen] = useState(false);
  const [suggestedName, setSuggestedName] = useState('');
  const [comparing, setComparing] = useState<[BuilderVersionDto, BuilderVersionDto] | null>(null);
  const compare = useCompare(def.kind, comparing?.[0].id ?? null, comparing?.[1].id ?? null);

  /** Runs `replace` at once, or after asking when there are unsaved changes. */
  const afterConfirm = (replace: () => void) => {
    if (!(canWrite && dirty)) return replace();
    modal.confirm({
      title: t('resource.unsaved_title'),
      content: t('resource.unsaved_body'),
      okText: t('resource.unsaved_leave'),
      cancelText: t('resource.unsaved_stay'),
      okButtonProps: { danger: true },
      onOk: replace,
    });
  };

  const loadVersion = async (v: BuilderVersionDto, announce = true) => {
    try {
      const full = v.code === undefined ? await fetchVersion(def.kind, v.id) : v;
      const checked = configSchemaIssues(def, full.config);
      // A version saved under an older schema: its code is read as if typed (the form follows when it can).
      if (checked.config !== undefined) dispatch({ type: 'load', config: checked.config, clean: true });
      else dispatch({ type: 'code', code: full.code ?? '' });
      setSubjectType(full.subject_type);
      setPicked(full.subject_type === 'none' || full.subject_id === null ? null : { type: full.subject_type, id: full.subject_id, name: full.subject_name });
      setSuggestedName(full.name);
      updateUrl({ version: String(full.id) });
      setVersionsOpen(false);
      if (announce) void notice.success(t('builders.version_loaded', { number: full.number, name: full.name }));
    } catch (error) {
      if (!isSessionError(error)) void notice.error(t('builders.load_failed', { message: errorText(error) }));
    }
  };

  // A link with ?version= opens that version.
  const initialVersion = useRef(idParam(params.get('version')));
  useEffect(() => {
    const id = initialVersion.current;
    if (id === null) return;
    initialVersion.current = null;
    void loadVersion({ id } as BuilderVersionDto, false);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, on arrival
  }, []);

  const commands: BuilderCommands<C> = {
    setConfig: (config) => dispatch({ type: 'load', config, clean: false }),
    setCode: (code) => dispatch({ type: 'code', code }),
  };

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(state.code);
      void notice.success(t('builders.copied'));
    } catch {
      void notice.error(t('builders.copy_failed'));
    }
  };
  const download = () => saveBlob(new Blob([state.code], { type: state.output.mime }), state.output.filename);

  const openIssue = (issue: BuilderIssue) => {
    if (issue.line !== undefined) return codeHandle.current?.goTo(issue.line, issue.column);
    const field = formBox.current ? findFieldElement(formBox.current, issue.path) : null;
    if (!field) return codeHandle.current?.focus();
    field.scrollIntoView({ block: 'center' });
    const focusable = field.matches('input, textarea, select, button, [tabindex]') ? field : field.querySelector<HTMLElement>('input, textarea, select, button, [tabindex]');
    (focusable ?? field).focus();
  };

  const examples = def.examples();
  const validText = validKey ? t(validKey, validParams?.(state.config) ?? {}) : t('builders.status.valid');
  const saveBlocked = !subject ? t('builders.save_no_subject') : errors > 0 ? t('builders.save_has_errors') : null;
  const codeLabel = t('builders.code_label', { language: state.output.language.toUpperCase() });

  return (
    <Page title={t(titleKey)} testId={testId}>
      {introKey ? <Typography.Paragraph type="secondary" className="bo-builder-intro">{t(introKey)}</Typography.Paragraph> : null}
      <div className="bo-builder-toolbar" data-testid={`${testId}-toolbar`}>
        <SubjectPicker
          kind={def.kind}
          subjects={def.subjects}
          type={subjectType}
          value={picked}
          onTypeChange={(type) => {
            setSubjectType(type);
            setPicked(null);
          }}
          onChange={setPicked}
          testId={testId}
        />
        <Space wrap className="bo-builder-toolbar__actions">
          <Dropdown
            trigger={['click']}
            menu={{
              items: examples.map((e, i) => ({ key: String(i), label: e.name, 'data-testid': `${testId}-example-${i}` })),
              onClick: ({ key }) => {
                const example = examples[Number(key)];
                if (!example) return;
                afterConfirm(() => {
                  dispatch({ type: 'load', config: example.config, clean: true });
                  setSuggestedName(example.name);
                  updateUrl({ version: null });
                  void notice.info(t('builders.example_loaded', { name: example.name }));
                });
              },
            }}
          >
            <Button icon={<AppstoreOutlined />} data-testid={`${testId}-examples`}>
              {t('builders.examples')}
            </Button>
          </Dropdown>
          <Button
            icon={<ReloadOutlined />}
            onClick={() =>
              afterConfirm(() => {
                dispatch({ type: 'load', config: def.defaults(), clean: true });
                setSuggestedName('');
                updateUrl({ version: null });
              })
            }
            data-testid={`${testId}-reset`}
          >
            {t('builders.reset')}
          </Button>
          {extraActions?.(commands)}
          <Button icon={<HistoryOutlined />} onClick={() => setVersionsOpen(true)} data-testid={`${testId}-versions-open`}>
            {t('builders.versions')}
          </Button>
          {canWrite ? (
            <Tooltip title={saveBlocked}>
              <Button type="primary" icon={<SaveOutlined />} disabled={saveBlocked !== null} onClick={() => setSaveOpen(true)} data-testid={`${testId}-save`}>
                {t('builders.save')}
              </Button>
            </Tooltip>
          ) : null}
          {canWrite && dirty ? <Tag data-testid={`${testId}-dirty`}>{t('builders.unsaved')}</Tag> : null}
        </Space>
      </div>
      {!canWrite ? <Alert className="bo-builder-note" type="info" showIcon title={t('builders.save_read_only')} data-testid={`${testId}-read-only`} /> : null}
      <div className="bo-builder-grid">
        <Card className="bo-builder-grid__form" title={<h2 className="bo-builder-card-title">{t('builders.form')}</h2>} data-testid={`${testId}-form`}>
          <div ref={formBox}>
            <BuilderForm value={state.config} onChange={(next) => dispatch({ type: 'form', config: next })} issues={issues} subject={subject} />
          </div>
        </Card>
        <div className="bo-builder-grid__side">
          <Card
            className="bo-builder-code-card"
            title={<h2 className="bo-builder-card-title">{t('builders.code')}</h2>}
            extra={
              <Space size={4} wrap>
                <Button size="small" icon={<CopyOutlined />} onClick={() => void copy()} data-testid={`${testId}-copy`}>
                  {t('builders.copy')}
                </Button>
                <Button size="small" icon={<DownloadOutlined />} onClick={download} data-testid={`${testId}-download`}>
                  {t('builders.download')}
                </Button>
              </Space>
            }
          >
            <CodeView
              value={state.code}
              language={state.output.language}
              onChange={(code) => dispatch({ type: 'code', code })}
              issues={issues}
              label={codeLabel}
              handleRef={codeHandle}
              minHeight={isMobile ? 240 : 360}
              maxHeight={isMobile ? 420 : 640}
              testId={`${testId}-code`}
              describedBy={`${uid}-status`}
            />
            <IssuesList
              issues={issues}
              checking={checking}
              validText={validText}
              checkError={check.error && fresh ? errorText(check.error) : null}
              unreadable={state.unreadable}
              onOpen={openIssue}
              id={uid}
              testId={testId}
            />
          </Card>
          {Preview ? (
            <Card className="bo-builder-preview" title={<h2 className="bo-builder-card-title">{t('builders.preview')}</h2>} data-testid={`${testId}-preview`}>
              <Preview config={state.config} output={state.unreadable ? null : state.output} issues={issues} />
            </Card>
          ) : null}
        </div>
      </div>
      <VersionsDrawer
        kind={def.kind}
        open={versionsOpen}
        onClose={() => setVersionsOpen(false)}
        subject={subject}
        canWrite={canWrite}
        onLoad={(v) => afterConfirm(() => void loadVersion(v))}
        onCompare={(a, b) => setComparing([a, b])}
        testId={testId}
      />
      {subject && canWrite ? (
        <SaveVersionModal
          kind={def.kind}
          open={saveOpen}
          subject={subject}
          config={state.config}
          suggestedName={suggestedName}
          onClose={() => setSaveOpen(false)}
          onSaved={(v) => {
            setSaveOpen(false);
            dispatch({ type: 'saved' });
            setSuggestedName(v.name);
            updateUrl({ version: String(v.id) });
            void queries.invalidateQueries({ queryKey: versionsKey(def.kind) });
            void notice.success(t('builders.version_saved_as', { number: v.number, name: v.name }));
          }}
          testId={testId}
        />
      ) : null}
      <Modal
        open={comparing !== null}
        onCancel={() => setComparing(null)}
        footer={null}
        width={isMobile ? '100%' : 1200}
        title={comparing ? t('builders.compare_title', { a: comparing[0].number, b: comparing[1].number }) : ''}
        destroyOnHidden
        data-testid={`${testId}-compare-modal`}
      >
        {compare.error ? <Alert type="error" showIcon title={t('builders.load_failed', { message: errorText(compare.error) })} /> : null}
        {compare.data ? (
          <Suspense fallback={<Skeleton active />}>
            <CompareView answer={compare.data} language={state.output.language} testId={testId} />
          </Suspense>
        ) : compare.error ? null : (
          <Skeleton active />
        )}
      </Modal>
    </Page>
  );
}

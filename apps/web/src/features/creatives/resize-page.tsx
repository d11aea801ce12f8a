/**
 * Creatives resize tool (`/utils/creatives_resize_tool`; docs/decisions/042-creatives.md): upload
 * an image (click or drop; checked here first with core's rules: its size, its type by the bytes,
 * the pixels its header declares, so a wrong file is refused before it travels), choose target
 * sizes (the IAB sizes, the 15 most common in one click, or custom W x H), cover or contain, the
 * focal point (click the image or use the arrow keys on it), the output format, quality and
 * background; the API resizes with sharp and answers a preview per size with its weight against the
 * IAB initial-load limit; download one or all (zip). `?size=300x250` preselects a size (the sizes
 * screen links here).
 */
import { DownloadOutlined, FileImageOutlined, InboxOutlined, ReloadOutlined } from '@ant-design/icons';
import {
  COMMON_SIZE_IDS,
  CREATIVE_FITS,
  CREATIVE_HEADER_BYTES,
  CREATIVE_MAX_INPUT_PIXELS,
  CREATIVE_MAX_TARGETS,
  CREATIVE_OUTPUT_FORMATS,
  CREATIVE_QUALITY_DEFAULT,
  CREATIVE_QUALITY_MAX,
  CREATIVE_QUALITY_MIN,
  CREATIVE_UPLOAD_ACCEPT,
  CREATIVE_UPLOAD_MAX_BYTES,
  CREATIVES_RESOURCE,
  IAB_SIZES,
  defaultOutputFormat,
  iabSize,
  parseSizeText,
  readImageHeader,
  resizeOptionsSchema,
  sizeNameKey,
  targetSizeProblem,
  uploadProblem,
  type CreativeFit,
  type CreativeInputType,
  type CreativeOutputFormat,
  type ResizeOutput,
  type ResizeResult,
} from '@backoffice/core/creatives';
import { issuesToErrors } from '@backoffice/core/validation-errors';
import {
  Alert,
  Button,
  Card,
  ColorPicker,
  Form,
  InputNumber,
  Radio,
  Select,
  Slider,
  Space,
  Tag,
  Typography,
  Upload,
} from 'antd';
import { useEffect, useMemo, useRef, useState, type KeyboardEvent, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useLocale } from '../../components/use-locale.ts';
import { useNotice } from '../../components/use-notice.ts';
import { api, errorText, isSessionError } from '../../lib/api.ts';
import { downloadApiFile } from '../../lib/api-file.ts';
import { FetchError } from '../../lib/fetch-client.ts';
import { usePermission } from '../../lib/permission.tsx';
import { StatusTag, formatDateTime } from '../../resources/resource-cells.tsx';
import { Page } from '../../shell/page.tsx';
import { RESIZE_PATH, kbText } from './creatives-api.ts';
import './creatives.css';

interface Picked {
  file: File;
  url: string;
  type: CreativeInputType;
  width: number;
  height: number;
}

type Field = 'file' | 'sizes' | 'fit' | 'focal' | 'format' | 'quality' | 'background';
const FIELD_OF: Record<string, Field> = {
  file: 'file',
  sizes: 'sizes',
  fit: 'fit',
  focal_x: 'focal',
  focal_y: 'focal',
  format: 'format',
  quality: 'quality',
  background: 'background',
  options: 'sizes',
};
const MB = (bytes: number) => String(Math.round((bytes / 1048576) * 10) / 10);
const clamp01 = (v: number) => Math.round(Math.min(1, Math.max(0, v)) * 1000) / 1000;

/** A typed size (`300 x 250`, `300×250`) in the API's form (`300x250`); other text is kept as typed (and shown as an error). */
const normalise = (v: string) => {
  const d = parseSizeText(v);
  return d ? `${d.width}x${d.height}` : v.trim();
};

export default function CreativesResizePage() {
  const { t } = useTranslation();
  const locale = useLocale();
  const notice = useNotice();
  const canWrite = usePermission(CREATIVES_RESOURCE, 'write');
  const [params] = useSearchParams();
  const [picked, setPicked] = useState<Picked | null>(null);
  const [checking, setChecking] = useState(false);
  const [sizes, setSizes] = useState<string[]>(() => {
    const s = params.get('size');
    return s && iabSize(s) ? [s] : [];
  });
  const [fit, setFit] = useState<CreativeFit>('cover');
  const [focal, setFocal] = useState({ x: 0.5, y: 0.5 });
  const [format, setFormat] = useState<CreativeOutputFormat>('jpeg');
  const [formatTouched, setFormatTouched] = useState(false);
  const [quality, setQuality] = useState<number | null>(CREATIVE_QUALITY_DEFAULT);
  const [background, setBackground] = useState('#ffffff');
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [running, setRunning] = useState(false);
  const [result, setResult] = useState<{ data: ResizeResult; signature: string } | null>(null);
  const imgRef = useRef<HTMLImageElement>(null);

  // The picked image's object URL lives as long as it is shown.
  useEffect(() => () => (picked ? URL.revokeObjectURL(picked.url) : undefined), [picked]);

  const options = {
    sizes,
    fit,
    focal_x: focal.x,
    focal_y: focal.y,
    format,
    quality: quality ?? CREATIVE_QUALITY_DEFAULT,
    background,
  };
  const signature = JSON.stringify({
    ...options,
    file: picked ? `${picked.file.name}:${picked.file.size}:${picked.file.lastModified}` : null,
  });
  const setError = (field: Field, text: string | undefined) => setErrors((e) => ({ ...e, [field]: text }));

  /** Errors by the API's or the schema's field path, translated next to their fields. */
  const showErrors = (byPath: Record<string, string>, fileText?: string) => {
    const next: Partial<Record<Field, string>> = {};
    for (const [path, key] of Object.entries(byPath)) {
      const [head, index] = path.split('.');
      const field = FIELD_OF[head ?? ''] ?? 'sizes';
      if (next[field]) continue;
      const text = field === 'file' && fileText ? fileText : t(key);
      next[field] = head === 'sizes' && index !== undefined ? `${sizes[Number(index)] ?? ''}: ${text}` : text;
    }
    setErrors(next);
  };

  const pick = async (file: File) => {
    setChecking(true);
    try {
      const head = new Uint8Array(await file.slice(0, CREATIVE_HEADER_BYTES).arrayBuffer());
      const problem = uploadProblem(file.size, head);
      // A refused file leaves the image already chosen (if any) as it was.
      if (problem) return setError('file', t(problem.key, problem.params));
      const header = readImageHeader(head)!;
      setPicked({
        file,
        url: URL.createObjectURL(file),
        type: header.type,
        width: header.width,
        height: header.height,
      });
      setFocal({ x: 0.5, y: 0.5 });
      if (!formatTouched) setFormat(defaultOutputFormat(header.type));
      setError('file', undefined);
    } catch {
      setError('file', t('creatives.upload.unreadable'));
    } finally {
      setChecking(false);
    }
  };

  const changeSizes = (values: string[]) => {
    const next = [...new Set(values.map(normalise).filter((v) => v !== ''))].slice(0, CREATIVE_MAX_TARGETS);
    setSizes(next);
    const bad = next.map((v) => [v, targetSizeProblem(v)] as const).find(([, p]) => p !== null);
    setError('sizes', bad ? `${bad[0]}: ${t(bad[1]!)}` : undefined);
  };
  const addCommon = () => changeSizes([...sizes, ...COMMON_SIZE_IDS]);

  const setFocalFromClick = (e: MouseEvent<HTMLButtonElement>) => {
    const img = imgRef.current;
    if (!img) return;
    const r = img.getBoundingClientRect();
    // A click from the keyboard (Enter / Space) has no position: it keeps the point.
    if (e.detail === 0 || r.width === 0 || r.height === 0) return;
    setFocal({ x: clamp01((e.clientX - r.left) / r.width), y: clamp01((e.clientY - r.top) / r.height) });
  };
  const moveFocal = (e: KeyboardEvent<HTMLButtonElement>) => {
    const step = e.shiftKey ? 0.01 : 0.05;
    const moves: Record<string, [number, number]> = {
      ArrowLeft: [-step, 0],
      ArrowRight: [step, 0],
      ArrowUp: [0, -step],
      ArrowDown: [0, step],
    };
    const m = moves[e.key];
    if (!m) return;
    e.preventDefault();
    setFocal((f) => ({ x: clamp01(f.x + m[0]), y: clamp01(f.y + m[1]) }));
  };

  const submit = async () => {
    const parsed = resizeOptionsSchema.safeParse(options);
    const problems = parsed.success ? {} : issuesToErrors(parsed.error.issues);
    if (!picked) problems.file = 'creatives.upload.file_required';
    if (!parsed.success || !picked) return showErrors(problems);
    setErrors({});
    setRunning(true);
    try {
      const data = await api.request<ResizeResult>(RESIZE_PATH, {
        method: 'POST',
        body: { file: picked.file, options: parsed.data },
      });
      setResult({ data, signature });
      void notice.success(t('creatives.resize.done', { count: data.outputs.length }));
    } catch (error) {
      if (
        error instanceof FetchError &&
        error.details.errors &&
        Object.keys(error.details.errors).length > 0
      ) {
        showErrors(
          error.details.errors,
          error.key === error.details.errors.file ? errorText(error) : undefined,
        );
      } else if (!isSessionError(error)) void notice.error(errorText(error));
    } finally {
      setRunning(false);
    }
  };

  const download = async (path: string, name: string) => {
    try {
      await downloadApiFile(path, {}, name);
    } catch (e) {
      if (!isSessionError(e)) void notice.error(`${t('creatives.tool.download_failed')}: ${errorText(e)}`);
    }
  };

  const sizeOptions = useMemo(() => {
    const label = (id: string) => `${id} · ${t(sizeNameKey(id))}`;
    const common = IAB_SIZES.filter((s) => s.common);
    const other = IAB_SIZES.filter((s) => !s.common);
    return [
      {
        label: t('creatives.common_tag'),
        title: t('creatives.common_tag'),
        options: common.map((s) => ({ value: s.id, label: label(s.id) })),
      },
      { label: 'IAB', title: 'IAB', options: other.map((s) => ({ value: s.id, label: label(s.id) })) },
    ];
  }, [t]);

  const status = (f: Field) => (errors[f] ? ('error' as const) : undefined);
  const focalText = t('creatives.tool.focal_value', {
    x: Math.round(focal.x * 100),
    y: Math.round(focal.y * 100),
  });
  const qualityApplies = format !== 'png';
  const r = result?.data;

  return (
    <Page title={t('menu.creatives_resize_tool')} testId="creatives-resize">
      <Typography.Paragraph type="secondary">{t('creatives.tool.subtitle')}</Typography.Paragraph>
      {!canWrite ? (
        <Alert
          type="info"
          showIcon
          title={t('creatives.tool.no_write')}
          className="bo-data-error"
          data-testid="creatives-no-write"
        />
      ) : null}

      <div className="bo-cre-tool">
        <Card size="small" title={t('creatives.tool.upload')}>
          <Form layout="vertical" component="div">
            <Form.Item
              validateStatus={status('file')}
              help={errors.file}
              extra={t('creatives.tool.drop_hint', {
                max: MB(CREATIVE_UPLOAD_MAX_BYTES),
                pixels: CREATIVE_MAX_INPUT_PIXELS / 1_000_000,
              })}
            >
              {picked ? (
                <Space orientation="vertical" size={8} style={{ width: '100%' }}>
                  <div className="bo-cre-focal__wrap">
                    <button
                      type="button"
                      className="bo-cre-focal"
                      onClick={setFocalFromClick}
                      onKeyDown={moveFocal}
                      aria-label={`${t('creatives.tool.focal_image')}. ${focalText}`}
                      data-testid="creatives-focal"
                    >
                      <span className="bo-cre-focal__frame">
                        <img ref={imgRef} src={picked.url} alt="" draggable={false} />
                        <span
                          className="bo-cre-focal__mark"
                          style={{ left: `${focal.x * 100}%`, top: `${focal.y * 100}%` }}
                          aria-hidden="true"
                        />
                      </span>
                    </button>
                  </div>
                  <Typography.Text type="secondary" data-testid="creatives-input">
                    <FileImageOutlined />{' '}
                    {t('creatives.tool.input', {
                      name: picked.file.name,
                      type: picked.type.toUpperCase(),
                      width: picked.width,
                      height: picked.height,
                      size: `${kbText(picked.file.size, locale)} kB`,
                    })}
                  </Typography.Text>
                  <Typography.Text type="secondary" data-testid="creatives-focal-value">
                    {t('creatives.tool.focal_help')} {focalText}
                  </Typography.Text>
                  <Space wrap>
                    <Button
                      size="small"
                      onClick={() => setFocal({ x: 0.5, y: 0.5 })}
                      data-testid="creatives-focal-reset"
                    >
                      {t('creatives.tool.focal_reset')}
                    </Button>
                    <Upload
                      accept={CREATIVE_UPLOAD_ACCEPT}
                      showUploadList={false}
                      multiple={false}
                      beforeUpload={(file) => {
                        void pick(file);
                        return false;
                      }}
                    >
                      <Button
                        size="small"
                        icon={<ReloadOutlined />}
                        loading={checking}
                        data-testid="creatives-replace"
                      >
                        {t('creatives.tool.replace')}
                      </Button>
                    </Upload>
                  </Space>
                </Space>
              ) : (
                <div data-testid="creatives-upload">
                  <Upload.Dragger
                    accept={CREATIVE_UPLOAD_ACCEPT}
                    showUploadList={false}
                    multiple={false}
                    beforeUpload={(file) => {
                      void pick(file);
                      return false;
                    }}
                  >
                    <p className="ant-upload-drag-icon">
                      <InboxOutlined />
                    </p>
                    <p className="ant-upload-text">
                      {checking ? t('creatives.tool.checking') : t('creatives.tool.drop')}
                    </p>
                  </Upload.Dragger>
                </div>
              )}
            </Form.Item>
          </Form>
        </Card>

        <Card size="small">
          <Form layout="vertical" component="div">
            <Form.Item
              label={t('creatives.tool.sizes')}
              htmlFor="creatives-sizes"
              validateStatus={status('sizes')}
              help={errors.sizes}
              extra={t('creatives.tool.sizes_help')}
            >
              <Select<string[]>
                id="creatives-sizes"
                mode="tags"
                value={sizes}
                onChange={changeSizes}
                options={sizeOptions}
                tokenSeparators={[',', ';']}
                placeholder={t('creatives.tool.sizes_placeholder')}
                maxCount={CREATIVE_MAX_TARGETS}
                tagRender={({ value, closable, onClose }) => (
                  <Tag
                    closable={closable}
                    onClose={onClose}
                    className="bo-cre-nowrap"
                    color={targetSizeProblem(String(value)) ? 'error' : undefined}
                  >
                    {String(value)}
                  </Tag>
                )}
                data-testid="creatives-sizes"
              />
            </Form.Item>
            <Space wrap className="bo-cre-sizes-actions">
              <Button size="small" onClick={addCommon} data-testid="creatives-add-common">
                {t('creatives.tool.common')}
              </Button>
              <Button
                size="small"
                onClick={() => changeSizes([])}
                disabled={sizes.length === 0}
                data-testid="creatives-clear-sizes"
              >
                {t('creatives.tool.clear_sizes')}
              </Button>
              <Typography.Text type="secondary">
                {t('creatives.tool.sizes_count', { count: sizes.length, max: CREATIVE_MAX_TARGETS })}
              </Typography.Text>
            </Space>

            <Form.Item
              label={t('creatives.tool.fit')}
              validateStatus={status('fit')}
              help={errors.fit}
              style={{ marginTop: 16 }}
            >
              <Radio.Group
                value={fit}
                onChange={(e) => setFit(e.target.value as CreativeFit)}
                aria-label={t('creatives.tool.fit')}
                data-testid="creatives-fit"
              >
                <Space orientation="vertical" size={4}>
                  {CREATIVE_FITS.map((f) => (
                    <Radio key={f} value={f} data-testid={`creatives-fit-${f}`}>
                      {t(`creatives.tool.fit.${f}`)}
                    </Radio>
                  ))}
                </Space>
              </Radio.Group>
            </Form.Item>
            {errors.focal ? <Alert type="error" showIcon title={errors.focal} /> : null}

            <Form.Item
              label={t('creatives.tool.format')}
              validateStatus={status('format')}
              help={errors.format}
            >
              <Radio.Group
                optionType="button"
                value={format}
                onChange={(e) => {
                  setFormat(e.target.value as CreativeOutputFormat);
                  setFormatTouched(true);
                }}
                aria-label={t('creatives.tool.format')}
                options={CREATIVE_OUTPUT_FORMATS.map((f) => ({ value: f, label: f.toUpperCase() }))}
                data-testid="creatives-format"
              />
            </Form.Item>
            <Form.Item
              label={t('creatives.tool.quality')}
              htmlFor="creatives-quality"
              validateStatus={status('quality')}
              help={errors.quality}
              extra={t('creatives.tool.quality_help')}
            >
              <Space.Compact block>
                <Slider
                  min={CREATIVE_QUALITY_MIN}
                  max={CREATIVE_QUALITY_MAX}
                  value={quality ?? CREATIVE_QUALITY_DEFAULT}
                  onChange={setQuality}
                  disabled={!qualityApplies}
                  style={{ flex: 1, marginInline: '4px 16px' }}
                  ariaLabelForHandle={t('creatives.tool.quality')}
                />
                <InputNumber
                  id="creatives-quality"
                  min={CREATIVE_QUALITY_MIN}
                  max={CREATIVE_QUALITY_MAX}
                  precision={0}
                  value={quality}
                  onChange={(v) => setQuality(v)}
                  disabled={!qualityApplies}
                  data-testid="creatives-quality"
                />
              </Space.Compact>
            </Form.Item>
            <Form.Item
              label={t('creatives.tool.background')}
              validateStatus={status('background')}
              help={errors.background}
              extra={t('creatives.tool.background_help')}
            >
              <ColorPicker
                value={background}
                disabledAlpha
                format="hex"
                showText
                onChangeComplete={(c) => setBackground(c.toHexString().slice(0, 7))}
                aria-label={t('creatives.tool.background')}
                data-testid="creatives-background"
              />
            </Form.Item>
            <Button
              type="primary"
              block
              icon={<FileImageOutlined />}
              loading={running}
              disabled={!canWrite || checking}
              onClick={() => void submit()}
              data-testid="creatives-resize-submit"
            >
              {running ? t('creatives.tool.resizing') : t('creatives.tool.resize')}
            </Button>
          </Form>
        </Card>
      </div>

      {r ? (
        <section aria-labelledby="creatives-results-title" data-testid="creatives-results">
          <div className="bo-cre-results-head">
            <div>
              <Typography.Title level={2} className="bo-cre-results-title" id="creatives-results-title">
                {t('creatives.tool.results')}
              </Typography.Title>
              <Typography.Text type="secondary">
                {t('creatives.tool.expires', { time: formatDateTime(r.expires_at, locale) })}
              </Typography.Text>
            </div>
            <Button
              type="primary"
              icon={<DownloadOutlined />}
              onClick={() => void download(`/v1/${RESIZE_PATH}/${r.id}.zip`, r.zip_name)}
              data-testid="creatives-download-zip"
            >
              {t('creatives.tool.download_zip')}
            </Button>
          </div>
          {result.signature !== signature ? (
            <Alert
              type="info"
              showIcon
              title={t('creatives.tool.stale')}
              className="bo-data-error"
              data-testid="creatives-stale"
            />
          ) : null}
          <div className="bo-cre-results">
            {r.outputs.map((o) => (
              <ResultCard
                key={o.size}
                output={o}
                onDownload={() => void download(`/v1/${RESIZE_PATH}/${r.id}/${o.size}`, o.file_name)}
              />
            ))}
          </div>
        </section>
      ) : null}
    </Page>
  );
}

function ResultCard({ output: o, onDownload }: { output: ResizeOutput; onDownload: () => void }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const limit =
    o.limit_kb === null ? (
      <StatusTag tone="off">{t('creatives.tool.no_limit')}</StatusTag>
    ) : o.over_limit ? (
      <StatusTag tone="bad" testId={`creatives-over-${o.size}`}>
        {t('creatives.tool.over_limit', { kb: o.limit_kb })}
      </StatusTag>
    ) : (
      <StatusTag tone="ok">{t('creatives.tool.within_limit', { kb: o.limit_kb })}</StatusTag>
    );
  return (
    <Card size="small" className="bo-cre-result" data-testid={`creatives-result-${o.size}`}>
      <div className="bo-cre-result__preview">
        <img src={o.preview} alt={t('creatives.tool.result_alt', { size: o.size })} />
      </div>
      <div className="bo-cre-result__head">
        <Typography.Text strong>{o.size}</Typography.Text>
        <Typography.Text type="secondary">
          {o.format.toUpperCase()} · {kbText(o.bytes, locale)} kB
        </Typography.Text>
      </div>
      <Typography.Text type="secondary">
        {o.standard ? t(sizeNameKey(o.size)) : t('creatives.tool.custom')}
      </Typography.Text>
      <div>{limit}</div>
      <Button
        icon={<DownloadOutlined />}
        onClick={onDownload}
        aria-label={t('creatives.tool.download_one', { size: o.size })}
        data-testid={`creatives-download-${o.size}`}
      >
        {t('creatives.tool.download')}
      </Button>
    </Card>
  );
}

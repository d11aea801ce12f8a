/**
 * The ad unit generator's form (decision 039): the whole configuration, controlled by the shared
 * builder page (every change sends the whole new configuration; the page renders the code). Media
 * types switched off are kept aside and come back as they were when switched on again. Known
 * adapters ask for their required parameters by name and type (core PREBID_ADAPTERS, from Prebid's
 * bidder pages); any other parameter is edited as JSON. Each field shows the first issue at its
 * configuration path (the generator's rules, and Prebid's shape check the API places there).
 */
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import {
  AD_POSITIONS,
  NATIVE_DATA_TYPES,
  NATIVE_IMAGE_TYPES,
  PLAYBACK_METHODS,
  PREBID_ADAPTERS,
  PREBID_ADAPTER_BY_CODE,
  VIDEO_CONTEXTS,
  VIDEO_MIMES,
  VIDEO_PLCMTS,
  VIDEO_PROTOCOLS,
  applyAdUnitFacts,
  DEFAULT_NATIVE_ASSETS,
  type AdUnitFacts,
  type AdUnitGenConfig,
  type BidConfig,
  type NativeAsset,
  type ParamSpec,
  type Size,
  type VideoConfig,
} from '@backoffice/core/builders/adunit';
import type { BuilderIssue } from '@backoffice/core/builders/common';
import type { JsonValue } from '@backoffice/core/builders/json';
import { SIZES } from '@backoffice/core/reports';
import { CURRENCIES } from '@backoffice/core/resources/companies';
import { Alert, AutoComplete, Button, Card, Checkbox, Col, Form, Input, InputNumber, Row, Select, Switch, Typography } from 'antd';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { JsonTextArea } from '../../components/json-text-area.tsx';
import { useNotice } from '../../components/use-notice.ts';
import { api, errorText, isSessionError } from '../../lib/api.ts';
import { BuilderField as Field, BuilderSection as Section } from '../../components/builders/builder-fields.tsx';
import { fieldDomId, issueText } from '../../components/builders/field-issue.ts';
import type { BuilderFormProps } from '../../components/builders/types.ts';

const MEDIA = ['banner', 'video', 'native'] as const;
type Media = (typeof MEDIA)[number];
const BANNER_SIZES = SIZES.filter((s) => /^\d+x\d+$/.test(s) && !['640x360', '1280x720', '1920x1080'].includes(s));
const SIZE_TEXT = /^\s*(\d{1,5})\s*[xX×]\s*(\d{1,5})\s*$/;

const DEFAULT_MEDIA: { banner: NonNullable<AdUnitGenConfig['mediaTypes']['banner']>; video: VideoConfig; native: NonNullable<AdUnitGenConfig['mediaTypes']['native']> } = {
  banner: { sizes: [[300, 250]] },
  video: { context: 'outstream', playerSize: [640, 360], mimes: ['video/mp4'], protocols: [2, 3, 5, 6, 7, 8], playbackmethod: [6], plcmt: 4 },
  native: { ortb: { ver: '1.2', assets: DEFAULT_NATIVE_ASSETS } },
};

/** The issues at exactly this path (a list's or a section's own message), as alerts. */
function PathIssues({ path, issues }: { path: string; issues: readonly BuilderIssue[] }) {
  const here = issues.filter((i) => i.path === path);
  if (here.length === 0) return null;
  return (
    <div id={fieldDomId(path)} tabIndex={-1}>
      {here.map((i, n) => (
        <Alert key={n} type={i.severity} showIcon title={issueText(i)} className="bo-adunit-card" />
      ))}
    </div>
  );
}

function RemoveButton({ label, onClick, testId }: { label: string; onClick: () => void; testId?: string }) {
  return <Button type="text" danger icon={<DeleteOutlined />} aria-label={label} title={label} onClick={onClick} data-testid={testId} />;
}

const isParamsObject = (v: unknown): v is Record<string, JsonValue> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** One bidder: its code, the adapter's required parameters by name, and the rest as JSON. */
function BidderCard({ bid, index, issues, onChange, onRemove }: { bid: BidConfig; index: number; issues: readonly BuilderIssue[]; onChange: (b: BidConfig) => void; onRemove: () => void }) {
  const { t } = useTranslation();
  const at = `bids.${index}`;
  const adapter = PREBID_ADAPTER_BY_CODE.get(bid.bidder);
  const knownNames = new Set(adapter?.required.flatMap((alt) => alt.flatMap((s) => s.names)) ?? []);
  const other = Object.fromEntries(Object.entries(bid.params).filter(([k]) => !knownNames.has(k)));
  const setParam = (spec: ParamSpec, raw: JsonValue | undefined) => {
    const params = { ...bid.params };
    const name = spec.names.find((n) => n in params) ?? spec.names[0]!;
    for (const n of spec.names) if (n !== name) delete params[n];
    if (raw === undefined || raw === '') delete params[name];
    else params[name] = raw;
    onChange({ ...bid, params });
  };
  const paramInput = (spec: ParamSpec) => {
    const name = spec.names.find((n) => n in bid.params) ?? spec.names[0]!;
    const path = `${at}.params.${name}`;
    const value = bid.params[name];
    const label = spec.names.length > 1 ? spec.names.join(' / ') : name;
    return (
      <Field key={name} path={path} issues={issues} label={<code>{label}</code>}>
        {spec.type === 'integer' && (value === undefined || typeof value === 'number') ? (
          <InputNumber
            id={fieldDomId(path)}
            value={value as number | undefined}
            precision={0}
            placeholder={String(spec.example)}
            style={{ width: '100%' }}
            onChange={(n) => setParam(spec, typeof n === 'number' && Number.isFinite(n) ? n : undefined)}
            data-testid={`adunit-param-${index}-${name}`}
          />
        ) : (
          <Input
            id={fieldDomId(path)}
            value={value === undefined || value === null ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value)}
            placeholder={String(spec.example)}
            autoComplete="off"
            spellCheck={false}
            onChange={(e) => {
              const text = e.target.value;
              // integer-or-string parameters: digits are written as a number, as Prebid prefers.
              setParam(spec, spec.type === 'integer_or_string' && /^\d{1,15}$/.test(text) ? Number(text) : spec.type === 'integer' && /^-?\d{1,15}$/.test(text) ? Number(text) : text);
            }}
            data-testid={`adunit-param-${index}-${name}`}
          />
        )}
      </Field>
    );
  };
  return (
    <Card
      size="small"
      className="bo-adunit-card"
      title={<h4 className="bo-adunit-card__title">{t('adunit.bidder.label', { n: index + 1 })}</h4>}
      extra={<RemoveButton label={t('adunit.bidder.remove', { bidder: bid.bidder || index + 1 })} onClick={onRemove} testId={`adunit-bidder-remove-${index}`} />}
      data-testid={`adunit-bidder-${index}`}
    >
      <Field path={`${at}.bidder`} issues={issues} label={t('adunit.field.bidder')} help={t('adunit.field.bidder_help')} required>
        <AutoComplete
          id={fieldDomId(`${at}.bidder`)}
          value={bid.bidder}
          options={PREBID_ADAPTERS.map((a) => ({ value: a.code, label: `${a.code} — ${a.name}` }))}
          filterOption={(input, option) => String(option?.label ?? '').toLowerCase().includes(input.toLowerCase())}
          onChange={(code: string) => onChange({ ...bid, bidder: code.trim() })}
          data-testid={`adunit-bidder-code-${index}`}
        />
      </Field>
      {adapter ? (
        <>
          {adapter.required.map((alt, k) => (
            <div key={k}>
              {k > 0 ? (
                <Typography.Text type="secondary" className="bo-adunit-or">
                  {t('adunit.bidder.alternative')}
                </Typography.Text>
              ) : null}
              <Row gutter={12}>
                {alt.map((spec) => (
                  <Col key={spec.names[0]} xs={24} sm={12}>
                    {paramInput(spec)}
                  </Col>
                ))}
              </Row>
            </div>
          ))}
          <PathIssues path={`${at}.params`} issues={issues} />
          <Typography.Paragraph>
            <a href={`https://docs.prebid.org/dev-docs/bidders/${adapter.code}.html`} target="_blank" rel="noopener noreferrer">
              {t('adunit.bidder.docs', { bidder: adapter.name })}
            </a>
          </Typography.Paragraph>
        </>
      ) : bid.bidder ? (
        <Typography.Paragraph type="secondary">{t('adunit.bidder.unknown')}</Typography.Paragraph>
      ) : null}
      <Form.Item label={t('adunit.field.params_other')} htmlFor={fieldDomId(`${at}.params`)}>
        <JsonTextArea<Record<string, JsonValue>>
          id={adapter ? undefined : fieldDomId(`${at}.params`)}
          className="bo-adunit-params"
          value={other}
          accept={isParamsObject}
          label={t('adunit.field.params_other')}
          invalidText={t('adunit.params_json_object')}
          onChange={(parsed) => {
            const known = Object.fromEntries(Object.entries(bid.params).filter(([k]) => knownNames.has(k)));
            onChange({ ...bid, params: { ...known, ...parsed } });
          }}
          testId={`adunit-params-json-${index}`}
        />
      </Form.Item>
    </Card>
  );
}

export function AdUnitForm({ value: c, onChange, issues, subject }: BuilderFormProps<AdUnitGenConfig>) {
  const { t } = useTranslation();
  const notice = useNotice();
  const stash = useRef<Partial<AdUnitGenConfig['mediaTypes']>>({});
  const [sizeError, setSizeError] = useState<string | null>(null);
  const [filling, setFilling] = useState(false);
  const update = (change: (draft: AdUnitGenConfig) => void) => {
    const next = structuredClone(c);
    change(next);
    onChange(next);
  };
  const video = c.mediaTypes.video;
  const native = c.mediaTypes.native;
  const banner = c.mediaTypes.banner;
  const optionalInt = (path: string, get: () => number | undefined, set: (d: AdUnitGenConfig, v: number | undefined) => void, min = 0) => (
    <InputNumber
      id={fieldDomId(path)}
      value={get()}
      min={min}
      precision={0}
      style={{ width: '100%' }}
      onChange={(n) => update((d) => set(d, typeof n === 'number' && Number.isFinite(n) ? n : undefined))}
    />
  );
  const setVideo = (d: AdUnitGenConfig, change: (v: VideoConfig) => void) => {
    if (d.mediaTypes.video) change(d.mediaTypes.video);
  };
  const numberList = <K extends 'protocols' | 'playbackmethod'>(field: K, values: readonly number[], label: (v: number) => string) => (
    <Select<number[]>
      id={fieldDomId(`mediaTypes.video.${field}`)}
      mode="multiple"
      value={video?.[field] ?? []}
      options={values.map((v) => ({ value: v, label: label(v) }))}
      onChange={(list) => update((d) => setVideo(d, (v) => void (list.length > 0 ? (v[field] = [...list].sort((a, b) => a - b)) : delete v[field])))}
      style={{ width: '100%' }}
    />
  );

  const fillFromUnit = async () => {
    if (!subject?.id) return;
    setFilling(true);
    try {
      const facts = await api.request<AdUnitFacts>(`builders/adunit/ad-units/${subject.id}`);
      onChange(applyAdUnitFacts(c, facts));
      void notice.success(t('adunit.use_unit_done', { name: facts.name }));
      if (facts.floor && facts.floor.type === 'soft') void notice.warning(t('adunit.use_unit_soft', { cpm: facts.floor.cpm, currency: facts.floor.currency }));
    } catch (error) {
      if (!isSessionError(error)) void notice.error(`${t('adunit.use_unit_error')} ${errorText(error)}`);
    } finally {
      setFilling(false);
    }
  };

  const toggleMedia = (m: Media, on: boolean) =>
    update((d) => {
      if (on) {
        const kept = stash.current[m] ?? DEFAULT_MEDIA[m];
        (d.mediaTypes as Record<Media, unknown>)[m] = structuredClone(kept);
      } else {
        (stash.current as Record<Media, unknown>)[m] = structuredClone(d.mediaTypes[m]);
        delete d.mediaTypes[m];
      }
    });

  const setAsset = (i: number, change: (a: NativeAsset) => void) => update((d) => void change(d.mediaTypes.native!.ortb.assets[i]!));

  return (
    <Form layout="vertical" component="div" className="bo-adunit-form" data-testid="adunit-form-fields">
      <Section title={t('adunit.section.unit')}>
        <Field path="code" issues={issues} label={t('adunit.field.code')} help={t('adunit.field.code_help')} required>
          <Input id={fieldDomId('code')} value={c.code} autoComplete="off" spellCheck={false} onChange={(e) => update((d) => void (d.code = e.target.value))} data-testid="adunit-field-code" />
        </Field>
        {subject?.type === 'ad_unit' && subject.id ? (
          <Form.Item extra={t('adunit.use_unit_help')}>
            <Button onClick={() => void fillFromUnit()} loading={filling} data-testid="adunit-use-unit">
              {t('adunit.use_unit', { name: subject.name ?? `#${subject.id}` })}
            </Button>
          </Form.Item>
        ) : null}
      </Section>

      <Section title={t('adunit.section.media')} testId="adunit-media">
        <div id={fieldDomId('mediaTypes')} tabIndex={-1}>
          <Checkbox.Group
            value={MEDIA.filter((m) => c.mediaTypes[m] !== undefined)}
            options={MEDIA.map((m) => ({ value: m, label: t(`adunit.media.${m}`) }))}
            onChange={(list) => {
              for (const m of MEDIA) if (list.includes(m) !== (c.mediaTypes[m] !== undefined)) toggleMedia(m, list.includes(m));
            }}
            aria-label={t('adunit.section.media')}
            data-testid="adunit-media-types"
          />
        </div>
        <PathIssues path="mediaTypes" issues={issues} />

        {banner ? (
          <Card size="small" className="bo-adunit-card" title={<h4 className="bo-adunit-card__title">{t('adunit.media.banner')}</h4>} data-testid="adunit-banner">
            <Field path="mediaTypes.banner.sizes" issues={issues} label={t('adunit.field.sizes')} help={sizeError ?? t('adunit.field.sizes_help')} required>
              <Select<string[]>
                id={fieldDomId('mediaTypes.banner.sizes')}
                mode="tags"
                value={banner.sizes.map((s) => `${s[0]}x${s[1]}`)}
                options={BANNER_SIZES.map((s) => ({ value: s, label: s }))}
                tokenSeparators={[',', ' ']}
                onChange={(list) => {
                  const sizes: Size[] = [];
                  let bad: string | null = null;
                  for (const text of list) {
                    const m = SIZE_TEXT.exec(text);
                    if (m) sizes.push([Number(m[1]), Number(m[2])]);
                    else bad = text;
                  }
                  setSizeError(bad === null ? null : t('adunit.size_text_invalid', { text: bad }));
                  update((d) => void (d.mediaTypes.banner!.sizes = sizes));
                }}
                style={{ width: '100%' }}
                data-testid="adunit-banner-sizes"
              />
            </Field>
            <Field path="mediaTypes.banner.pos" issues={issues} label={t('adunit.field.pos')}>
              <Select<number>
                id={fieldDomId('mediaTypes.banner.pos')}
                allowClear
                placeholder={t('adunit.pos.none')}
                value={banner.pos}
                options={AD_POSITIONS.map((p) => ({ value: p, label: t(`adunit.pos.${p}`) }))}
                onChange={(p?: number) => update((d) => void (p === undefined ? delete d.mediaTypes.banner!.pos : (d.mediaTypes.banner!.pos = p)))}
                style={{ width: '100%' }}
              />
            </Field>
          </Card>
        ) : null}

        {video ? (
          <Card size="small" className="bo-adunit-card" title={<h4 className="bo-adunit-card__title">{t('adunit.media.video')}</h4>} data-testid="adunit-video">
            <Row gutter={12}>
              <Col xs={24} sm={12}>
                <Field path="mediaTypes.video.context" issues={issues} label={t('adunit.field.context')} required>
                  <Select<VideoConfig['context']>
                    id={fieldDomId('mediaTypes.video.context')}
                    value={video.context}
                    options={VIDEO_CONTEXTS.map((x) => ({ value: x, label: t(`adunit.context.${x}`) }))}
                    onChange={(context) =>
                      update((d) =>
                        setVideo(d, (v) => {
                          v.context = context;
                          if (context !== 'adpod') {
                            delete v.adPodDurationSec;
                            delete v.durationRangeSec;
                            delete v.requireExactDuration;
                          }
                        }),
                      )
                    }
                    style={{ width: '100%' }}
                    data-testid="adunit-video-context"
                  />
                </Field>
              </Col>
              <Col xs={24} sm={12}>
                <Field path="mediaTypes.video.plcmt" issues={issues} label={t('adunit.field.plcmt')}>
                  <Select<number>
                    id={fieldDomId('mediaTypes.video.plcmt')}
                    allowClear
                    placeholder={t('adunit.pos.none')}
                    value={video.plcmt}
                    options={VIDEO_PLCMTS.map((p) => ({ value: p, label: t(`adunit.plcmt.${p}`) }))}
                    onChange={(p?: number) => update((d) => setVideo(d, (v) => void (p === undefined ? delete v.plcmt : (v.plcmt = p))))}
                    style={{ width: '100%' }}
                  />
                </Field>
              </Col>
            </Row>
            <Field path="mediaTypes.video.playerSize" issues={issues} label={t('adunit.field.player_size')} required={video.context === 'outstream'}>
              <Row gutter={12} id={fieldDomId('mediaTypes.video.playerSize')} tabIndex={-1}>
                {([0, 1] as const).map((k) => (
                  <Col key={k} xs={12}>
                    <InputNumber
                      aria-label={t(k === 0 ? 'adunit.field.width' : 'adunit.field.height')}
                      placeholder={t(k === 0 ? 'adunit.field.width' : 'adunit.field.height')}
                      value={video.playerSize?.[k] || undefined}
                      min={1}
                      precision={0}
                      style={{ width: '100%' }}
                      onChange={(n) =>
                        update((d) =>
                          setVideo(d, (v) => {
                            const size: Size = v.playerSize ? [...v.playerSize] : [0, 0];
                            size[k] = typeof n === 'number' && Number.isFinite(n) ? n : 0;
                            if (size[0] === 0 && size[1] === 0) delete v.playerSize;
                            else v.playerSize = size;
                          }),
                        )
                      }
                      data-testid={`adunit-video-player-${k === 0 ? 'w' : 'h'}`}
                    />
                  </Col>
                ))}
              </Row>
            </Field>
            <Field path="mediaTypes.video.mimes" issues={issues} label={t('adunit.field.mimes')} required>
              <Select<string[]>
                id={fieldDomId('mediaTypes.video.mimes')}
                mode="tags"
                value={video.mimes}
                options={VIDEO_MIMES.map((m) => ({ value: m, label: m }))}
                onChange={(list) => update((d) => setVideo(d, (v) => void (v.mimes = list.map((m) => m.trim()).filter((m) => m !== ''))))}
                style={{ width: '100%' }}
              />
            </Field>
            <Field path="mediaTypes.video.protocols" issues={issues} label={t('adunit.field.protocols')}>
              {numberList('protocols', VIDEO_PROTOCOLS, (p) => ['VAST 1.0', 'VAST 2.0', 'VAST 3.0', 'VAST 1.0 Wrapper', 'VAST 2.0 Wrapper', 'VAST 3.0 Wrapper', 'VAST 4.0', 'VAST 4.0 Wrapper', 'DAAST 1.0', 'DAAST 1.0 Wrapper'][p - 1]!)}
            </Field>
            <Field path="mediaTypes.video.playbackmethod" issues={issues} label={t('adunit.field.playbackmethod')}>
              {numberList('playbackmethod', PLAYBACK_METHODS, (p) => t(`adunit.playback.${p}`))}
            </Field>
            <Row gutter={12}>
              <Col xs={24} sm={8}>
                <Field path="mediaTypes.video.minduration" issues={issues} label={t('adunit.field.minduration')}>
                  {optionalInt('mediaTypes.video.minduration', () => video.minduration, (d, n) => setVideo(d, (v) => void (n === undefined ? delete v.minduration : (v.minduration = n))), 1)}
                </Field>
              </Col>
              <Col xs={24} sm={8}>
                <Field path="mediaTypes.video.maxduration" issues={issues} label={t('adunit.field.maxduration')}>
                  {optionalInt('mediaTypes.video.maxduration', () => video.maxduration, (d, n) => setVideo(d, (v) => void (n === undefined ? delete v.maxduration : (v.maxduration = n))), 1)}
                </Field>
              </Col>
              <Col xs={24} sm={8}>
                <Field path="mediaTypes.video.skip" issues={issues} label={t('adunit.field.skip')}>
                  <Select<string>
                    id={fieldDomId('mediaTypes.video.skip')}
                    value={video.skip === undefined ? 'unset' : video.skip === 1 ? 'yes' : 'no'}
                    options={[
                      { value: 'unset', label: t('adunit.skip.unset') },
                      { value: 'yes', label: t('adunit.skip.yes') },
                      { value: 'no', label: t('adunit.skip.no') },
                    ]}
                    onChange={(s) => update((d) => setVideo(d, (v) => void (s === 'unset' ? delete v.skip : (v.skip = s === 'yes' ? 1 : 0))))}
                    style={{ width: '100%' }}
                  />
                </Field>
              </Col>
            </Row>
            {video.context === 'adpod' ? (
              <Row gutter={12}>
                <Col xs={24} sm={8}>
                  <Field path="mediaTypes.video.adPodDurationSec" issues={issues} label={t('adunit.field.pod_duration')} required>
                    {optionalInt('mediaTypes.video.adPodDurationSec', () => video.adPodDurationSec, (d, n) => setVideo(d, (v) => void (n === undefined ? delete v.adPodDurationSec : (v.adPodDurationSec = n))), 1)}
                  </Field>
                </Col>
                <Col xs={24} sm={10}>
                  <Field path="mediaTypes.video.durationRangeSec" issues={issues} label={t('adunit.field.duration_ranges')} help={t('adunit.field.duration_ranges_help')} required>
                    <Select<string[]>
                      id={fieldDomId('mediaTypes.video.durationRangeSec')}
                      mode="tags"
                      value={(video.durationRangeSec ?? []).map(String)}
                      tokenSeparators={[',', ' ']}
                      onChange={(list) =>
                        update((d) =>
                          setVideo(d, (v) => {
                            const secs = list.filter((x) => /^\d{1,4}$/.test(x.trim())).map((x) => Number(x.trim()));
                            if (secs.length > 0) v.durationRangeSec = [...new Set(secs)].sort((a, b) => a - b);
                            else delete v.durationRangeSec;
                          }),
                        )
                      }
                      style={{ width: '100%' }}
                    />
                  </Field>
                </Col>
                <Col xs={24} sm={6}>
                  <Field path="mediaTypes.video.requireExactDuration" issues={issues} label={t('adunit.field.exact_duration')}>
                    <Switch
                      id={fieldDomId('mediaTypes.video.requireExactDuration')}
                      checked={video.requireExactDuration === true}
                      onChange={(on) => update((d) => setVideo(d, (v) => void (on ? (v.requireExactDuration = true) : delete v.requireExactDuration)))}
                    />
                  </Field>
                </Col>
              </Row>
            ) : null}
          </Card>
        ) : null}

        {native ? (
          <Card size="small" className="bo-adunit-card" title={<h4 className="bo-adunit-card__title">{t('adunit.media.native')}</h4>} data-testid="adunit-native">
            <PathIssues path="mediaTypes.native.ortb.assets" issues={issues} />
            {native.ortb.assets.map((a, i) => {
              const at = `mediaTypes.native.ortb.assets.${i}`;
              const kind: 'title' | 'img' | 'data' = a.title ? 'title' : a.img ? 'img' : 'data';
              return (
                <Card
                  key={i}
                  size="small"
                  type="inner"
                  className="bo-adunit-card"
                  title={<h4 className="bo-adunit-card__title">{t('adunit.asset.label', { id: a.id })}</h4>}
                  extra={<RemoveButton label={t('adunit.asset.remove', { id: a.id })} onClick={() => update((d) => void d.mediaTypes.native!.ortb.assets.splice(i, 1))} />}
                >
                  <PathIssues path={at} issues={issues} />
                  <Row gutter={12}>
                    <Col xs={24} sm={12}>
                      <Field path={`${at}.kind`} issues={[]} label={t('adunit.asset.kind')}>
                        <Select<typeof kind>
                          id={fieldDomId(`${at}.kind`)}
                          value={kind}
                          options={(['title', 'img', 'data'] as const).map((k) => ({ value: k, label: t(`adunit.asset.${k}`) }))}
                          onChange={(k) =>
                            setAsset(i, (asset) => {
                              delete asset.title;
                              delete asset.img;
                              delete asset.data;
                              if (k === 'title') asset.title = { len: 80 };
                              else if (k === 'img') asset.img = { type: 3, wmin: 300, hmin: 157 };
                              else asset.data = { type: 1, len: 30 };
                            })
                          }
                          style={{ width: '100%' }}
                        />
                      </Field>
                    </Col>
                    <Col xs={24} sm={12}>
                      <Field path={`${at}.required`} issues={issues} label={t('adunit.asset.required')}>
                        <Switch id={fieldDomId(`${at}.required`)} checked={a.required === 1} onChange={(on) => setAsset(i, (asset) => void (asset.required = on ? 1 : 0))} />
                      </Field>
                    </Col>
                  </Row>
                  {a.title ? (
                    <Field path={`${at}.title.len`} issues={issues} label={t('adunit.asset.len')}>
                      {optionalInt(`${at}.title.len`, () => a.title?.len, (d, n) => void (d.mediaTypes.native!.ortb.assets[i]!.title!.len = n ?? 0), 1)}
                    </Field>
                  ) : null}
                  {a.img ? (
                    <Row gutter={12}>
                      <Col xs={24} sm={8}>
                        <Field path={`${at}.img.type`} issues={issues} label={t('adunit.asset.img_type')}>
                          <Select<number>
                            id={fieldDomId(`${at}.img.type`)}
                            value={a.img.type}
                            options={NATIVE_IMAGE_TYPES.map((x) => ({ value: x, label: t(`adunit.img_type.${x}`) }))}
                            onChange={(x) => setAsset(i, (asset) => void (asset.img!.type = x))}
                            style={{ width: '100%' }}
                          />
                        </Field>
                      </Col>
                      <Col xs={12} sm={8}>
                        <Field path={`${at}.img.wmin`} issues={issues} label={t('adunit.asset.min_w')}>
                          {optionalInt(`${at}.img.wmin`, () => a.img?.wmin, (d, n) => void (n === undefined ? delete d.mediaTypes.native!.ortb.assets[i]!.img!.wmin : (d.mediaTypes.native!.ortb.assets[i]!.img!.wmin = n)), 1)}
                        </Field>
                      </Col>
                      <Col xs={12} sm={8}>
                        <Field path={`${at}.img.hmin`} issues={issues} label={t('adunit.asset.min_h')}>
                          {optionalInt(`${at}.img.hmin`, () => a.img?.hmin, (d, n) => void (n === undefined ? delete d.mediaTypes.native!.ortb.assets[i]!.img!.hmin : (d.mediaTypes.native!.ortb.assets[i]!.img!.hmin = n)), 1)}
                        </Field>
                      </Col>
                    </Row>
                  ) : null}
                  {a.data ? (
                    <Row gutter={12}>
                      <Col xs={24} sm={12}>
                        <Field path={`${at}.data.type`} issues={issues} label={t('adunit.asset.data_type')}>
                          <Select<number>
                            id={fieldDomId(`${at}.data.type`)}
                            value={a.data.type}
                            options={NATIVE_DATA_TYPES.map((x) => ({ value: x, label: t(`adunit.data_type.${x}`) }))}
                            onChange={(x) => setAsset(i, (asset) => void (asset.data!.type = x))}
                            style={{ width: '100%' }}
                          />
                        </Field>
                      </Col>
                      <Col xs={24} sm={12}>
                        <Field path={`${at}.data.len`} issues={issues} label={t('adunit.asset.len')}>
                          {optionalInt(`${at}.data.len`, () => a.data?.len, (d, n) => void (n === undefined ? delete d.mediaTypes.native!.ortb.assets[i]!.data!.len : (d.mediaTypes.native!.ortb.assets[i]!.data!.len = n)), 1)}
                        </Field>
                      </Col>
                    </Row>
                  ) : null}
                </Card>
              );
            })}
            <Button
              className="bo-adunit-add"
              icon={<PlusOutlined />}
              onClick={() =>
                update((d) => {
                  const assets = d.mediaTypes.native!.ortb.assets;
                  assets.push({ id: Math.max(0, ...assets.map((x) => x.id)) + 1, required: 0, data: { type: 2, len: 140 } });
                })
              }
            >
              {t('adunit.asset.add')}
            </Button>
          </Card>
        ) : null}
      </Section>

      <Section title={t('adunit.section.bidders')} testId="adunit-bidders">
        <PathIssues path="bids" issues={issues} />
        {c.bids.map((bid, i) => (
          <BidderCard
            key={i}
            bid={bid}
            index={i}
            issues={issues}
            onChange={(b) => update((d) => void (d.bids[i] = b))}
            onRemove={() => update((d) => void d.bids.splice(i, 1))}
          />
        ))}
        <Button className="bo-adunit-add" icon={<PlusOutlined />} onClick={() => update((d) => void d.bids.push({ bidder: '', params: {} }))} data-testid="adunit-bidder-add">
          {t('adunit.bidder.add')}
        </Button>
      </Section>

      <Section title={t('adunit.section.floor')} testId="adunit-floor">
        <Form.Item extra={t('adunit.field.floor_help')}>
          <Switch
            id={fieldDomId('floor')}
            checked={c.floor !== undefined}
            onChange={(on) => update((d) => void (on ? (d.floor = { cpm: '', currency: 'USD' }) : delete d.floor))}
            aria-label={t('adunit.field.floor_on')}
            data-testid="adunit-floor-on"
          />{' '}
          <label htmlFor={fieldDomId('floor')}>{t('adunit.field.floor_on')}</label>
        </Form.Item>
        {c.floor ? (
          <Row gutter={12}>
            <Col xs={24} sm={12}>
              <Field path="floor.cpm" issues={issues} label={t('adunit.field.floor_cpm')} required>
                <Input id={fieldDomId('floor.cpm')} value={c.floor.cpm} inputMode="decimal" autoComplete="off" onChange={(e) => update((d) => void (d.floor!.cpm = e.target.value.trim()))} data-testid="adunit-floor-cpm" />
              </Field>
            </Col>
            <Col xs={24} sm={12}>
              <Field path="floor.currency" issues={issues} label={t('adunit.field.currency')}>
                <Select<(typeof CURRENCIES)[number]>
                  id={fieldDomId('floor.currency')}
                  value={c.floor.currency}
                  options={CURRENCIES.map((x) => ({ value: x, label: x }))}
                  onChange={(x) => update((d) => void (d.floor!.currency = x))}
                  style={{ width: '100%' }}
                />
              </Field>
            </Col>
          </Row>
        ) : null}
      </Section>
    </Form>
  );
}

/**
 * The VAST builder's preview (docs/decisions/038-vast-builder.md): an HTML5 player for the chosen
 * media file (MP4 / WebM that this browser can play) with the ad's click-through, the IAB macros
 * the document uses (unknown ones flagged), and for a Wrapper the VAST it points to. The preview
 * plays; it never fires the ad's trackers. The app's Content-Security-Policy lets media come from
 * this server only, so an advertiser's CDN file may not play here: the player says so and offers
 * this server's demo video (the test ad server's) to try the player with.
 */
import { CheckCircleOutlined, LinkOutlined, PlayCircleOutlined, WarningOutlined } from '@ant-design/icons';
import { SERVE_MEDIA_PATH } from '@backoffice/core/builders/jstag';
import { isVastUrl, vastMacros, type VastConfig, type VastMediaFile } from '@backoffice/core/builders/vast';
import { Alert, Button, Empty, Form, Select, Tag, Typography } from 'antd';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { REST_BASE } from '../../lib/api.ts';
import type { BuilderPreviewProps } from '../../components/builders/types.ts';

const PLAYABLE_TYPES = ['video/mp4', 'video/webm', 'video/ogg'];

/** The demo video of this server's test ad server (absolute, for a VAST MediaFile). */
export function demoMediaUrl(): string {
  return new URL(`${REST_BASE}${SERVE_MEDIA_PATH}`, window.location.href).href;
}

/** A media file the HTML5 player may play (whether this browser decodes it shows when it tries). */
function canPlay(mf: VastMediaFile): boolean {
  return PLAYABLE_TYPES.includes(mf.type.trim().toLowerCase().split(';')[0]!) && isVastUrl(mf.url);
}

export function VastPreview({ config, output }: BuilderPreviewProps<VastConfig>) {
  const { t } = useTranslation();
  const uid = useId();
  const media = useMemo(() => config.creatives.flatMap((cr) => cr.linear.media_files), [config.creatives]);
  const playable = useMemo(() => media.filter(canPlay), [media]);
  const [picked, setPicked] = useState(0);
  const [failed, setFailed] = useState<string | null>(null);
  const [demo, setDemo] = useState(false);
  const chosen = playable[Math.min(picked, playable.length - 1)];
  const src = demo ? demoMediaUrl() : chosen?.url.trim();
  const clickThrough = config.creatives.map((cr) => cr.linear.click_through.trim()).find((u) => isVastUrl(u));
  const macros = useMemo(() => (output ? vastMacros(output.code) : []), [output]);
  // Listened to here, and video.error read once listening: a source the CSP refuses fails at once,
  // sometimes before the element's first commit, and its error event would be missed.
  const video = useRef<HTMLVideoElement>(null);
  useEffect(() => {
    const el = video.current;
    if (!el || !src) return;
    const failedNow = () => setFailed(src);
    const played = () => setFailed(null);
    el.addEventListener('error', failedNow);
    el.addEventListener('loadeddata', played);
    if (el.error) failedNow();
    return () => {
      el.removeEventListener('error', failedNow);
      el.removeEventListener('loadeddata', played);
    };
  }, [src]);

  if (!output) return <Typography.Paragraph type="secondary">{t('vast.preview.unreadable')}</Typography.Paragraph>;

  return (
    <div className="bo-vast-preview" data-testid="vast-preview-body">
      {config.ad_type === 'inline' ? (
        <>
          {playable.length > 1 && !demo ? (
            <Form.Item label={t('vast.preview.media')} htmlFor={`${uid}-media`} className="bo-vast-preview__pick">
              <Select
                id={`${uid}-media`}
                value={Math.min(picked, playable.length - 1)}
                onChange={(i: number) => {
                  setPicked(i);
                  setFailed(null);
                }}
                options={playable.map((mf, i) => ({ value: i, label: t('vast.preview.media_option', { type: mf.type, width: mf.width ?? '?', height: mf.height ?? '?' }) }))}
                data-testid="vast-preview-media"
              />
            </Form.Item>
          ) : null}
          {src ? (
            <video
              ref={video}
              key={src}
              className="bo-vast-preview__video"
              src={src}
              controls
              muted
              playsInline
              preload="metadata"
              aria-label={t('vast.preview.player')}
              data-testid="vast-preview-video"
            />
          ) : (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={media.length === 0 ? t('vast.preview.no_media') : t('vast.preview.no_playable')} />
          )}
          {failed && failed === src ? (
            <Alert
              type="warning"
              showIcon
              className="bo-vast-preview__note"
              title={t('vast.preview.media_error', { url: failed })}
              action={
                !demo ? (
                  <Button size="small" icon={<PlayCircleOutlined />} onClick={() => setDemo(true)} data-testid="vast-preview-demo">
                    {t('vast.preview.demo_video')}
                  </Button>
                ) : undefined
              }
              data-testid="vast-preview-error"
            />
          ) : null}
          {demo ? (
            <Typography.Paragraph type="secondary" className="bo-vast-preview__note">
              {t('vast.preview.demo_playing')}{' '}
              <Button type="link" size="small" onClick={() => setDemo(false)}>
                {t('vast.preview.demo_back')}
              </Button>
            </Typography.Paragraph>
          ) : null}
          {clickThrough ? (
            <Typography.Paragraph className="bo-vast-preview__click">
              <a href={clickThrough} target="_blank" rel="noopener noreferrer" data-testid="vast-preview-click-through">
                <LinkOutlined /> {t('vast.preview.open_click_through')}
              </a>
              <Typography.Text type="secondary" className="bo-vast-preview__url">
                {clickThrough}
              </Typography.Text>
            </Typography.Paragraph>
          ) : null}
        </>
      ) : (
        <div className="bo-vast-preview__wrapper" data-testid="vast-preview-wrapper">
          {isVastUrl(config.wrapper.tag_uri) ? (
            <>
              <Typography.Text strong>{t('vast.preview.wrapper')}</Typography.Text>
              <Typography.Paragraph copyable={{ text: config.wrapper.tag_uri.trim() }} className="bo-vast-preview__url">
                <code>{config.wrapper.tag_uri.trim()}</code>
              </Typography.Paragraph>
            </>
          ) : (
            <Typography.Paragraph type="secondary">{t('vast.preview.wrapper_none')}</Typography.Paragraph>
          )}
        </div>
      )}
      <section className="bo-vast-preview__macros" aria-labelledby={`${uid}-macros`} data-testid="vast-preview-macros">
        <h3 id={`${uid}-macros`} className="bo-builder-section__title">
          {t('vast.preview.macros')}
        </h3>
        {macros.length === 0 ? (
          <Typography.Text type="secondary">{t('vast.preview.macros_none')}</Typography.Text>
        ) : (
          <ul className="bo-vast-macros">
            {macros.map((m) => (
              <li key={m.name} data-known={m.known} data-testid="vast-macro">
                {/* Neutral tags: the text says known or not (coloured tags miss the contrast in one theme or the other). */}
                <Tag icon={m.known ? <CheckCircleOutlined /> : <WarningOutlined />} className={m.known ? undefined : 'bo-vast-macro--unknown'}>
                  [{m.name}]
                </Tag>
                <span>{m.known ? t('vast.preview.macro_known', { name: m.name, count: m.count }) : t('vast.preview.macro_unknown', { name: m.name })}</span>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

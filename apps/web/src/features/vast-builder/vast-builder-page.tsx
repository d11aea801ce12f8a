/**
 * The VAST builder screen (`/utils/vastbuilder`; issue 25, docs/decisions/038-vast-builder.md):
 * the shared builder page (code view, XSD check by the API, versions, compare) with the VAST
 * form, the preview player and "Load a VAST". Its own lazy chunk (app/screens.ts).
 *
 * The examples are core's (the demo seed saves the same ones), named in the UI language, plus one
 * that plays this server's demo video: the app's CSP lets the preview play media from this server
 * only, and that example's URLs need this server's address, which only the browser knows.
 */
import { SERVE_CLICK_PATH, SERVE_TRACK_PATH } from '@backoffice/core/builders/jstag';
import { vastBuilder, type VastConfig } from '@backoffice/core/builders/vast';
import type { BuilderDefinition } from '@backoffice/core/builders/common';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { REST_BASE } from '../../lib/api.ts';
import { BuilderPage } from '../../components/builders/builder-page.tsx';
import { VastForm } from './vast-form.tsx';
import { VastLoadButton } from './vast-load-modal.tsx';
import { VastPreview, demoMediaUrl } from './vast-preview.tsx';
import './vast-builder.css';

const EXAMPLE_KEYS = ['vast.example.inline42', 'vast.example.wrapper42', 'vast.example.inline30'];

/** An InLine 4.2 ad playing the test ad server's demo video, tracked by the test ad server. */
export function demoExample(title: string): VastConfig {
  const server = new URL(REST_BASE || '/', window.location.href).origin;
  const track = (event: string) => `${server}${SERVE_TRACK_PATH}?e=${event}&ad=bo-vast-builder&cb=[CACHEBUSTING]`;
  return {
    ...vastBuilder.defaults(),
    ad_id: 'bo-vast-builder-demo',
    ad_system: { name: 'Back Office Ad Server', version: '4.2' },
    ad_title: title,
    ad_serving_id: 'bo-vast-builder-demo',
    impressions: [{ id: 'bo-test-server', url: track('impression') }],
    error_urls: [`${server}${SERVE_TRACK_PATH}?e=error&ad=bo-vast-builder&code=[ERRORCODE]`],
    creatives: [
      {
        id: 'bo-demo-creative',
        sequence: 1,
        ad_id: 'bo-demo',
        universal_ad_id: { registry: 'unknown', value: 'unknown' },
        linear: {
          duration: '00:00:10',
          skipoffset: '00:00:05',
          media_files: [{ delivery: 'progressive', type: 'video/mp4', width: 256, height: 144, bitrate: null, codec: 'avc1.42C01E', url: demoMediaUrl() }],
          tracking: ['start', 'firstQuartile', 'midpoint', 'thirdQuartile', 'complete'].map((event) => ({ event, url: track(event), offset: '' })),
          click_through: `${server}${SERVE_CLICK_PATH}?unit=vast-builder-demo`,
          click_tracking: [{ id: 'bo-test-server', url: track('click') }],
        },
      },
    ],
  };
}

export default function VastBuilderPage() {
  const { t } = useTranslation();
  const definition = useMemo<BuilderDefinition<VastConfig>>(
    () => ({
      ...vastBuilder,
      examples: () => [
        ...vastBuilder.examples().map((e, i) => ({ ...e, name: EXAMPLE_KEYS[i] ? t(EXAMPLE_KEYS[i]) : e.name })),
        { name: t('vast.example.demo'), config: demoExample(t('vast.example.demo_title')) },
      ],
    }),
    [t],
  );
  return (
    <BuilderPage
      definition={definition}
      titleKey="menu.vastbuilder"
      introKey="vast.intro"
      Form={VastForm}
      Preview={VastPreview}
      extraActions={(commands) => <VastLoadButton commands={commands} />}
      validKey="vast.status.valid"
      validParams={(c) => ({ version: c.version })}
    />
  );
}

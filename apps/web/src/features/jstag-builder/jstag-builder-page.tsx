/**
 * The JS tag builder screen (`/utils/jstagbuilder`; issue 25, decision 040): the shared builder
 * page (code view, versions, compare) with the tag's form and a live preview in a sandboxed frame.
 * Its own lazy chunk (app/screens.ts).
 *
 * A new tag and the examples point at this server's address as the ad server (the API's own
 * origin, which only the browser knows): the tag then works as pasted, against the test ad server.
 */
import type { BuilderDefinition } from '@backoffice/core/builders/common';
import { jstagBuilder, type JsTagConfig } from '@backoffice/core/builders/jstag';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { REST_BASE } from '../../lib/api.ts';
import { BuilderPage } from '../../components/builders/builder-page.tsx';
import { JsTagForm } from './jstag-form.tsx';
import { JsTagPreview } from './jstag-preview.tsx';
import { thisServerOrigin } from '../../components/builders/tag-fields.tsx';
import '../../components/builders/tag-builders.css';

export default function JsTagBuilderPage() {
  const { t } = useTranslation();
  const definition = useMemo<BuilderDefinition<JsTagConfig>>(() => {
    const server = thisServerOrigin(REST_BASE);
    const here = (c: JsTagConfig): JsTagConfig => (c.server_url === '' ? { ...c, server_url: server } : c);
    return {
      ...jstagBuilder,
      defaults: () => here(jstagBuilder.defaults()),
      examples: () => jstagBuilder.examples().map((e, i) => ({ name: t(`jstag.example.${i}`, { defaultValue: e.name }), config: here(e.config) })),
    };
  }, [t]);
  return (
    <BuilderPage
      definition={definition}
      titleKey="menu.jstagbuilder"
      introKey="jstag.intro"
      Form={JsTagForm}
      Preview={JsTagPreview}
      validKey="jstag.status.valid"
      validParams={(c) => ({ type: t(`jstag.type.${c.type}`) })}
    />
  );
}

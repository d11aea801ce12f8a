/**
 * The PlayOn builders screen (`/utils/playon-builders`; issue 25, decision 040): the shared
 * builder page with PlayOn's form and its player previewed in a sample article. Its own lazy chunk.
 * A new embed and the examples load the player from this server (the API's own origin).
 */
import type { BuilderDefinition } from '@backoffice/core/builders/common';
import { playonBuilder, type PlayOnConfig } from '@backoffice/core/builders/playon';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { REST_BASE } from '../../lib/api.ts';
import { BuilderPage } from '../../components/builders/builder-page.tsx';
import { thisServerOrigin } from '../../components/builders/tag-fields.tsx';
import '../../components/builders/tag-builders.css';
import { PlayOnForm } from './playon-form.tsx';
import { PlayOnPreview } from './playon-preview.tsx';
import './playon-builder.css';

export default function PlayOnBuilderPage() {
  const { t } = useTranslation();
  const definition = useMemo<BuilderDefinition<PlayOnConfig>>(() => {
    const server = thisServerOrigin(REST_BASE);
    const here = (c: PlayOnConfig): PlayOnConfig => (c.server_url === '' ? { ...c, server_url: server } : c);
    return {
      ...playonBuilder,
      defaults: () => here(playonBuilder.defaults()),
      examples: () => playonBuilder.examples().map((e, i) => ({ name: t(`playon.example.${i}`, { defaultValue: e.name }), config: here(e.config) })),
    };
  }, [t]);
  return (
    <BuilderPage
      definition={definition}
      titleKey="menu.playon_builders"
      introKey="playon.intro"
      Form={PlayOnForm}
      Preview={PlayOnPreview}
      testId="playon"
      validKey="playon.status.valid"
      validParams={(c) => ({ placement: t(`playon.placement.${c.placement}`) })}
    />
  );
}

/**
 * The ad unit generator screen (`/utils/adunit_generator`; issue 25, decision 039): the shared
 * builder page (code view, the API's check against Prebid's documented ad unit shape, versions,
 * compare) with the ad unit form and, beside the code, the same ad units as plain JSON for
 * integrations. Its own lazy chunk (app/screens.ts).
 */
import { adunitBuilder, type AdUnitGenConfig } from '@backoffice/core/builders/adunit';
import type { BuilderDefinition } from '@backoffice/core/builders/common';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { BuilderPage } from '../../components/builders/builder-page.tsx';
import { AdUnitForm } from './adunit-form.tsx';
import { AdUnitsJsonPreview } from './adunit-json-preview.tsx';
import './adunit-generator.css';

export default function AdUnitGeneratorPage() {
  const { t } = useTranslation();
  const definition = useMemo<BuilderDefinition<AdUnitGenConfig>>(
    () => ({ ...adunitBuilder, examples: () => adunitBuilder.examples().map((e, i) => ({ ...e, name: t(`adunit.example.${i}`) })) }),
    [t],
  );
  return (
    <BuilderPage
      definition={definition}
      titleKey="menu.adunit_generator"
      introKey="adunit.intro"
      Form={AdUnitForm}
      Preview={AdUnitsJsonPreview}
      validKey="adunit.status.valid"
      testId="adunit"
    />
  );
}

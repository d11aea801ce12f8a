/**
 * The SDK builder (`/utils/sdk-builder`; docs/decisions/041-sdk-and-app-tracking.md): the shared
 * builder page with the SDK configuration's definition (packages/core/src/builders/sdk.ts) and
 * its form. Its own lazy chunk (app/screens.ts).
 */
import { sdkBuilder } from '@backoffice/core/builders/sdk';
import { BuilderPage } from '../../components/builders/builder-page.tsx';
import { SdkForm } from './sdk-form.tsx';

export default function SdkBuilderPage() {
  return <BuilderPage definition={sdkBuilder} titleKey="menu.sdk_builder" introKey="sdk.intro" Form={SdkForm} testId="sdk" validKey="sdk.valid" />;
}

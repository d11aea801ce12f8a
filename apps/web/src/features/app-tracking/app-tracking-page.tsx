/**
 * The app tracking manager (`/utils/app-tracking-manager`; docs/decisions/041-sdk-and-app-tracking.md):
 * the shared builder page with the tracking definition (packages/core/src/builders/app-tracking.ts)
 * and its form. iOS output is a property list (checked by the API against Apple's DTD), Android's
 * a JSON file. Its own lazy chunk (app/screens.ts).
 */
import { appTrackingBuilder } from '@backoffice/core/builders/app-tracking';
import { BuilderPage } from '../../components/builders/builder-page.tsx';
import { AppTrackingForm } from './app-tracking-form.tsx';

export default function AppTrackingPage() {
  return (
    <BuilderPage
      definition={appTrackingBuilder}
      titleKey="menu.app_tracking_manager"
      introKey="app_tracking.intro"
      Form={AppTrackingForm}
      testId="tracking"
      validKey="app_tracking.valid"
      validParams={(c) => ({ output: c.platform === 'ios' ? 'Info.plist' : 'app_tracking.json' })}
    />
  );
}

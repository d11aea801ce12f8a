/** The visible "Simulating …" state with the way back to the ADMIN's own session. */
import { Alert, Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSession } from '../lib/session-store.ts';
import { useStopSimulation } from './simulator.tsx';

export function SimulationBanner() {
  const { t } = useTranslation();
  const simulation = useSession((s) => s.simulation);
  const stop = useStopSimulation();
  if (!simulation) return null;
  const text =
    simulation.kind === 'role'
      ? t('simulation.active_role', { name: simulation.label })
      : t('simulation.active_user', { name: simulation.label });
  return (
    <Alert
      banner
      type="warning"
      showIcon
      className="bo-simulation-banner"
      data-testid="simulation-banner"
      title={text}
      action={
        <Button size="small" onClick={stop} data-testid="simulation-stop">
          {t('simulation.stop')}
        </Button>
      }
    />
  );
}

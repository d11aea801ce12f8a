/**
 * Schedule e-mailing of a saved DataViewer (owned by the schedules work). The DataViewer page
 * renders it in its toolbar for a saved DataViewer; it renders nothing until that work lands.
 */
export interface ScheduleButtonProps {
  /** The saved DataViewer's id. */
  dataviewerId: number;
  /** Whether the signed-in person may change this DataViewer (owner or ADMIN). */
  canEdit: boolean;
}

export function ScheduleButton(_props: ScheduleButtonProps) {
  return null;
}

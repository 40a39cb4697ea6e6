import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Spinner from 'react-bootstrap/Spinner';
import {
  appliedAtMaintenanceWindowText,
  appliedText,
  applyAtMaintenanceWindowText,
  applyNowText,
} from '@cloudtrim/contracts/messages';
import { ApiError } from '../../../lib/api-client';
import { useIsReadOnly } from '../../../lib/my-role';
import { useApplyRecommendation, type ApplyTiming } from '../api/apply-recommendation';
import './recommendation-list.css';

interface ApplyRecommendationButtonsProps {
  recommendationId: number;
}

// SPEC §8: an apply failure shows the status text (the message only when there is none, as for a
// network failure); a 401 shows nothing while the session ends. The role a read-only tenant lacks is
// on the tenant's status.
export function describeApplyError(error: Error): string | null {
  if (!(error instanceof ApiError)) return error.message;
  if (error.status === 401) return null;
  return error.statusText || error.message;
}

/**
 * SPEC §4's APPLY NOW and APPLY AT MAINTENANCE WINDOW: a spinner while one runs, then its done text;
 * both stay disabled while either runs or once either is done, and for a Viewer.
 */
export function ApplyRecommendationButtons({ recommendationId }: ApplyRecommendationButtonsProps) {
  const apply = useApplyRecommendation();
  // A Viewer reads only: the server would refuse the apply.
  const isReadOnly = useIsReadOnly();
  const isLocked = apply.isPending || apply.isSuccess || isReadOnly;
  const errorText = apply.error ? describeApplyError(apply.error) : null;

  function renderLabel(timing: ApplyTiming, idleText: string, doneText: string) {
    if (apply.variables?.timing !== timing) return idleText;
    if (apply.isPending) {
      return (
        <Spinner animation="border" size="sm" role="status">
          <span className="visually-hidden">Applying</span>
        </Spinner>
      );
    }
    return apply.isSuccess ? doneText : idleText;
  }

  return (
    <div className="apply-buttons">
      <Button
        size="sm"
        variant={apply.isSuccess && apply.variables.timing === 'now' ? 'success' : 'primary'}
        disabled={isLocked}
        onClick={(event) => {
          event.stopPropagation();
          apply.mutate({ id: recommendationId, timing: 'now' });
        }}
      >
        {renderLabel('now', applyNowText, appliedText)}
      </Button>
      <Button
        size="sm"
        variant={
          apply.isSuccess && apply.variables.timing === 'maintenanceWindow' ? 'success' : 'outline-primary'
        }
        disabled={isLocked}
        onClick={(event) => {
          event.stopPropagation();
          apply.mutate({ id: recommendationId, timing: 'maintenanceWindow' });
        }}
      >
        {renderLabel('maintenanceWindow', applyAtMaintenanceWindowText, appliedAtMaintenanceWindowText)}
      </Button>
      {errorText ? (
        <Alert variant="danger" dismissible onClose={() => apply.reset()} className="apply-error mb-0">
          {errorText}
        </Alert>
      ) : null}
    </div>
  );
}

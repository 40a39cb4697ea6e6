import { AutomationLogList } from '../../features/automation/components/automation-log-list';
import { Recommendations } from '../../features/recommendations/components/recommendations';

/** /recommendations: the recommendations screen with the automation feature's log in its second tab. */
export function RecommendationsRoute() {
  return <Recommendations automationLogList={<AutomationLogList />} />;
}

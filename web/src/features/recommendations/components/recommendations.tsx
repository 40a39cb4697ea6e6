import type { ReactNode } from 'react';
import Tab from 'react-bootstrap/Tab';
import Tabs from 'react-bootstrap/Tabs';
import { formatAnnualCostSavings } from '@cloudtrim/contracts/recommendations';
import { PageHeading } from '../../../components/page-heading';
import { RecommendationList } from './recommendation-list';
import { useRecommendations } from '../api/get-recommendations';
import { TeamSettingsForm } from './team-settings-form';
import '../../../components/data-views.css';
import './recommendations.css';

function TotalSavings() {
  // The same query as the list below, so this costs no second call.
  const recommendations = useRecommendations();
  if (!recommendations.data || recommendations.data.length === 0) return null;
  const total = recommendations.data.reduce(
    (sum, recommendation) => sum + recommendation.AnnualCostSavings,
    0,
  );
  const count = recommendations.data.length;
  return (
    <div className="total-savings" role="status">
      <span className="total-savings-label">Annual savings on offer</span>
      <span className="total-savings-amount">{formatAnnualCostSavings(total)}</span>
      <span className="total-savings-count">
        across {count} recommendation{count === 1 ? '' : 's'}
      </span>
    </div>
  );
}

/**
 * /recommendations: the team's recommendations with their savings, and the automation log beside them
 * (the automation feature's, composed by the route).
 */
export function Recommendations({ automationLogList }: { automationLogList: ReactNode }) {
  return (
    <>
      <PageHeading title="Recommendations" />
      <div className="recommendations-summary">
        <TotalSavings />
        <details className="team-settings">
          <summary>Analysis settings</summary>
          <TeamSettingsForm />
        </details>
      </div>
      <Tabs defaultActiveKey="recommendations" mountOnEnter className="mb-3">
        <Tab eventKey="recommendations" title="Recommendations">
          <div className="data-panel">
            <RecommendationList />
          </div>
        </Tab>
        <Tab eventKey="automation-logs" title="Automation Logs">
          <div className="data-panel">{automationLogList}</div>
        </Tab>
      </Tabs>
    </>
  );
}

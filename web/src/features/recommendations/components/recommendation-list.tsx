import { Fragment, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import OverlayTrigger from 'react-bootstrap/OverlayTrigger';
import Table from 'react-bootstrap/Table';
import Tooltip from 'react-bootstrap/Tooltip';
import { noRecommendationsText } from '@cloudtrim/contracts/messages';
import { pageSize } from '@cloudtrim/contracts/paging';
import {
  formatAnnualCostSavings,
  wastePredictionMethod,
  type Recommendation,
} from '@cloudtrim/contracts/recommendations';
import { formatUtcDateTime } from '../../../lib/format-date-time';
import { useRecommendations } from '../api/get-recommendations';
import { describeLoadError, isNetworkFailure } from '../../../lib/load-failure';
import { useLogListLayout } from '../../../lib/use-media-query';
import { ApplyRecommendationButtons } from './apply-recommendation-buttons';
import { DataLoading } from '../../../components/data-loading';
import { Pagination } from '../../../components/pagination';
import { clampPage, getPageCount } from '../../../components/pagination-pages';
import { RecommendationEvidence } from './recommendation-evidence';
import '../../../components/data-views.css';
import './recommendation-list.css';

const evidenceText = 'EVIDENCE';

interface RecommendationViewProps {
  recommendations: readonly Recommendation[];
  openId: number | null;
  onToggle: (id: number) => void;
}

/** The recommendation's words, with its Memo as a tooltip on hover and keyboard focus (SPEC §2). */
function RecommendationText({ recommendation }: { recommendation: Recommendation }) {
  if (!recommendation.Memo) return <span>{recommendation.Recommendation}</span>;
  return (
    <OverlayTrigger
      placement="auto"
      trigger={['hover', 'focus']}
      overlay={
        <Tooltip id={`recommendation-memo-${recommendation.Id}`} className="memo-tooltip">
          {recommendation.Memo}
        </Tooltip>
      }
    >
      <span className="has-tooltip" tabIndex={0}>
        {recommendation.Recommendation}
      </span>
    </OverlayTrigger>
  );
}

function EvidenceButton({
  id,
  isOpen,
  onToggle,
}: {
  id: number;
  isOpen: boolean;
  onToggle: (id: number) => void;
}) {
  return (
    <Button
      size="sm"
      variant={isOpen ? 'secondary' : 'outline-secondary'}
      aria-expanded={isOpen}
      onClick={(event) => {
        event.stopPropagation();
        onToggle(id);
      }}
    >
      {evidenceText}
    </Button>
  );
}

function Actions({
  recommendation,
  openId,
  onToggle,
}: { recommendation: Recommendation } & Omit<RecommendationViewProps, 'recommendations'>) {
  return (
    <div className="recommendation-actions">
      <ApplyRecommendationButtons recommendationId={recommendation.Id} />
      {/* Waste is judged on the resource's state, not a forecast: there is no chart to show. */}
      {recommendation.PredictionMethod === wastePredictionMethod ? null : (
        <EvidenceButton id={recommendation.Id} isOpen={openId === recommendation.Id} onToggle={onToggle} />
      )}
    </div>
  );
}

function RecommendationTable({
  recommendations,
  openId,
  onToggle,
  isCondensed,
}: RecommendationViewProps & { isCondensed: boolean }) {
  const columnCount = isCondensed ? 4 : 7;
  return (
    <Table responsive className="data-table recommendation-table">
      <thead>
        {isCondensed ? (
          <tr>
            <th scope="col">RESOURCE</th>
            <th scope="col">RECOMMENDATION</th>
            <th scope="col">ANNUAL COST SAVINGS</th>
            <th scope="col">ACTIONS</th>
          </tr>
        ) : (
          <tr>
            <th scope="col">ID</th>
            <th scope="col">RESOURCE</th>
            <th scope="col">WHEN</th>
            <th scope="col">PREDICTION METHOD</th>
            <th scope="col">RECOMMENDATION</th>
            <th scope="col">ANNUAL COST SAVINGS</th>
            <th scope="col">ACTIONS</th>
          </tr>
        )}
      </thead>
      <tbody>
        {recommendations.map((recommendation) => {
          const isOpen = recommendation.Id === openId;
          return (
            <Fragment key={recommendation.Id}>
              <tr
                className={isOpen ? 'expandable-row is-expanded' : 'expandable-row'}
                onClick={() => onToggle(recommendation.Id)}
              >
                {isCondensed ? (
                  <td title={recommendation.ResourceId}>
                    <div className="fw-semibold">{recommendation.FriendlyName}</div>
                    <div className="data-subtext">
                      #{recommendation.Id} · {formatUtcDateTime(recommendation.When, { isCompact: true })}
                    </div>
                  </td>
                ) : (
                  <>
                    <td>{recommendation.Id}</td>
                    <td title={recommendation.ResourceId}>{recommendation.FriendlyName}</td>
                    <td className="recommendation-when">
                      {formatUtcDateTime(recommendation.When, { isCompact: true })}
                    </td>
                    <td>{recommendation.PredictionMethod}</td>
                  </>
                )}
                <td className="cell-wrap recommendation-text">
                  <RecommendationText recommendation={recommendation} />
                  {isCondensed ? <div className="data-subtext">{recommendation.PredictionMethod}</div> : null}
                </td>
                <td className="text-nowrap text-end">
                  {formatAnnualCostSavings(recommendation.AnnualCostSavings)}
                </td>
                <td>
                  <Actions recommendation={recommendation} openId={openId} onToggle={onToggle} />
                </td>
              </tr>
              {isOpen ? (
                <tr className="metrics-row">
                  <td colSpan={columnCount}>
                    <RecommendationEvidence recommendationId={recommendation.Id} />
                  </td>
                </tr>
              ) : null}
            </Fragment>
          );
        })}
      </tbody>
    </Table>
  );
}

function RecommendationCards({ recommendations, openId, onToggle }: RecommendationViewProps) {
  return (
    <div className="data-card-list">
      {recommendations.map((recommendation) => (
        <Card key={recommendation.Id} className="data-card">
          <Card.Body>
            <Card.Title as="h3" title={recommendation.ResourceId}>
              {recommendation.FriendlyName}
            </Card.Title>
            <dl className="data-card-fields">
              <dt>ID</dt>
              <dd>{recommendation.Id}</dd>
              <dt>WHEN</dt>
              <dd>{formatUtcDateTime(recommendation.When)}</dd>
              <dt>PREDICTION METHOD</dt>
              <dd>{recommendation.PredictionMethod}</dd>
              <dt>RECOMMENDATION</dt>
              <dd>
                <RecommendationText recommendation={recommendation} />
              </dd>
              <dt>ANNUAL COST SAVINGS</dt>
              <dd>{formatAnnualCostSavings(recommendation.AnnualCostSavings)}</dd>
            </dl>
            <div className="mt-3">
              <Actions recommendation={recommendation} openId={openId} onToggle={onToggle} />
            </div>
          </Card.Body>
          {openId === recommendation.Id ? (
            <div className="metrics-panel">
              <RecommendationEvidence recommendationId={recommendation.Id} />
            </div>
          ) : null}
        </Card>
      ))}
    </div>
  );
}

/**
 * The recommendations shown as they are given, 30 a page as SPEC's other lists, each with its apply
 * buttons and evidence chart. A 10,000-VM estate has hundreds: laid out all at once, with a tooltip
 * and two buttons each, they held the page for over half a second after the answer arrived.
 */
export function RecommendationListView({ recommendations }: { recommendations: readonly Recommendation[] }) {
  const layout = useLogListLayout();
  const [openId, setOpenId] = useState<number | null>(null);
  const [page, setPage] = useState(1);

  function onToggle(id: number) {
    setOpenId((current) => (current === id ? null : id));
  }

  if (recommendations.length === 0) return <p className="data-empty">{noRecommendationsText}</p>;
  // The list may have shrunk since the page was chosen (a recommendation applied meanwhile).
  const pageCount = getPageCount(recommendations.length, pageSize);
  const currentPage = clampPage(page, pageCount);
  const viewProps = {
    recommendations: recommendations.slice((currentPage - 1) * pageSize, currentPage * pageSize),
    openId,
    onToggle,
  };
  return (
    <>
      {layout === 'cards' ? (
        <RecommendationCards {...viewProps} />
      ) : (
        <RecommendationTable {...viewProps} isCondensed={layout === 'condensed'} />
      )}
      {pageCount > 1 ? (
        <Pagination
          label="Recommendation pages"
          currentPage={currentPage}
          totalEntries={recommendations.length}
          onPageChange={setPage}
        />
      ) : null}
    </>
  );
}

/** SPEC's recommendation list, all of the team's or one resource's, with §8's empty and error texts. */
export function RecommendationList({ resourceId }: { resourceId?: string }) {
  const recommendations = useRecommendations(resourceId);
  if (recommendations.isPending) return <DataLoading label="Loading recommendations" />;
  if (recommendations.isError) {
    return isNetworkFailure(recommendations.error) ? (
      <p className="data-empty">{noRecommendationsText}</p>
    ) : (
      <p className="data-error" role="alert">
        {describeLoadError(recommendations.error)}
      </p>
    );
  }
  return <RecommendationListView recommendations={recommendations.data} />;
}

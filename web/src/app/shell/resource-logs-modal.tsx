import { useId } from 'react';
import Modal from 'react-bootstrap/Modal';
import Tab from 'react-bootstrap/Tab';
import Tabs from 'react-bootstrap/Tabs';
import { AutomationLogList } from '../../features/automation/components/automation-log-list';
import { RecommendationList } from '../../features/recommendations/components/recommendation-list';
import '../../components/data-views.css';

interface ResourceLogsModalProps {
  resourceId: string;
  resourceName: string;
  isShown: boolean;
  onHide: () => void;
}

/** The automation view's LOGS modal (SPEC §2): one resource's recommendations and automation logs. */
export function ResourceLogsModal({ resourceId, resourceName, isShown, onHide }: ResourceLogsModalProps) {
  const titleId = useId();
  return (
    <Modal
      show={isShown}
      onHide={onHide}
      aria-labelledby={titleId}
      size="xl"
      fullscreen="lg-down"
      className="modal-stacked"
      backdropClassName="modal-backdrop-stacked"
    >
      <Modal.Header closeButton>
        <Modal.Title as="h2" id={titleId} title={resourceId} className="fs-4">
          Logs for {resourceName}
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        {/* Each tab mounts (and loads) only once it is opened. */}
        <Tabs defaultActiveKey="recommendations" mountOnEnter className="mb-3">
          <Tab eventKey="recommendations" title="Recommendations">
            <RecommendationList resourceId={resourceId} />
          </Tab>
          <Tab eventKey="automation-logs" title="Automation Logs">
            <AutomationLogList resourceId={resourceId} />
          </Tab>
        </Tabs>
      </Modal.Body>
    </Modal>
  );
}

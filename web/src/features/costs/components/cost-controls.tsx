import { useState } from 'react';
import Form from 'react-bootstrap/Form';
import { costTypes, type CostType } from '@cloudtrim/contracts/costs';
import { costGroupingLabels, costGroupings, type CostGrouping } from '../utils/cost-groups';
import { costPeriodLabels, costPeriods, type CostPeriod } from '../utils/cost-periods';
import { isValidTagKey, type CostSettings } from '../utils/cost-settings';

const costTypeLabels: Record<CostType, string> = { actual: 'Actual', amortized: 'Amortized' };
export const tagKeyLabelText = 'Tag key';
export const tagKeyHintText = 'Type a tag key, such as costcenter, and press Enter.';

interface CostControlsProps {
  settings: CostSettings;
  onChange: (settings: CostSettings) => void;
}

/** The tag key grouped by: taken on Enter or when the field is left, so typing asks for nothing. */
function TagKeyField({ tagKey, onCommit }: { tagKey: string; onCommit: (tagKey: string) => void }) {
  const [draft, setDraft] = useState(tagKey);
  const trimmed = draft.trim();
  const isInvalid = trimmed !== '' && !isValidTagKey(trimmed);

  function commit() {
    if (!isInvalid && trimmed !== tagKey) onCommit(trimmed);
  }

  return (
    <Form.Group controlId="cost-tag-key" className="cost-control">
      <Form.Label>{tagKeyLabelText}</Form.Label>
      <Form.Control
        value={draft}
        placeholder="costcenter"
        autoComplete="off"
        isInvalid={isInvalid}
        aria-describedby="cost-tag-key-hint"
        onChange={(event) => setDraft(event.target.value)}
        onBlur={commit}
        onKeyDown={(event) => {
          if (event.key !== 'Enter') return;
          event.preventDefault();
          commit();
        }}
      />
      <Form.Text id="cost-tag-key-hint" className="cost-control-hint">
        {isInvalid ? 'A tag key has no spaces or colons.' : tagKeyHintText}
      </Form.Text>
    </Form.Group>
  );
}

/** Period, grouping and cost type: each change shows at once. */
export function CostControls({ settings, onChange }: CostControlsProps) {
  return (
    <div className="cost-controls">
      <Form.Group controlId="cost-period" className="cost-control">
        <Form.Label>Period</Form.Label>
        <Form.Select
          value={settings.period}
          onChange={(event) => onChange({ ...settings, period: event.target.value as CostPeriod })}
        >
          {costPeriods.map((period) => (
            <option key={period} value={period}>
              {costPeriodLabels[period]}
            </option>
          ))}
        </Form.Select>
      </Form.Group>
      <Form.Group controlId="cost-group-by" className="cost-control">
        <Form.Label>Group by</Form.Label>
        <Form.Select
          value={settings.grouping}
          onChange={(event) => onChange({ ...settings, grouping: event.target.value as CostGrouping })}
        >
          {costGroupings.map((grouping) => (
            <option key={grouping} value={grouping}>
              {costGroupingLabels[grouping]}
            </option>
          ))}
        </Form.Select>
      </Form.Group>
      {settings.grouping === 'tag' ? (
        <TagKeyField
          key={settings.tagKey}
          tagKey={settings.tagKey}
          onCommit={(tagKey) => onChange({ ...settings, tagKey })}
        />
      ) : null}
      <Form.Group controlId="cost-type" className="cost-control">
        <Form.Label>Cost type</Form.Label>
        <Form.Select
          value={settings.costType}
          onChange={(event) => onChange({ ...settings, costType: event.target.value as CostType })}
        >
          {costTypes.map((costType) => (
            <option key={costType} value={costType}>
              {costTypeLabels[costType]}
            </option>
          ))}
        </Form.Select>
      </Form.Group>
    </div>
  );
}

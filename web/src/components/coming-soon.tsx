import Card from 'react-bootstrap/Card';
import { comingSoonText } from '@cloudtrim/contracts/messages';

interface ComingSoonProps {
  /** The menu name of the screen that is not available yet. */
  featureName: string;
}

export function ComingSoon({ featureName }: ComingSoonProps) {
  return (
    <Card className="coming-soon text-center">
      <Card.Body>
        <p className="coming-soon-feature">{featureName}</p>
        <h1 className="coming-soon-title">{comingSoonText}</h1>
      </Card.Body>
    </Card>
  );
}

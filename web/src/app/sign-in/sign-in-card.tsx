import type { ReactNode } from 'react';
import Card from 'react-bootstrap/Card';

interface SignInCardProps {
  title: string;
  /** The line under the heading, e.g. the /login header text. */
  lead?: ReactNode;
  children?: ReactNode;
}

export function SignInCard({ title, lead, children }: SignInCardProps) {
  return (
    <Card className="centered-card">
      <Card.Body>
        <h1 className="centered-card-title">{title}</h1>
        {lead}
        {children}
      </Card.Body>
    </Card>
  );
}

import type { ReactNode } from 'react';
import Card from 'react-bootstrap/Card';
import Col from 'react-bootstrap/Col';
import Row from 'react-bootstrap/Row';

/** One titled block of the order detail page; `name` gives tests and screen readers a landmark. */
export function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = `section-${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
  return (
    <Card as="section" className="mb-3 shadow-sm" aria-labelledby={id}>
      <Card.Header as="h2" id={id} className="h6 mb-0 py-2">
        {title}
      </Card.Header>
      <Card.Body>{children}</Card.Body>
    </Card>
  );
}

export type Field = [label: string, value: ReactNode];

/** Label/value pairs in three columns; an empty value shows a dash. */
export function FieldGrid({ fields }: { fields: Field[] }) {
  return (
    <Row as="dl" className="mb-0 g-2">
      {fields.map(([label, value]) => (
        <Col key={label} md={4} className="mb-1">
          <dt className="small text-muted fw-normal">{label}</dt>
          <dd className="mb-0 text-break">{isEmpty(value) ? '-' : value}</dd>
        </Col>
      ))}
    </Row>
  );
}

function isEmpty(value: ReactNode): boolean {
  return value === null || value === undefined || value === '';
}

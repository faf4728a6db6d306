import { type ReactNode, useEffect, useState } from 'react';
import Card from 'react-bootstrap/Card';
import Col from 'react-bootstrap/Col';
import Row from 'react-bootstrap/Row';

/** The sections a person closed on the detail page, remembered in this browser for every order. */
const CLOSED_KEY = 'edcard.detailClosedSections';

function closedSections(): Set<string> {
  try {
    const parsed = JSON.parse(localStorage.getItem(CLOSED_KEY) ?? '[]') as unknown;
    return new Set(Array.isArray(parsed) ? parsed.filter((v): v is string => typeof v === 'string') : []);
  } catch {
    return new Set();
  }
}

function rememberSection(id: string, open: boolean): void {
  const closed = closedSections();
  if (open) closed.delete(id);
  else closed.add(id);
  try {
    localStorage.setItem(CLOSED_KEY, JSON.stringify([...closed]));
  } catch {
    // Storage full or blocked: the section still toggles, it is just not remembered.
  }
}

const OPEN_EVENT = 'edcard:open-section';

export const sectionId = (title: string) => `section-${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;

/** Opens a section that the person closed earlier (the action bar jumps to Remark and Upload). */
export function openSection(title: string): void {
  rememberSection(sectionId(title), true);
  window.dispatchEvent(new CustomEvent(OPEN_EVENT, { detail: sectionId(title) }));
}

/**
 * One titled block of the order detail page; `name` gives tests and screen readers a landmark. The
 * title is a button that folds the block away, and the page remembers which blocks were closed.
 */
export function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = sectionId(title);
  const [open, setOpen] = useState(() => !closedSections().has(id));
  useEffect(() => {
    const onOpen = (e: Event) => {
      if ((e as CustomEvent<string>).detail === id) setOpen(true);
    };
    window.addEventListener(OPEN_EVENT, onOpen);
    return () => window.removeEventListener(OPEN_EVENT, onOpen);
  }, [id]);
  const toggle = () => {
    rememberSection(id, !open);
    setOpen(!open);
  };
  return (
    <Card as="section" id={`${id}-block`} className="mb-3 shadow-sm detail-section" aria-labelledby={id}>
      <Card.Header as="h2" className="h6 mb-0 p-0">
        <button
          type="button"
          id={id}
          className="detail-section-toggle"
          aria-expanded={open}
          aria-controls={`${id}-body`}
          onClick={toggle}
        >
          {title}
        </button>
      </Card.Header>
      <Card.Body id={`${id}-body`} hidden={!open}>
        {children}
      </Card.Body>
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

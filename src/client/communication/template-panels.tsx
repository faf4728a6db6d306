import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import ListGroup from 'react-bootstrap/ListGroup';
import { type MailTemplate, TEMPLATE_LANGUAGE_NAMES } from '../../shared/contracts/communication';
import { errorMessage } from '../transport/api';
import { DateTime } from '../components/date-time';
import { TextField } from '../components/form-kit/form-field';

/** The templates by key, each language a button that opens it (the open one highlighted). */
export function TemplateList({
  groups,
  selected,
  editable,
  onSelect,
  onNew,
}: {
  groups: [string, MailTemplate[]][];
  selected: number | null;
  editable: boolean;
  onSelect: (id: number) => void;
  onNew: () => void;
}) {
  return (
    <Card style={{ width: 280 }}>
      <Card.Header className="d-flex justify-content-between align-items-center">
        <span>Templates</span>
        {editable ? (
          <Button size="sm" variant="outline-primary" onClick={onNew}>
            New
          </Button>
        ) : null}
      </Card.Header>
      <ListGroup variant="flush" aria-label="Templates">
        {groups.map(([key, items]) => (
          <ListGroup.Item key={key}>
            <div className="fw-semibold small">{items[0]?.name}</div>
            <div className="d-flex flex-wrap gap-1 mt-1">
              {items.map((t) => (
                <Button
                  key={t.id}
                  size="sm"
                  variant={t.id === selected ? 'primary' : 'outline-secondary'}
                  onClick={() => onSelect(t.id)}
                  aria-label={`${t.name} (${TEMPLATE_LANGUAGE_NAMES[t.language as 'en'] ?? t.language})`}
                >
                  {t.language}{' '}
                  <Badge bg="light" text="dark">
                    v{t.version}
                  </Badge>
                </Button>
              ))}
            </div>
          </ListGroup.Item>
        ))}
      </ListGroup>
    </Card>
  );
}

/** The mail as the chosen order's customer gets it: subject, the HTML in a sandboxed frame, the text part. */
export function TemplatePreview({
  orderId,
  onOrderId,
  error,
  rendered,
}: {
  orderId: string;
  onOrderId: (orderId: string) => void;
  error: unknown;
  rendered: { subject: string; html: string; text: string } | undefined;
}) {
  return (
    <Card style={{ flex: '1 1 380px', minWidth: 320 }}>
      <Card.Header>Preview</Card.Header>
      <Card.Body>
        <TextField
          id="tpl-preview-order"
          className="mb-2"
          style={{ maxWidth: 220 }}
          label="On order"
          inputMode="numeric"
          placeholder="Order id"
          value={orderId}
          onChange={(e) => onOrderId(e.target.value.replace(/\D/g, ''))}
        />
        {error ? <p className="text-danger small">{errorMessage(error)}</p> : null}
        {rendered ? (
          <>
            <p className="small mb-1">
              <strong>Subject:</strong> {rendered.subject}
            </p>
            <iframe
              title="Mail preview"
              sandbox=""
              srcDoc={rendered.html}
              style={{ width: '100%', height: 420, border: '1px solid #ddd' }}
            />
            <details className="mt-2">
              <summary className="small">Text part</summary>
              <pre className="small" style={{ whiteSpace: 'pre-wrap' }}>
                {rendered.text}
              </pre>
            </details>
          </>
        ) : (
          <p className="text-muted small">Type an order id to see the mail as that customer gets it.</p>
        )}
      </Card.Body>
    </Card>
  );
}

type TemplateVersion = NonNullable<MailTemplate['versions']>[number];

/** The saved versions of the open template, newest first; one can be loaded back into the editor. */
export function TemplateVersions({
  versions,
  editable,
  onLoad,
}: {
  versions: TemplateVersion[];
  editable: boolean;
  onLoad: (version: TemplateVersion) => void;
}) {
  return (
    <Card className="mt-3">
      <Card.Header>Versions</Card.Header>
      <ListGroup variant="flush" aria-label="Versions">
        {versions.map((v) => (
          <ListGroup.Item key={v.version} className="d-flex justify-content-between align-items-center">
            <span className="small">
              v{v.version} · {v.subject} · {v.createdBy ?? 'the service'} · <DateTime value={v.createdAt} />
            </span>
            {editable ? (
              <Button size="sm" variant="outline-secondary" onClick={() => onLoad(v)}>
                Load into editor
              </Button>
            ) : null}
          </ListGroup.Item>
        ))}
      </ListGroup>
    </Card>
  );
}

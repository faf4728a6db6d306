import { type KeyboardEvent, useRef, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Table from 'react-bootstrap/Table';
import { toast } from 'react-toastify';
import { formatServiceMoment, formatStaffDateTime } from '../../shared/dates';
import type { OrderDetails } from '../../shared/contracts/order-detail';
import {
  GOVERNMENT_REFERENCE_PATTERN,
  packetText,
  type SubmissionPacket,
} from '../../shared/contracts/submission';
import { errorMessage } from '../transport/api';
import { downloadWithToken } from './authorized-files';
import { Section } from './section';
import {
  useGetOrderFilesQuery,
  useGetSubmissionPacketQuery,
  useMarkSubmittedMutation,
} from './submission-api';

/** Statuses from which the order is submitted to the government (the Submit panel shows the packet). */
const SUBMITTABLE = new Set(['New', 'Awaiting', 'Customer Called', 'Contact Customer']);

async function copyText(value: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(value);
    return true;
  } catch {
    toast.error('Copying is not allowed in this browser; select the text instead.');
    return false;
  }
}

/**
 * The Submit panel (docs/product.md, "Submitting to the government"): the government form's fields in
 * its order and format, one copy button each (`c` copies the focused field and moves to the next),
 * "Copy all as text", and the government's reference with "Mark submitted".
 */
export function SubmitSection({ order }: { order: OrderDetails }) {
  const submittable = SUBMITTABLE.has(order.process_status);
  const opensAt = order.submission_opens_at ? Date.parse(order.submission_opens_at) : null;
  return (
    <Section title="Submit">
      {opensAt !== null && opensAt > Date.now() && !order.government_reference ? (
        <Alert variant="info" className="py-2" data-testid="submission-opens">
          Submission opens on {formatServiceMoment(order.submission_opens_at)}
        </Alert>
      ) : null}
      {order.government_reference ? (
        <p className="mb-2" data-testid="government-reference">
          Submitted to the government
          {order.submitted_at ? ` on ${formatStaffDateTime(order.submitted_at)}` : ''} — reference{' '}
          <strong>{order.government_reference}</strong>
        </p>
      ) : null}
      <SubmissionFailures orderId={order.order_id} />
      {submittable ? (
        <SubmitPacket order={order} />
      ) : order.government_reference ? null : (
        <p className="mb-0 text-body-secondary">
          The packet is shown while the order waits to be submitted.
          {order.process_status === 'AwaitingGovt' ? ' Add the government reference with Correct data.' : ''}
        </p>
      )}
    </Section>
  );
}

/** A machine's failed submissions of the order: the error and its screenshot, newest first. */
function SubmissionFailures({ orderId }: { orderId: number }) {
  const { data } = useGetOrderFilesQuery(orderId);
  const shots = (data ?? []).filter((f) => f.kind === 'submission_screenshot').reverse();
  if (!shots.length) return null;
  return (
    <ul className="list-unstyled small mb-2" data-testid="submission-failures">
      {shots.map((f) => (
        <li key={f.id}>
          {formatStaffDateTime(f.created_at)} — {f.created_by ?? 'A machine'} could not submit:{' '}
          <span className="text-break">{f.note ?? ''}</span>{' '}
          <Button
            type="button"
            variant="link"
            size="sm"
            className="p-0 align-baseline"
            onClick={async () => {
              const failure = await downloadWithToken(f.download_url, f.name);
              if (failure) toast.error(failure.message);
            }}
          >
            Screenshot
          </Button>
        </li>
      ))}
    </ul>
  );
}

/** The packet's fields, one Copy button each; `c` on a focused button copies its field and moves on. */
function PacketTable({
  fields,
  copied,
  onCopied,
}: {
  fields: SubmissionPacket['fields'];
  copied: string | null;
  onCopied: (key: string) => void;
}) {
  const buttons = useRef<(HTMLButtonElement | null)[]>([]);
  const copyField = async (index: number) => {
    const field = fields[index];
    if (!field || !(await copyText(field.value))) return;
    onCopied(field.key);
  };
  const onKeyDown = async (e: KeyboardEvent<HTMLTableSectionElement>) => {
    if (e.key !== 'c' || e.ctrlKey || e.metaKey || e.altKey) return;
    const index = buttons.current.indexOf(e.target as HTMLButtonElement);
    if (index < 0) return;
    e.preventDefault();
    await copyField(index);
    buttons.current[index + 1]?.focus();
  };
  return (
    <Table size="sm" className="align-middle" data-testid="submission-packet">
      <thead>
        <tr>
          <th scope="col">Field</th>
          <th scope="col">Value</th>
          <th scope="col">
            <span className="visually-hidden">Copy</span>
          </th>
        </tr>
      </thead>
      <tbody onKeyDown={onKeyDown}>
        {fields.map((f, i) => (
          <tr key={f.key} data-key={f.key}>
            <th scope="row" className="fw-normal small text-body-secondary">
              {f.label}
            </th>
            <td className="text-break">
              <code>{f.value || '—'}</code>
              {f.original ? <span className="small text-body-secondary ms-2">({f.original})</span> : null}
            </td>
            <td className="text-end">
              <Button
                ref={(el: HTMLButtonElement | null) => {
                  buttons.current[i] = el;
                }}
                variant="outline-secondary"
                size="sm"
                disabled={!f.value}
                aria-label={`Copy ${f.label}`}
                onClick={() => copyField(i)}
              >
                {copied === f.key ? 'Copied' : 'Copy'}
              </Button>
            </td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}

/** The government's reference and Mark submitted (4 to 40 letters, digits or -). */
function ReferenceForm({
  orderId,
  reference,
  onReference,
  valid,
  saving,
  onSubmit,
}: {
  orderId: number;
  reference: string;
  onReference: (reference: string) => void;
  valid: boolean;
  saving: boolean;
  onSubmit: (e: React.FormEvent) => void;
}) {
  return (
    <Form className="d-flex flex-wrap align-items-end gap-2" onSubmit={onSubmit}>
      <Form.Group controlId={`government-reference-${orderId}`}>
        <Form.Label className="small mb-1">Government reference</Form.Label>
        <Form.Control
          size="sm"
          value={reference}
          maxLength={40}
          onChange={(e) => onReference(e.target.value)}
          isInvalid={reference.trim() !== '' && !valid}
          aria-describedby={`government-reference-help-${orderId}`}
        />
        <Form.Text id={`government-reference-help-${orderId}`} className="small">
          4 to 40 letters, digits or -
        </Form.Text>
      </Form.Group>
      <Button type="submit" size="sm" disabled={!valid || saving}>
        Mark submitted
      </Button>
    </Form>
  );
}

function SubmitPacket({ order }: { order: OrderDetails }) {
  const { data, error, isLoading } = useGetSubmissionPacketQuery(order.order_id);
  const [copied, setCopied] = useState<string | null>(null);
  const [reference, setReference] = useState('');
  const [markSubmitted, { isLoading: saving }] = useMarkSubmittedMutation();
  if (isLoading) return <p className="mb-0">Loading the packet…</p>;
  if (error || !data) return <Alert variant="danger">{errorMessage(error)}</Alert>;

  const valid = GOVERNMENT_REFERENCE_PATTERN.test(reference.trim());
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    if (!valid) return;
    try {
      const res = await markSubmitted({
        orderId: order.order_id,
        governmentReference: reference.trim(),
      }).unwrap();
      toast.success(res.message);
      setReference('');
    } catch (err) {
      toast.error(errorMessage(err));
    }
  };

  return (
    <>
      {data.warnings.length > 0 && (
        <Alert variant="warning" className="py-2" data-testid="packet-warnings">
          <ul className="mb-0 ps-3">
            {data.warnings.map((w) => (
              <li key={`${w.key ?? ''}:${w.code}`}>{w.message}</li>
            ))}
          </ul>
        </Alert>
      )}
      <p className="small text-body-secondary mb-1">
        Focus a Copy button and press <kbd>c</kbd> to copy its field and move to the next.
      </p>
      <PacketTable fields={data.fields} copied={copied} onCopied={setCopied} />
      <Button
        variant="outline-primary"
        size="sm"
        className="mb-3"
        onClick={async () => {
          if (await copyText(packetText(data.fields))) setCopied('*all');
        }}
      >
        {copied === '*all' ? 'Copied all' : 'Copy all as text'}
      </Button>
      <ReferenceForm
        orderId={order.order_id}
        reference={reference}
        onReference={setReference}
        valid={valid}
        saving={saving}
        onSubmit={submit}
      />
    </>
  );
}

import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import { type FormEvent, useState } from 'react';
import { toast } from 'react-toastify';
import {
  CONTACT_CHANNELS,
  CONTACT_NOTE_MAX,
  CONTACT_OUTCOMES,
  type ContactOutcome,
  SERVICE_TIME_ZONE,
} from '../../shared/constants';
import type { ConversationItem } from '../../shared/contracts/conversation';
import { easternZoneLabel, serviceZoneInstant } from '../../shared/dates';
import { errorMessage } from '../transport/api';
import { DateTime } from '../components/date-time';
import { DateField } from '../components/form-kit/date-field';
import { CheckboxField, SelectField, TextareaField, TextField } from '../components/form-kit/form-field';
import { useLogContactMutation } from './conversation-api';

const CHANNEL_LABEL = { call: 'Call', whatsapp: 'WhatsApp' } as const;
const OUTCOME_LABEL: Record<ContactOutcome, string> = {
  reached: 'Reached',
  no_answer: 'No answer',
  wrong_number: 'Wrong number',
  call_back: 'Call back',
};
const OUTCOME_BG: Record<ContactOutcome, string> = {
  reached: 'success',
  no_answer: 'secondary',
  wrong_number: 'danger',
  call_back: 'info',
};

/** A call or WhatsApp contact in the conversation: channel, outcome, call-back time, who and when. */
export function Contact({ item }: { item: Extract<ConversationItem, { direction: 'contact' }> }) {
  return (
    <li className="list-group-item small" data-testid="conversation-contact">
      <div className="d-flex flex-wrap gap-2 align-items-center text-body-secondary">
        <strong className="text-body">{CHANNEL_LABEL[item.kind]}</strong>
        <Badge bg={OUTCOME_BG[item.outcome]}>{OUTCOME_LABEL[item.outcome]}</Badge>
        {item.callBackAt && (
          <span>
            at <DateTime value={item.callBackAt} />
          </span>
        )}
        <span>{item.staffName ?? 'Staff'}</span>
        <DateTime value={item.at} />
      </div>
      {item.note && (
        <p className="mb-0 mt-1" style={{ whiteSpace: 'pre-wrap' }}>
          {item.note}
        </p>
      )}
    </li>
  );
}

/** The state of the contact form and its submission; the form is emptied after a logged contact. */
function useContactLog(orderId: number, processStatus: string, version: number) {
  const [channel, setChannel] = useState<string>(CONTACT_CHANNELS[0]);
  const [moveCalled, setMoveCalled] = useState(false);
  const [outcome, setOutcome] = useState<ContactOutcome>('reached');
  // Typed in the service time zone: a day-first date and a 24-hour time.
  const [callBackDay, setCallBackDay] = useState('');
  const [callBackTime, setCallBackTime] = useState('');
  const callBackAt = serviceZoneInstant(callBackDay, callBackTime) ?? '';
  const [note, setNote] = useState('');
  const [log, { isLoading }] = useLogContactMutation();
  const callBack = outcome === 'call_back';
  const ready = !callBack || callBackAt !== '';
  // Reached: offer the move to Customer Called in the same step.
  const offerMove = outcome === 'reached' && processStatus !== 'Customer Called';
  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (!ready) return;
    const result = await log({
      orderId,
      channel,
      outcome,
      ...(callBack ? { callBackAt } : {}),
      ...(note.trim() ? { note } : {}),
      ...(offerMove && moveCalled ? { moveToCustomerCalled: true, expectedVersion: version } : {}),
    });
    if ('error' in result) toast.error(errorMessage(result.error));
    else {
      toast.success(result.data.message);
      setNote('');
      setCallBackDay('');
      setCallBackTime('');
      setMoveCalled(false);
    }
  };
  return {
    channel,
    setChannel,
    outcome,
    setOutcome,
    callBack,
    callBackDay,
    setCallBackDay,
    callBackTime,
    setCallBackTime,
    callBackAt,
    moveCalled,
    setMoveCalled,
    offerMove,
    note,
    setNote,
    ready,
    isLoading,
    onSubmit,
  };
}

/** The call-back's day and time, typed in the service time zone. */
function CallBackFields({
  orderId,
  callBackAt,
  day,
  onDay,
  time,
  onTime,
}: {
  orderId: number;
  callBackAt: string;
  day: string;
  onDay: (day: string) => void;
  time: string;
  onTime: (time: string) => void;
}) {
  return (
    <>
      <DateField
        id={`contact-call-back-${orderId}`}
        label={`Call back at (${SERVICE_TIME_ZONE}, ${easternZoneLabel(callBackAt || Date.now())})`}
        labelClassName="small mb-0"
        size="sm"
        validOnly
        value={day}
        onChange={onDay}
      />
      <TextField
        id={`contact-call-back-time-${orderId}`}
        label={`Time (${easternZoneLabel(callBackAt || Date.now())})`}
        labelClassName="small mb-0"
        size="sm"
        type="time"
        required
        value={time}
        onChange={(e) => onTime(e.target.value)}
      />
    </>
  );
}

/** Log a call or WhatsApp contact with its outcome; a call-back needs its time (within 30 days). */
export function ContactForm({
  orderId,
  processStatus,
  version,
}: {
  orderId: number;
  processStatus: string;
  version: number;
}) {
  const form = useContactLog(orderId, processStatus, version);
  return (
    <form className="mt-3" aria-label="Log a call" onSubmit={form.onSubmit}>
      <div className="fw-semibold small mb-1">Log a call</div>
      <div className="d-flex flex-wrap gap-2 align-items-end mb-2">
        <SelectField
          id={`contact-channel-${orderId}`}
          label="Channel"
          labelClassName="small mb-0"
          size="sm"
          value={form.channel}
          onChange={(e) => form.setChannel(e.target.value)}
        >
          {CONTACT_CHANNELS.map((c) => (
            <option key={c} value={c}>
              {CHANNEL_LABEL[c]}
            </option>
          ))}
        </SelectField>
        <SelectField
          id={`contact-outcome-${orderId}`}
          label="Outcome"
          labelClassName="small mb-0"
          size="sm"
          value={form.outcome}
          onChange={(e) => form.setOutcome(e.target.value as ContactOutcome)}
        >
          {CONTACT_OUTCOMES.map((o) => (
            <option key={o} value={o}>
              {OUTCOME_LABEL[o]}
            </option>
          ))}
        </SelectField>
        {form.callBack && (
          <CallBackFields
            orderId={orderId}
            callBackAt={form.callBackAt}
            day={form.callBackDay}
            onDay={form.setCallBackDay}
            time={form.callBackTime}
            onTime={form.setCallBackTime}
          />
        )}
      </div>
      {form.offerMove && (
        <CheckboxField
          id={`contact-move-${orderId}`}
          className="small mb-2"
          label="and move the order to Customer Called"
          checked={form.moveCalled}
          onChange={(e) => form.setMoveCalled(e.target.checked)}
        />
      )}
      <TextareaField
        id={`contact-note-${orderId}`}
        className="mb-2"
        label="Note"
        labelClassName="small"
        rows={2}
        maxLength={CONTACT_NOTE_MAX}
        value={form.note}
        onChange={(e) => form.setNote(e.target.value)}
      />
      <Button type="submit" size="sm" variant="outline-primary" disabled={!form.ready || form.isLoading}>
        Log contact
      </Button>
    </form>
  );
}

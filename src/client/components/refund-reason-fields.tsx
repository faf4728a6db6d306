import {
  REFUND_REASON_CODES,
  REFUND_REASON_LABELS,
  type RefundReasonCode,
} from '../../shared/refund-reasons';
import { SelectField, TextField } from './form-kit/form-field';

/** A refund reason as a form holds it: no code chosen yet is ''. */
export interface RefundReasonValue {
  code: RefundReasonCode | '';
  text: string;
}

export const NO_REFUND_REASON: RefundReasonValue = { code: '', text: '' };

/** Ready to send: a code chosen, and a text of three characters or more for 'other'. */
export function refundReasonReady(v: RefundReasonValue): boolean {
  return v.code !== '' && (v.code !== 'other' || v.text.trim().length >= 3);
}

/** The request fields of a chosen reason. */
export function refundReasonBody(v: RefundReasonValue): {
  reasonCode?: RefundReasonCode;
  reasonText?: string;
} {
  if (!v.code) return {};
  return v.code === 'other' ? { reasonCode: v.code, reasonText: v.text.trim() } : { reasonCode: v.code };
}

/** A reason an order already carries (the duplicate decision's), as the form's start. */
export function refundReasonFrom(code: string | null | undefined, text?: string | null): RefundReasonValue {
  return (REFUND_REASON_CODES as readonly string[]).includes(code ?? '')
    ? { code: code as RefundReasonCode, text: text ?? '' }
    : NO_REFUND_REASON;
}

/** Why the orders are refunded (docs/product.md, "Refund reasons"): a code, and a text for "Other". */
export function RefundReasonFields({
  value,
  onChange,
  id,
}: {
  value: RefundReasonValue;
  onChange: (v: RefundReasonValue) => void;
  id: string;
}) {
  return (
    <div className="text-start mt-3">
      <SelectField
        id={`${id}-code`}
        label="Refund reason"
        value={value.code}
        onChange={(e) => onChange({ ...value, code: e.currentTarget.value as RefundReasonCode | '' })}
      >
        <option value="">Choose a reason…</option>
        {REFUND_REASON_CODES.map((code) => (
          <option key={code} value={code}>
            {REFUND_REASON_LABELS[code]}
          </option>
        ))}
      </SelectField>
      {value.code === 'other' ? (
        <TextField
          id={`${id}-text`}
          className="mt-2"
          label="Why"
          maxLength={300}
          value={value.text}
          onChange={(e) => onChange({ ...value, text: e.currentTarget.value })}
        />
      ) : null}
    </div>
  );
}

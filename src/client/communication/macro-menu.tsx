import { useState } from 'react';
import Dropdown from 'react-bootstrap/Dropdown';
import { toast } from 'react-toastify';
import { statusName } from '../../shared/order-rules';
import type { MacroOutcome } from '../../shared/contracts/communication';
import type { MailPreview } from '../../shared/contracts/order-detail';
import { errorMessage } from '../transport/api';
import { MailBeforeMove, skipsMailPreview } from '../components/mail-before-move';
import {
  useApplyMacroMutation,
  useCancelPendingMailMutation,
  useGetMacrosQuery,
  useLazyGetMacroMailPreviewQuery,
} from './communication-api';

type CancelMail = ReturnType<typeof useCancelPendingMailMutation>[0];

/** The macro's mail waits a few seconds: the toast names it and offers to cancel it. */
function offerMailCancel(cancelMail: CancelMail, orderId: number, message: string) {
  const id = `macro-mail:${orderId}:${Date.now()}`;
  toast.success(
    <span className="d-flex align-items-center gap-2">
      <span>{message} The customer mail is pending for a few seconds.</span>
      <button
        type="button"
        className="btn btn-sm btn-light ms-auto text-nowrap flex-shrink-0"
        onClick={async () => {
          toast.dismiss(id);
          try {
            toast.success((await cancelMail(orderId).unwrap()).message);
          } catch (error) {
            toast.error(errorMessage(error));
          }
        }}
      >
        Cancel the mail
      </button>
    </span>,
    { toastId: id, autoClose: 10_000, pauseOnHover: false, pauseOnFocusLoss: false, closeOnClick: false },
  );
}

/** What the macro did: done (with the WhatsApp text's link when there is one), or which orders refused. */
function toastOutcomes(
  message: string,
  outcomes: MacroOutcome[],
  single: boolean,
  chat: string | null | undefined,
) {
  const refused = outcomes.filter((o) => o.result === 'refused');
  if (!refused.length && chat) {
    toast.success(
      <span>
        {message}{' '}
        <a href={chat} target="_blank" rel="noopener noreferrer">
          Send the WhatsApp text
        </a>
      </span>,
    );
  } else if (!refused.length) toast.success(message);
  else if (refused.length === outcomes.length && single) toast.error(refused[0]!.message);
  else {
    toast.warning(
      `${message} ${refused
        .slice(0, 3)
        .map((o) => `${o.orderId}: ${o.message}${o.processStatus ? ` (${statusName(o.processStatus)})` : ''}`)
        .join('; ')}${refused.length > 3 ? '; …' : ''}`,
    );
  }
}

type MacroMenuProps = {
  orderIds: number[];
  label?: string;
  size?: 'sm' | 'lg';
  drop?: 'up' | 'down';
  /** The WhatsApp chat link for a text (the detail page, which knows the customer's number). */
  whatsapp?: (text: string) => string | null;
  onApplied?: () => void;
};

/**
 * Applying a macro: the mail's preview first (one order) or a confirmation naming it, the question when
 * someone else moved the order seconds ago, then the outcome per order.
 */
function useApplyMacro({ orderIds, whatsapp, onApplied }: MacroMenuProps) {
  const [apply, state] = useApplyMacroMutation();
  const [loadPreview] = useLazyGetMacroMailPreviewQuery();
  const [cancelMail] = useCancelPendingMailMutation();
  const [ask, setAsk] = useState<{ macroId: number; name: string; preview: MailPreview } | null>(null);

  // Before a macro that mails: which mail it is, with a preview (unless the user turned that off).
  const start = async (macroId: number, name: string) => {
    const n = orderIds.length;
    const first = orderIds[0];
    const preview =
      first !== undefined && !skipsMailPreview()
        ? await loadPreview({ orderId: first, macroId })
            .unwrap()
            .catch(() => null)
        : null;
    if (preview && n === 1) return setAsk({ macroId, name, preview });
    const mail = preview ? ` Each customer gets the mail "${preview.templateName}" in their language.` : '';
    if (!window.confirm(`Apply "${name}" to ${n === 1 ? 'this order' : `${n} orders`}?${mail}`)) return;
    return run(macroId);
  };

  const run = async (macroId: number, confirmRecent = false): Promise<void> => {
    setAsk(null);
    const n = orderIds.length;
    try {
      const res = await apply({ macroId, orderIds, ...(confirmRecent ? { confirmRecent } : {}) }).unwrap();
      const outcomes = res.data?.orders ?? [];
      const refused = outcomes.filter((o) => o.result === 'refused');
      // One order someone else moved seconds ago: ask, then apply again.
      const recent = n === 1 && refused[0]?.recentMove ? refused[0] : null;
      if (recent && !confirmRecent) {
        if (window.confirm(recent.message)) return run(macroId, true);
        return;
      }
      const held = n === 1 && outcomes[0]?.result === 'done' && outcomes[0].mailHeld;
      if (held && orderIds[0] !== undefined) {
        offerMailCancel(cancelMail, orderIds[0], `${res.message} (${outcomes[0]!.message}).`);
        onApplied?.();
        return;
      }
      const chat = n === 1 && outcomes[0]?.whatsappText ? whatsapp?.(outcomes[0].whatsappText) : null;
      toastOutcomes(res.message, outcomes, n === 1, chat);
      onApplied?.();
    } catch (error) {
      toast.error(errorMessage(error));
    }
  };

  return { busy: state.isLoading, ask, setAsk, start, run };
}

/**
 * "Macros" / "Apply macro": applies a macro to one order (the detail page) or to the selected orders (a
 * list's bulk bar), then says per order what happened.
 */
export function MacroMenu(props: MacroMenuProps) {
  const { orderIds, label = 'Macros', size, drop } = props;
  const macros = useGetMacrosQuery();
  const { busy, ask, setAsk, start, run } = useApplyMacro(props);

  return (
    <>
      {ask ? (
        <MailBeforeMove
          preview={ask.preview}
          action={`Apply "${ask.name}"`}
          busy={busy}
          onYes={() => void run(ask.macroId)}
          onNo={() => setAsk(null)}
        />
      ) : null}
      <Dropdown drop={drop}>
        <Dropdown.Toggle
          size={size}
          variant="outline-secondary"
          disabled={!orderIds.length || busy}
          id={`macro-menu-${orderIds.length === 1 ? orderIds[0] : 'bulk'}`}
        >
          {label}
        </Dropdown.Toggle>
        <Dropdown.Menu>
          {(macros.data ?? []).map((m) => (
            <Dropdown.Item key={m.id} as="button" type="button" onClick={() => void start(m.id, m.name)}>
              {m.name}
            </Dropdown.Item>
          ))}
          {macros.data && !macros.data.length ? <Dropdown.ItemText>No macros yet</Dropdown.ItemText> : null}
        </Dropdown.Menu>
      </Dropdown>
    </>
  );
}

import { useState } from 'react';
import Dropdown from 'react-bootstrap/Dropdown';
import { toast } from 'react-toastify';
import { statusName } from '../../shared/order-rules';
import type { MailPreview } from '../../shared/contracts/order-detail';
import { errorMessage } from '../app/api';
import { MailBeforeMove, skipsMailPreview } from '../components/mail-before-move';
import {
  useApplyMacroMutation,
  useGetMacrosQuery,
  useLazyGetMacroMailPreviewQuery,
} from './communication-api';

/**
 * "Macros" / "Apply macro": applies a macro to one order (the detail page) or to the selected orders (a
 * list's bulk bar), then says per order what happened.
 */
export function MacroMenu({
  orderIds,
  label = 'Macros',
  size,
  drop,
  whatsapp,
  onApplied,
}: {
  orderIds: number[];
  label?: string;
  size?: 'sm' | 'lg';
  drop?: 'up' | 'down';
  /** The WhatsApp chat link for a text (the detail page, which knows the customer's number). */
  whatsapp?: (text: string) => string | null;
  onApplied?: () => void;
}) {
  const macros = useGetMacrosQuery();
  const [apply, state] = useApplyMacroMutation();
  const [loadPreview] = useLazyGetMacroMailPreviewQuery();
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

  const run = async (macroId: number) => {
    setAsk(null);
    const n = orderIds.length;
    try {
      const res = await apply({ macroId, orderIds }).unwrap();
      const outcomes = res.data?.orders ?? [];
      const refused = outcomes.filter((o) => o.result === 'refused');
      const chat = n === 1 && outcomes[0]?.whatsappText ? whatsapp?.(outcomes[0].whatsappText) : null;
      if (!refused.length && chat) {
        toast.success(
          <span>
            {res.message}{' '}
            <a href={chat} target="_blank" rel="noopener noreferrer">
              Send the WhatsApp text
            </a>
          </span>,
        );
      } else if (!refused.length) toast.success(res.message);
      else if (refused.length === outcomes.length && n === 1) toast.error(refused[0]!.message);
      else {
        toast.warning(
          `${res.message} ${refused
            .slice(0, 3)
            .map(
              (o) =>
                `${o.orderId}: ${o.message}${o.processStatus ? ` (${statusName(o.processStatus)})` : ''}`,
            )
            .join('; ')}${refused.length > 3 ? '; …' : ''}`,
        );
      }
      onApplied?.();
    } catch (error) {
      toast.error(errorMessage(error));
    }
  };

  return (
    <>
      {ask ? (
        <MailBeforeMove
          preview={ask.preview}
          action={`Apply "${ask.name}"`}
          busy={state.isLoading}
          onYes={() => void run(ask.macroId)}
          onNo={() => setAsk(null)}
        />
      ) : null}
      <Dropdown drop={drop}>
        <Dropdown.Toggle
          size={size}
          variant="outline-secondary"
          disabled={!orderIds.length || state.isLoading}
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

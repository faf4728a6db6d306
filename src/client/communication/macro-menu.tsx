import Dropdown from 'react-bootstrap/Dropdown';
import { toast } from 'react-toastify';
import { statusName } from '../../shared/order-rules';
import { errorMessage } from '../app/api';
import { useApplyMacroMutation, useGetMacrosQuery } from './communication-api';

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

  const run = async (macroId: number, name: string) => {
    const n = orderIds.length;
    if (!window.confirm(`Apply "${name}" to ${n === 1 ? 'this order' : `${n} orders`}?`)) return;
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
          <Dropdown.Item key={m.id} as="button" type="button" onClick={() => void run(m.id, m.name)}>
            {m.name}
          </Dropdown.Item>
        ))}
        {macros.data && !macros.data.length ? <Dropdown.ItemText>No macros yet</Dropdown.ItemText> : null}
      </Dropdown.Menu>
    </Dropdown>
  );
}

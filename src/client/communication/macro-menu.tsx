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
  onApplied,
}: {
  orderIds: number[];
  label?: string;
  size?: 'sm' | 'lg';
  drop?: 'up' | 'down';
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
      if (!refused.length) toast.success(res.message);
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

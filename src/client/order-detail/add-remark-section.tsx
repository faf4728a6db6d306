import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import { toast } from 'react-toastify';
import type { OrderDetails } from '../../shared/contracts/order-detail';
import { type AddRemarkForm, addRemarkForm } from '../../shared/contracts/order-detail-actions';
import { serviceToday } from '../../shared/dates';
import { orderStateOf, remarkMove, statusName } from '../../shared/order-rules';
import { errorMessage } from '../transport/api';
import { ConfirmDialog } from '../components/confirm-dialog';
import { CheckboxField, TextareaField } from '../components/form-kit/form-field';
import { useZodForm } from '../components/form-kit/use-zod-form';
import { sessionUser } from '../transport/session';
import { useAddNewRemarkMutation } from './order-detail-api';
import { Section } from './section';

const FLAGS: [label: string, name: Exclude<keyof AddRemarkForm, 'remark'>][] = [
  ['Whatsapp', 'whatsapp'],
  ['Telephone', 'telephone'],
  ['Refund', 'statusRefund'],
  ['Voided', 'voided'],
  ['Chargeback', 'chargeBack'],
  ['ReportError', 'reportError'],
];

const EMPTY: AddRemarkForm = {
  remark: '',
  whatsapp: false,
  telephone: false,
  statusRefund: false,
  voided: false,
  chargeBack: false,
  reportError: false,
};

const yn = (ticked: boolean) => (ticked ? 'Y' : 'N');

/** Flags that move the order, and the queue they move it to (the shared order rules decide). */
const MOVING_FLAGS: Partial<Record<(typeof FLAGS)[number][1], string>> = {
  statusRefund: 'Refunds',
  chargeBack: 'ChargeBack',
};

/**
 * The 'Add Comment Below' panel. Refund or Chargeback ticked also moves the order: the form says where
 * (from the shared order rules), asks first, and the success message names the move.
 */
export function AddRemarkSection({ order }: { order: OrderDetails }) {
  const [addRemark, { isLoading }] = useAddNewRemarkMutation();
  const [confirming, setConfirming] = useState<AddRemarkForm | null>(null);
  const {
    register,
    handleSubmit,
    reset,
    watch,
    formState: { errors },
  } = useZodForm(addRemarkForm, { defaultValues: EMPTY });

  const state = orderStateOf(order);
  const moveOf = (values: Pick<AddRemarkForm, 'statusRefund' | 'chargeBack'>) =>
    remarkMove(
      state,
      { statusRefund: yn(values.statusRefund), chargeBack: yn(values.chargeBack) },
      sessionUser()?.type ?? null,
      serviceToday(),
    );
  const move = moveOf({ statusRefund: watch('statusRefund'), chargeBack: watch('chargeBack') });

  const submit = async (values: AddRemarkForm) => {
    setConfirming(null);
    try {
      const res = await addRemark({
        orderId: order.order_id,
        remark: values.remark,
        // Sent for compatibility only: the server takes the author from the token.
        remarkerName: sessionUser()?.name ?? null,
        whatsapp: yn(values.whatsapp),
        telephone: yn(values.telephone),
        statusRefund: yn(values.statusRefund),
        voided: yn(values.voided),
        chargeBack: yn(values.chargeBack),
        reportError: yn(values.reportError),
      }).unwrap();
      toast.success(res.message);
      reset(EMPTY);
    } catch (error) {
      toast.error(errorMessage(error));
    }
  };
  const onSubmit = handleSubmit((values) => (moveOf(values) ? setConfirming(values) : submit(values)));

  return (
    <Section title="Add Comment Below">
      <form noValidate onSubmit={onSubmit}>
        <TextareaField
          id="remark"
          className="mb-2"
          label="Remark"
          labelClassName="visually-hidden"
          error={errors.remark?.message}
          rows={3}
          placeholder="Enter your remark"
          {...register('remark')}
        />
        <div className="mb-2">
          {FLAGS.map(([label, name]) => (
            <CheckboxField
              inline
              key={name}
              id={`remark-flag-${name}`}
              label={MOVING_FLAGS[name] ? `${label} (moves the order to ${MOVING_FLAGS[name]})` : label}
              {...register(name)}
            />
          ))}
        </div>
        {move ? (
          <p
            className={`small mb-2 ${move.decision.allowed ? 'text-body-secondary' : 'text-danger'}`}
            role="status"
          >
            {move.decision.allowed
              ? `This remark moves the order to ${statusName(move.to)}.`
              : move.decision.message}
          </p>
        ) : null}
        <Button type="submit" disabled={isLoading || (move !== null && !move.decision.allowed)}>
          Submit
        </Button>
      </form>
      <ConfirmDialog
        show={confirming !== null}
        message={
          confirming
            ? `This remark moves the order to ${statusName(moveOf(confirming)?.to ?? '')}. Continue?`
            : ''
        }
        busy={isLoading}
        onYes={() => confirming && submit(confirming)}
        onNo={() => setConfirming(null)}
      />
    </Section>
  );
}

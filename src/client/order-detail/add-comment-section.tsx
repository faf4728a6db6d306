import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { toast } from 'react-toastify';
import { type AddRemarkForm, addRemarkForm, type OrderDetails } from '../../shared/contracts/order-detail';
import { errorMessage } from '../app/api';
import { sessionUser } from '../app/session';
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

/** The 'Add Comment Below' panel; Refund or Chargeback ticked also moves the order (server side). */
export function AddCommentSection({ order }: { order: OrderDetails }) {
  const [addRemark, { isLoading }] = useAddNewRemarkMutation();
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors },
  } = useForm<AddRemarkForm>({ resolver: zodResolver(addRemarkForm), defaultValues: EMPTY });

  const onSubmit = handleSubmit(async (values) => {
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
  });

  return (
    <Section title="Add Comment Below">
      <Form noValidate onSubmit={onSubmit}>
        <Form.Group controlId="remark" className="mb-2">
          <Form.Label visuallyHidden>Remark</Form.Label>
          <Form.Control
            as="textarea"
            rows={3}
            placeholder="Enter your remark"
            {...register('remark')}
            isInvalid={!!errors.remark}
          />
          <Form.Control.Feedback type="invalid">{errors.remark?.message}</Form.Control.Feedback>
        </Form.Group>
        <div className="mb-2">
          {FLAGS.map(([label, name]) => (
            <Form.Check inline key={name} id={`remark-flag-${name}`} label={label} {...register(name)} />
          ))}
        </div>
        <Button type="submit" disabled={isLoading}>
          Submit
        </Button>
      </Form>
    </Section>
  );
}

import { useRef, useState } from 'react';
import Button from 'react-bootstrap/Button';
import { completionMailSuppressed } from '../../shared/order-rules';
import ProgressBar from 'react-bootstrap/ProgressBar';
import { toast } from 'react-toastify';
import { MAX_UPLOAD_BYTES, type MailProvider } from '../../shared/constants';
import {
  type OrderDetails,
  UPLOAD_ACCEPT,
  type UploadDocItem,
  uploadDocumentForm,
} from '../../shared/contracts/order-detail';
import { can } from '../../shared/permissions';
import { sessionUser } from '../transport/session';
import { TextField } from '../components/form-kit/form-field';
import { useZodForm } from '../components/form-kit/use-zod-form';
import { CardCheckPanel } from './card-check-panel';
import { currentDocument } from './current-document';
import { EarlierDocuments, WithdrawDialog } from './withdraw-document';
import { api } from '../transport/api';
import { useAppDispatch } from '../state/store';
import { downloadWithToken } from './authorized-files';
import { toastFailure } from './notify';
import { Section } from './section';
import { uploadVisaDocument } from './upload-document';

const TOO_LARGE = `The file is larger than ${MAX_UPLOAD_BYTES / 1024 / 1024} MB`;

/**
 * The upload form: its fields, the progress of a running upload, and one submit per provider (with or
 * without the move to Completed). A card its check blocks is stored all the same, so the order is read again.
 */
function useUploadDocument(order: OrderDetails) {
  const dispatch = useAppDispatch();
  const fileInput = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const form = useZodForm(uploadDocumentForm, {
    defaultValues: { email: order.email, fileUpload: undefined },
  });
  const { handleSubmit, setError, resetField } = form;

  const submit = (provider: MailProvider, complete = false) =>
    handleSubmit(async ({ email, fileUpload }) => {
      const file = fileUpload as File;
      if (file.size > MAX_UPLOAD_BYTES) {
        setError('fileUpload', { message: TOO_LARGE });
        return;
      }
      setProgress(0);
      const { httpStatus, body } = await uploadVisaDocument(
        { orderId: order.order_id, email, file, mailServiceProvider: provider, complete },
        setProgress,
      );
      setProgress(null);
      if (body.status !== 1) {
        toastFailure(httpStatus, body.message);
        // A card its check blocks is stored all the same: show it and its check.
        if (httpStatus === 409) dispatch(api.util.invalidateTags([{ type: 'Order', id: order.order_id }]));
        return;
      }
      toast.success(body.message);
      resetField('fileUpload');
      if (fileInput.current) fileInput.current.value = '';
      dispatch(
        api.util.invalidateTags(
          complete
            ? [{ type: 'Order', id: order.order_id }, 'Orders', 'Counts']
            : [{ type: 'Order', id: order.order_id }],
        ),
      );
    });
  return { form, fileInput, progress, submit };
}

/** The upload's buttons, and the current document's download and withdraw. */
function UploadButtons({
  order,
  latest,
  busy,
  submit,
  onWithdraw,
}: {
  order: OrderDetails;
  latest: UploadDocItem | undefined;
  busy: boolean;
  submit: ReturnType<typeof useUploadDocument>['submit'];
  onWithdraw: (doc: UploadDocItem) => void;
}) {
  const role = sessionUser()?.type ?? null;
  const download = async () => {
    if (!latest) return;
    const failure = await downloadWithToken(latest.download_url, latest.file1);
    if (failure) toastFailure(failure.httpStatus, failure.message);
  };
  return (
    <div className="d-flex gap-2 flex-wrap mt-3 align-items-center">
      {/* Out of ChargeBack the approval notice would be a completion mail (completionMailSuppressed). */}
      {order.process_status !== 'Completed' &&
        order.process_status !== 'Deleted' &&
        !completionMailSuppressed(order.process_status, 'Completed') && (
          <Button
            type="button"
            variant="success"
            disabled={busy}
            onClick={submit('AWS', true)}
            title="Upload the card, mail it to the customer (AWS) and move the order to Completed"
          >
            Upload, mail and complete
          </Button>
        )}
      <Button type="button" disabled={busy} onClick={submit('AWS')}>
        Submit (AWS)
      </Button>
      <Button type="button" variant="outline-primary" disabled={busy} onClick={submit('Sendgrid')}>
        Submit (SendGrid)
      </Button>
      {latest && (
        <Button type="button" variant="link" onClick={download}>
          Download File
        </Button>
      )}
      {latest && <span className="small text-muted">{latest.file1}</span>}
      {latest && can(role, 'orders.withdrawDocument') && (
        <Button type="button" variant="link" className="text-danger" onClick={() => onWithdraw(latest)}>
          Withdraw
        </Button>
      )}
    </div>
  );
}

/** Upload the approved document and mail it through the chosen provider (AWS or Sendgrid). */
export function UploadDocumentSection({ order }: { order: OrderDetails }) {
  const { form, fileInput, progress, submit } = useUploadDocument(order);
  const {
    register,
    setValue,
    setError,
    formState: { errors },
  } = form;
  const latest = currentDocument(order);
  const [withdrawing, setWithdrawing] = useState<UploadDocItem | null>(null);
  const busy = progress !== null;

  return (
    <Section title="Upload Document">
      <form noValidate onSubmit={(e) => e.preventDefault()}>
        <div className="row g-2">
          <TextField
            className="col-md-4"
            id="upload-order-id"
            label="Order ID"
            value={order.order_id}
            disabled
            readOnly
          />
          <TextField
            className="col-md-4"
            id="upload-email"
            label="Email"
            error={errors.email?.message}
            type="email"
            {...register('email')}
            disabled={busy}
          />
          <TextField
            className="col-md-4"
            id="upload-file"
            label="PDF or image"
            error={errors.fileUpload?.message}
            ref={fileInput}
            type="file"
            accept={UPLOAD_ACCEPT}
            disabled={busy}
            onChange={(e) => {
              const file = e.currentTarget.files?.[0];
              setValue('fileUpload', file as File, { shouldValidate: true });
              if (file && file.size > MAX_UPLOAD_BYTES) setError('fileUpload', { message: TOO_LARGE });
            }}
          />
        </div>
        {busy && (
          <ProgressBar
            className="mt-3"
            now={progress}
            label={`${progress}%`}
            animated={progress === 100}
            aria-label="Upload progress"
          />
        )}
        <UploadButtons
          order={order}
          latest={latest}
          busy={busy}
          submit={submit}
          onWithdraw={setWithdrawing}
        />
      </form>
      {latest && (
        <CardCheckPanel
          orderId={order.order_id}
          arrivedUnsent={order.checks?.some((c) => c.code === 'card_arrived_unsent') ?? false}
          version={order.version}
        />
      )}
      <EarlierDocuments order={order} />
      <WithdrawDialog order={order} doc={withdrawing} onClose={() => setWithdrawing(null)} />
    </Section>
  );
}

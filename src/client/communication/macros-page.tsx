import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import { toast } from 'react-toastify';
import { MACRO_STATUSES, type Macro, type MacroBody, macroBody } from '../../shared/contracts/communication';
import { statusName } from '../../shared/order-rules';
import { can } from '../../shared/permissions';
import { errorMessage } from '../transport/api';
import { sessionUser } from '../transport/session';
import { column, DataTable } from '../components/list-kit/data-table';
import { CheckboxField, SelectField, TextareaField, TextField } from '../components/form-kit/form-field';
import { LoadError } from '../components/load-error';
import {
  useDeleteMacroMutation,
  useGetMacrosQuery,
  useGetTemplatesQuery,
  useSaveMacroMutation,
} from './communication-api';

const EMPTY: MacroBody = {
  name: '',
  remark: null,
  moveTo: null,
  templateKey: null,
  whatsappText: null,
  requiresDocument: false,
};

const orNull = (v: string) => (v.trim() ? v : null);

const macroId = (m: Macro) => String(m.id);

/** The macro list's columns; Edit and Delete with macros.write. */
function macroColumns(editable: boolean, edit: (m: Macro) => void, del: (m: Macro) => Promise<void>) {
  const columns = [
    column<Macro>('Name', (m) => m.name),
    column<Macro>('Remark', (m) => m.remark ?? '–', { meta: { className: 'small' } }),
    column<Macro>('Moves to', (m) => (m.moveTo ? statusName(m.moveTo) : '–')),
    column<Macro>('Mail', (m) => m.templateKey ?? '–'),
    column<Macro>('Needs the card', (m) => (m.requiresDocument ? 'Yes' : 'No')),
  ];
  if (!editable) return columns;
  const actions = column<Macro>(
    '',
    (m) => (
      <>
        <Button size="sm" variant="outline-primary" onClick={() => edit(m)}>
          Edit
        </Button>{' '}
        <Button size="sm" variant="outline-danger" onClick={() => void del(m)}>
          Delete
        </Button>
      </>
    ),
    { id: 'action', meta: { className: 'text-nowrap' } },
  );
  return [...columns, actions];
}

/** The macro being added or edited: its name and the steps it does. */
function MacroForm({
  draft,
  setDraft,
  templateKeys,
  saving,
  onSubmit,
  onCancel,
}: {
  draft: MacroBody;
  setDraft: (draft: MacroBody) => void;
  /** The customer and refund mail templates: [key, name]. */
  templateKeys: [string, string][];
  saving: boolean;
  onSubmit: () => void;
  onCancel: () => void;
}) {
  return (
    <Card className="mt-3">
      <Card.Body>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            onSubmit();
          }}
        >
          <fieldset disabled={saving}>
            <TextField
              id="macro-name"
              className="mb-2"
              label="Name"
              value={draft.name}
              maxLength={120}
              onChange={(e) => setDraft({ ...draft, name: e.target.value })}
            />
            <TextareaField
              id="macro-remark"
              className="mb-2"
              label="Remark (optional)"
              rows={2}
              value={draft.remark ?? ''}
              onChange={(e) => setDraft({ ...draft, remark: orNull(e.target.value) })}
            />
            <div className="d-flex flex-wrap gap-3">
              <SelectField
                id="macro-move"
                className="mb-2"
                label="Move to (optional)"
                value={draft.moveTo ?? ''}
                onChange={(e) =>
                  setDraft({ ...draft, moveTo: (orNull(e.target.value) as MacroBody['moveTo']) ?? null })
                }
              >
                <option value="">No move</option>
                {MACRO_STATUSES.map((s) => (
                  <option key={s} value={s}>
                    {statusName(s)}
                  </option>
                ))}
              </SelectField>
              <SelectField
                id="macro-template"
                className="mb-2"
                label="Mail (optional)"
                value={draft.templateKey ?? ''}
                onChange={(e) => setDraft({ ...draft, templateKey: orNull(e.target.value) })}
              >
                <option value="">No mail</option>
                {templateKeys.map(([key, name]) => (
                  <option key={key} value={key}>
                    {name} ({key})
                  </option>
                ))}
              </SelectField>
              <CheckboxField
                className="align-self-center"
                id="macro-requires-document"
                label="Only when the approved card is uploaded"
                checked={draft.requiresDocument}
                onChange={(e) => setDraft({ ...draft, requiresDocument: e.target.checked })}
              />
            </div>
            <TextareaField
              id="macro-whatsapp"
              className="mb-3"
              label="WhatsApp text (optional, variables allowed)"
              rows={2}
              value={draft.whatsappText ?? ''}
              onChange={(e) => setDraft({ ...draft, whatsappText: orNull(e.target.value) })}
            />
            <div className="d-flex gap-2">
              <Button type="submit">Save macro</Button>
              <Button variant="outline-secondary" onClick={onCancel}>
                Cancel
              </Button>
            </div>
          </fieldset>
        </form>
      </Card.Body>
    </Card>
  );
}

/** /admin/macros: named steps (remark, status move, template mail, WhatsApp text) applied to orders. */
export function Component() {
  const role = sessionUser()?.type ?? null;
  const editable = can(role, 'macros.write');
  const macros = useGetMacrosQuery();
  const templates = useGetTemplatesQuery();
  const [save, saving] = useSaveMacroMutation();
  const [remove] = useDeleteMacroMutation();
  const [editing, setEditing] = useState<number | 'new' | null>(null);
  const [draft, setDraft] = useState<MacroBody>(EMPTY);

  if (macros.error)
    return <LoadError message={errorMessage(macros.error)} onRetry={() => void macros.refetch()} />;

  const keys = [
    ...new Map(
      (templates.data ?? [])
        .filter((t) => t.purpose === 'customer' || t.purpose === 'refund')
        .map((t) => [t.key, t.name]),
    ).entries(),
  ];
  const open = (m: Macro | null) => {
    setEditing(m ? m.id : 'new');
    setDraft(
      m
        ? {
            name: m.name,
            remark: m.remark,
            moveTo: m.moveTo as MacroBody['moveTo'],
            templateKey: m.templateKey,
            whatsappText: m.whatsappText,
            requiresDocument: m.requiresDocument,
          }
        : EMPTY,
    );
  };
  const submit = async () => {
    const parsed = macroBody.safeParse(draft);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      toast.error(`${issue?.path.join('.')}: ${issue?.message}`);
      return;
    }
    try {
      const res = await save({
        ...parsed.data,
        id: editing === 'new' ? undefined : (editing ?? undefined),
      }).unwrap();
      toast.success(res.message);
      setEditing(null);
    } catch (error) {
      toast.error(errorMessage(error));
    }
  };
  const del = async (m: Macro) => {
    if (!window.confirm(`Delete the macro "${m.name}"?`)) return;
    try {
      toast.success((await remove(m.id).unwrap()).message);
    } catch (error) {
      toast.error(errorMessage(error));
    }
  };

  return (
    <section className="p-3" aria-labelledby="macros-title" style={{ maxWidth: 1000 }}>
      <h1 id="macros-title" className="h4">
        Macros
      </h1>
      <p className="text-muted small">
        A macro does its steps on each order it is applied to, all or nothing per order, under the same rules
        as doing them by hand. Apply one from an order's page or from a list's selection.
      </p>
      <DataTable
        rows={macros.data ?? []}
        columns={macroColumns(editable, open, del)}
        rowId={macroId}
        label="Macros"
        className="table table-sm"
        wrapClassName="table-responsive"
        empty={null}
      />
      {editable && editing === null ? <Button onClick={() => open(null)}>New macro</Button> : null}
      {editing !== null ? (
        <MacroForm
          draft={draft}
          setDraft={setDraft}
          templateKeys={keys}
          saving={saving.isLoading}
          onSubmit={() => void submit()}
          onCancel={() => setEditing(null)}
        />
      ) : null}
    </section>
  );
}

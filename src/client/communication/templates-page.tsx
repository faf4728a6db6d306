import { useEffect, useMemo, useState } from 'react';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import ListGroup from 'react-bootstrap/ListGroup';
import { toast } from 'react-toastify';
import {
  mailTemplateBody,
  TEMPLATE_LANGUAGE_NAMES,
  TEMPLATE_LANGUAGES,
  TEMPLATE_PURPOSES,
  TEMPLATE_VARIABLE_NAMES,
  TEMPLATE_VARIABLES,
  type MailTemplateBody,
} from '../../shared/contracts/communication';
import { can } from '../../shared/permissions';
import { errorMessage } from '../transport/api';
import { sessionUser } from '../transport/session';
import { DateTime } from '../components/date-time';
import { SelectField, TextareaField, TextField } from '../components/form-kit/form-field';
import { LoadError } from '../components/load-error';
import {
  useDeleteTemplateMutation,
  useGetTemplateQuery,
  useGetTemplatesQuery,
  usePreviewTemplateMutation,
  useSaveTemplateMutation,
} from './communication-api';

const EMPTY: MailTemplateBody = {
  key: '',
  name: '',
  language: 'en',
  purpose: 'customer',
  subject: '',
  body: '',
};

/**
 * /admin/mail-templates: every customer mail template per key and language, an editor with a live
 * preview rendered on a real order, and the versions of the one open (every save is a new version).
 */
export function Component() {
  const role = sessionUser()?.type ?? null;
  const editable = can(role, 'templates.write');
  const list = useGetTemplatesQuery();
  const [selected, setSelected] = useState<number | null>(null);
  const detail = useGetTemplateQuery(selected ?? 0, { skip: selected === null });
  const [draft, setDraft] = useState<MailTemplateBody>(EMPTY);
  const [orderId, setOrderId] = useState('');
  const [save, saving] = useSaveTemplateMutation();
  const [remove] = useDeleteTemplateMutation();
  const [preview, previewState] = usePreviewTemplateMutation();

  useEffect(() => {
    const t = detail.data;
    if (t && t.id === selected) {
      setDraft({
        key: t.key,
        name: t.name,
        language: t.language as MailTemplateBody['language'],
        purpose: t.purpose as MailTemplateBody['purpose'],
        subject: t.subject,
        body: t.body,
      });
    }
  }, [detail.data, selected]);

  // The live preview: rendered by the server on the chosen order, shortly after typing stops.
  useEffect(() => {
    const id = Number(orderId);
    if (!Number.isInteger(id) || id <= 0 || !draft.body.trim()) return;
    const timer = setTimeout(() => {
      preview({ orderId: id, subject: draft.subject, body: draft.body }).catch(() => {});
    }, 400);
    return () => clearTimeout(timer);
  }, [orderId, draft.subject, draft.body, preview]);

  const groups = useMemo(() => {
    const byKey = new Map<string, NonNullable<typeof list.data>>();
    for (const t of list.data ?? []) byKey.set(t.key, [...(byKey.get(t.key) ?? []), t]);
    return [...byKey.entries()];
  }, [list.data]);

  if (list.error) return <LoadError message={errorMessage(list.error)} onRetry={() => void list.refetch()} />;

  const submit = async () => {
    // An empty key lets the server make one from the name (a new template) or keep the saved one.
    const parsed = mailTemplateBody.safeParse({ ...draft, key: draft.key?.trim() || undefined });
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      toast.error(`${issue?.path.join('.')}: ${issue?.message}`);
      return;
    }
    try {
      const res = await save({ ...parsed.data, id: selected ?? undefined }).unwrap();
      toast.success(res.message);
      if (res.data) setSelected(res.data.id);
    } catch (error) {
      toast.error(errorMessage(error));
    }
  };
  const del = async () => {
    if (selected === null || !window.confirm(`Delete the template ${draft.key} (${draft.language})?`)) return;
    try {
      const res = await remove(selected).unwrap();
      toast.success(res.message);
      setSelected(null);
      setDraft(EMPTY);
    } catch (error) {
      toast.error(errorMessage(error));
    }
  };
  // A built-in mail's template keeps its key, language and purpose (the server refuses a change).
  const builtIn = selected !== null && detail.data?.id === selected && detail.data.purpose !== 'customer';
  const insert = (name: string) => setDraft((d) => ({ ...d, body: `${d.body}{{${name}}}` }));
  const rendered = previewState.data?.data;

  return (
    <section className="p-3" aria-labelledby="templates-title">
      <h1 id="templates-title" className="h4">
        Mail templates
      </h1>
      <p className="text-muted small">
        The mails customers get, per language (English is used when the customer's language has none). Bodies
        use a small Markdown: blank lines between paragraphs, **bold**, *italic*, [label](https://…), lines
        starting with "- " for lists. Every save keeps the previous version.
      </p>
      <div className="d-flex flex-wrap gap-3 align-items-start">
        <Card style={{ width: 280 }}>
          <Card.Header className="d-flex justify-content-between align-items-center">
            <span>Templates</span>
            {editable ? (
              <Button
                size="sm"
                variant="outline-primary"
                onClick={() => {
                  setSelected(null);
                  setDraft(EMPTY);
                }}
              >
                New
              </Button>
            ) : null}
          </Card.Header>
          <ListGroup variant="flush" aria-label="Templates">
            {groups.map(([key, items]) => (
              <ListGroup.Item key={key}>
                <div className="fw-semibold small">{items[0]?.name}</div>
                <div className="d-flex flex-wrap gap-1 mt-1">
                  {items.map((t) => (
                    <Button
                      key={t.id}
                      size="sm"
                      variant={t.id === selected ? 'primary' : 'outline-secondary'}
                      onClick={() => setSelected(t.id)}
                      aria-label={`${t.name} (${TEMPLATE_LANGUAGE_NAMES[t.language as 'en'] ?? t.language})`}
                    >
                      {t.language}{' '}
                      <Badge bg="light" text="dark">
                        v{t.version}
                      </Badge>
                    </Button>
                  ))}
                </div>
              </ListGroup.Item>
            ))}
          </ListGroup>
        </Card>

        <Card style={{ flex: '1 1 420px', minWidth: 320 }}>
          <Card.Body>
            <form
              onSubmit={(e) => {
                e.preventDefault();
                void submit();
              }}
            >
              <fieldset disabled={!editable || saving.isLoading}>
                <div className="d-flex flex-wrap gap-2">
                  <TextField
                    id="tpl-name"
                    className="mb-2 flex-grow-1"
                    label="Name"
                    value={draft.name}
                    maxLength={120}
                    onChange={(e) => setDraft({ ...draft, name: e.target.value })}
                  />
                  <TextField
                    id="tpl-key"
                    className="mb-2"
                    label="Key"
                    value={draft.key ?? ''}
                    maxLength={60}
                    disabled={builtIn}
                    onChange={(e) => setDraft({ ...draft, key: e.target.value })}
                  />
                  <SelectField
                    id="tpl-language"
                    className="mb-2"
                    label="Language"
                    value={draft.language}
                    disabled={builtIn}
                    onChange={(e) =>
                      setDraft({ ...draft, language: e.target.value as MailTemplateBody['language'] })
                    }
                  >
                    {TEMPLATE_LANGUAGES.map((l) => (
                      <option key={l} value={l}>
                        {TEMPLATE_LANGUAGE_NAMES[l]}
                      </option>
                    ))}
                  </SelectField>
                  <SelectField
                    id="tpl-purpose"
                    className="mb-2"
                    label="Purpose"
                    value={draft.purpose}
                    disabled={builtIn}
                    onChange={(e) =>
                      setDraft({ ...draft, purpose: e.target.value as MailTemplateBody['purpose'] })
                    }
                  >
                    {TEMPLATE_PURPOSES.map((p) => (
                      <option key={p} value={p}>
                        {p}
                      </option>
                    ))}
                  </SelectField>
                </div>
                <TextField
                  id="tpl-subject"
                  className="mb-2"
                  label="Subject"
                  value={draft.subject}
                  maxLength={200}
                  onChange={(e) => setDraft({ ...draft, subject: e.target.value })}
                />
                <TextareaField
                  id="tpl-body"
                  className="mb-2"
                  label="Body"
                  rows={14}
                  value={draft.body}
                  controlClassName="font-monospace small"
                  onChange={(e) => setDraft({ ...draft, body: e.target.value })}
                />
                <fieldset className="d-flex flex-wrap gap-1 mb-3">
                  <legend className="visually-hidden">Variables</legend>
                  {TEMPLATE_VARIABLE_NAMES.map((v) => (
                    <Button
                      key={v}
                      size="sm"
                      variant="outline-secondary"
                      title={TEMPLATE_VARIABLES[v].label}
                      onClick={() => insert(v)}
                    >
                      {`{{${v}}}`}
                    </Button>
                  ))}
                </fieldset>
                {editable ? (
                  <div className="d-flex gap-2">
                    <Button type="submit">{selected ? 'Save as new version' : 'Add template'}</Button>
                    {selected ? (
                      <Button variant="outline-danger" onClick={() => void del()}>
                        Delete
                      </Button>
                    ) : null}
                  </div>
                ) : (
                  <p className="small mb-0">Only an Admin or a Manager can change templates.</p>
                )}
              </fieldset>
            </form>
          </Card.Body>
        </Card>

        <Card style={{ flex: '1 1 380px', minWidth: 320 }}>
          <Card.Header>Preview</Card.Header>
          <Card.Body>
            <TextField
              id="tpl-preview-order"
              className="mb-2"
              style={{ maxWidth: 220 }}
              label="On order"
              inputMode="numeric"
              placeholder="Order id"
              value={orderId}
              onChange={(e) => setOrderId(e.target.value.replace(/\D/g, ''))}
            />
            {previewState.error ? (
              <p className="text-danger small">{errorMessage(previewState.error)}</p>
            ) : null}
            {rendered ? (
              <>
                <p className="small mb-1">
                  <strong>Subject:</strong> {rendered.subject}
                </p>
                <iframe
                  title="Mail preview"
                  sandbox=""
                  srcDoc={rendered.html}
                  style={{ width: '100%', height: 420, border: '1px solid #ddd' }}
                />
                <details className="mt-2">
                  <summary className="small">Text part</summary>
                  <pre className="small" style={{ whiteSpace: 'pre-wrap' }}>
                    {rendered.text}
                  </pre>
                </details>
              </>
            ) : (
              <p className="text-muted small">Type an order id to see the mail as that customer gets it.</p>
            )}
          </Card.Body>
        </Card>
      </div>

      {selected && detail.data?.versions ? (
        <Card className="mt-3">
          <Card.Header>Versions</Card.Header>
          <ListGroup variant="flush" aria-label="Versions">
            {detail.data.versions.map((v) => (
              <ListGroup.Item key={v.version} className="d-flex justify-content-between align-items-center">
                <span className="small">
                  v{v.version} · {v.subject} · {v.createdBy ?? 'the service'} ·{' '}
                  <DateTime value={v.createdAt} />
                </span>
                {editable ? (
                  <Button
                    size="sm"
                    variant="outline-secondary"
                    onClick={() => setDraft({ ...draft, subject: v.subject, body: v.body })}
                  >
                    Load into editor
                  </Button>
                ) : null}
              </ListGroup.Item>
            ))}
          </ListGroup>
        </Card>
      ) : null}
    </section>
  );
}

import { useEffect, useMemo, useState } from 'react';
import { toast } from 'react-toastify';
import { mailTemplateBody, type MailTemplateBody } from '../../shared/contracts/communication';
import { can } from '../../shared/permissions';
import { errorMessage } from '../transport/api';
import { sessionUser } from '../transport/session';
import { LoadError } from '../components/load-error';
import {
  useDeleteTemplateMutation,
  useGetTemplateQuery,
  useGetTemplatesQuery,
  usePreviewTemplateMutation,
  useSaveTemplateMutation,
} from './communication-api';
import { TemplateEditor } from './template-editor';
import { TemplateList, TemplatePreview, TemplateVersions } from './template-panels';

const EMPTY: MailTemplateBody = {
  key: '',
  name: '',
  language: 'en',
  purpose: 'customer',
  subject: '',
  body: '',
};

/** The template open in the editor: the saved one's text copied into a draft, and saving or deleting it. */
function useTemplateDraft() {
  const [selected, setSelected] = useState<number | null>(null);
  const detail = useGetTemplateQuery(selected ?? 0, { skip: selected === null });
  const [draft, setDraft] = useState<MailTemplateBody>(EMPTY);
  const [save, saving] = useSaveTemplateMutation();
  const [remove] = useDeleteTemplateMutation();

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
  const startNew = () => {
    setSelected(null);
    setDraft(EMPTY);
  };
  // A built-in mail's template keeps its key, language and purpose (the server refuses a change).
  const builtIn = selected !== null && detail.data?.id === selected && detail.data.purpose !== 'customer';
  return { selected, setSelected, detail, draft, setDraft, saving, submit, del, startNew, builtIn };
}

/** The live preview: rendered by the server on the chosen order, shortly after typing stops. */
function useLivePreview(orderId: string, subject: string, body: string) {
  const [preview, previewState] = usePreviewTemplateMutation();
  useEffect(() => {
    const id = Number(orderId);
    if (!Number.isInteger(id) || id <= 0 || !body.trim()) return;
    const timer = setTimeout(() => {
      preview({ orderId: id, subject, body }).catch(() => {});
    }, 400);
    return () => clearTimeout(timer);
  }, [orderId, subject, body, preview]);
  return previewState;
}

/**
 * /admin/mail-templates: every customer mail template per key and language, an editor with a live
 * preview rendered on a real order, and the versions of the one open (every save is a new version).
 */
export function Component() {
  const role = sessionUser()?.type ?? null;
  const editable = can(role, 'templates.write');
  const list = useGetTemplatesQuery();
  const { selected, setSelected, detail, draft, setDraft, saving, submit, del, startNew, builtIn } =
    useTemplateDraft();
  const [orderId, setOrderId] = useState('');
  const previewState = useLivePreview(orderId, draft.subject, draft.body);

  const groups = useMemo(() => {
    const byKey = new Map<string, NonNullable<typeof list.data>>();
    for (const t of list.data ?? []) byKey.set(t.key, [...(byKey.get(t.key) ?? []), t]);
    return [...byKey.entries()];
  }, [list.data]);

  if (list.error) return <LoadError message={errorMessage(list.error)} onRetry={() => void list.refetch()} />;

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
        <TemplateList
          groups={groups}
          selected={selected}
          editable={editable}
          onSelect={setSelected}
          onNew={startNew}
        />
        <TemplateEditor
          draft={draft}
          setDraft={setDraft}
          selected={selected}
          editable={editable}
          saving={saving.isLoading}
          builtIn={builtIn}
          onSubmit={() => void submit()}
          onDelete={() => void del()}
        />
        <TemplatePreview
          orderId={orderId}
          onOrderId={setOrderId}
          error={previewState.error}
          rendered={previewState.data?.data}
        />
      </div>

      {selected && detail.data?.versions ? (
        <TemplateVersions
          versions={detail.data.versions}
          editable={editable}
          onLoad={(v) => setDraft({ ...draft, subject: v.subject, body: v.body })}
        />
      ) : null}
    </section>
  );
}

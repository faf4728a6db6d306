import type { Dispatch, SetStateAction } from 'react';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import {
  TEMPLATE_LANGUAGE_NAMES,
  TEMPLATE_LANGUAGES,
  TEMPLATE_PURPOSES,
  TEMPLATE_VARIABLE_NAMES,
  TEMPLATE_VARIABLES,
  type MailTemplateBody,
} from '../../shared/contracts/communication';
import { SelectField, TextareaField, TextField } from '../components/form-kit/form-field';

interface Props {
  draft: MailTemplateBody;
  setDraft: Dispatch<SetStateAction<MailTemplateBody>>;
  /** The open template's id; null for a new one. */
  selected: number | null;
  editable: boolean;
  saving: boolean;
  /** A built-in mail's template keeps its key, language and purpose (the server refuses a change). */
  builtIn: boolean;
  onSubmit: () => void;
  onDelete: () => void;
}

/** The editor of one template: name, key, language, purpose, subject, body and the variables to insert. */
export function TemplateEditor({
  draft,
  setDraft,
  selected,
  editable,
  saving,
  builtIn,
  onSubmit,
  onDelete,
}: Props) {
  const insert = (name: string) => setDraft((d) => ({ ...d, body: `${d.body}{{${name}}}` }));
  return (
    <Card style={{ flex: '1 1 420px', minWidth: 320 }}>
      <Card.Body>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            onSubmit();
          }}
        >
          <fieldset disabled={!editable || saving}>
            <TemplateIdentityFields draft={draft} setDraft={setDraft} builtIn={builtIn} />
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
                  <Button variant="outline-danger" onClick={onDelete}>
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
  );
}

/** Name, key, language and purpose on one line. */
function TemplateIdentityFields({ draft, setDraft, builtIn }: Pick<Props, 'draft' | 'setDraft' | 'builtIn'>) {
  return (
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
        onChange={(e) => setDraft({ ...draft, language: e.target.value as MailTemplateBody['language'] })}
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
        onChange={(e) => setDraft({ ...draft, purpose: e.target.value as MailTemplateBody['purpose'] })}
      >
        {TEMPLATE_PURPOSES.map((p) => (
          <option key={p} value={p}>
            {p}
          </option>
        ))}
      </SelectField>
    </div>
  );
}

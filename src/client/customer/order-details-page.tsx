import { Children, type ReactNode, useCallback, useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate, useParams } from 'react-router';
import type { DownloadHistoryResponse } from '../../shared/contracts/customer';
import { type CustomerStage, stageShowsRequest } from '../../shared/customer-stage';
import type { MessageKey } from '../../shared/i18n/en';
import type { Translator } from '../../shared/i18n/format';
import {
  clearToken,
  type FoundState,
  getDownloadHistory,
  loadToken,
  orderIdFromParam,
  recordDownload,
} from './customer-api';
import { useI18n } from './i18n';
import { CustomerLayout, useBrand } from './layout';
import { NoticePreview } from './notice-preview';
import { notifyError } from './notify';
import { ProgressLine } from './progress-line';
import { ReplyForm } from './reply-form';
import { SelfServicePanel } from './self-service-panel';

/** The file download starts 1000 ms after the download was recorded. */
export const DOWNLOAD_DELAY_MS = 1000;
/** The history is read again this long after the file was requested (its fetch records the row). */
const HISTORY_REFRESH_MS = 800;

type Loaded = Required<Pick<DownloadHistoryResponse, 'data' | 'mainResult' | 'path'>>;

const COLUMNS: (MessageKey | '#')[] = [
  '#',
  'history.orderId',
  'history.dateTime',
  'history.ip',
  'history.device',
  'history.deviceType',
  'history.browser',
  'history.os',
  'history.location',
];

/** A message with `<b>` tags as children: the values stay text, the tags become <strong>. */
function rich(t: Translator, key: MessageKey, values: Record<string, string>): ReactNode[] {
  return Children.toArray(
    t.rich<ReactNode>(key, values, { b: (chunks) => <strong>{Children.toArray(chunks)}</strong> }),
  );
}

function startDownload(url: string) {
  const a = document.createElement('a');
  a.href = url;
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  a.remove();
}

/**
 * The server's two fixed English words of the device columns in the reader's language; a device model (e.g. "iPhone")
 * stays as it was recorded.
 */
export function deviceName(t: Translator, value: string): string {
  if (value === 'Desktop computer') return t.t('history.desktop');
  if (value === 'Unknown') return t.t('history.unknown');
  return value;
}

/**
 * The heading and text of the top card while there is no card to download: one message per stage, so a
 * refunded or cancelled order never reads "being processed… we will e-mail you" (the progress line below
 * carries the stage's own message).
 */
export function pendingCopy(stage: CustomerStage): { title: MessageKey; text: MessageKey | null } {
  if (stage === 'refunded' || stage === 'cancelled') return { title: `stage.${stage}`, text: null };
  if (stage === 'approved') return { title: 'details.pendingTitle', text: 'details.pendingText' };
  return { title: 'details.pendingTitle', text: null };
}

function HistoryTable({ rows }: { rows: Loaded['data'] }) {
  const { t } = useI18n();
  return (
    // A scrollable region must take keyboard focus so it can be scrolled without a mouse (axe).
    // biome-ignore lint/a11y/noNoninteractiveTabindex: see above
    <section className="c-table-wrap" aria-labelledby="history-title" tabIndex={0}>
      <table className="c-table">
        <caption id="history-title">{t.t('history.caption')}</caption>
        <thead>
          <tr>
            {COLUMNS.map((c) => (
              <th key={c} scope="col">
                {c === '#' ? c : t.t(c)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 ? (
            <tr>
              <td colSpan={COLUMNS.length} className="c-empty">
                {t.t('server.noRecord')}
              </td>
            </tr>
          ) : (
            rows.map((r, i) => (
              <tr key={`${r.create_ts}-${i}`}>
                <td>{i + 1}</td>
                <td>{r.order_id}</td>
                <td>
                  {r.date_time} {r.time_zone}
                </td>
                <td>{r.ip}</td>
                <td>{deviceName(t, r.device)}</td>
                <td>{deviceName(t, r.device_type)}</td>
                <td>{deviceName(t, r.browser)}</td>
                <td>{deviceName(t, r.os)}</td>
                <td>{deviceName(t, r.location)}</td>
              </tr>
            ))
          )}
        </tbody>
      </table>
    </section>
  );
}

/**
 * The order's details and download history, read with the token kept since the track page (without
 * one, or when the server no longer takes it, back to the track page). The timer is the download's.
 */
function useDownloadHistory(orderId: string) {
  const navigate = useNavigate();
  const { setBrand } = useBrand();
  const { t, language, chosen } = useI18n();
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const backToTrack = useCallback(
    (message?: string) => {
      clearToken(orderId);
      if (message) notifyError(t.known(message));
      navigate(`/track-order${orderId ? `/${orderId}` : ''}`, { replace: true });
    },
    [navigate, orderId, t],
  );

  const load = useCallback(async () => {
    const token = loadToken(orderId);
    if (!token) return backToTrack();
    const res = await getDownloadHistory(orderId, token, { lang: language, languageChosen: chosen });
    if (res.status === 401) return backToTrack(res.message);
    if (res.status !== 1 || !res.data || !res.mainResult || !res.path) {
      notifyError(t.known(res.message));
      return;
    }
    setBrand(res.mainResult.brand);
    setLoaded({ data: res.data, mainResult: res.mainResult, path: res.path });
  }, [orderId, backToTrack, setBrand, language, chosen, t]);

  const title = t.t('page.detailsTitle');
  useEffect(() => {
    document.title = title;
  }, [title]);
  useEffect(() => {
    void load();
    return () => clearTimeout(timer.current);
  }, [load]);
  return { loaded, load, backToTrack, timer };
}

/**
 * Download the card: the download is recorded, the file follows a moment later, and the history is read
 * again once the file's fetch has added its row.
 */
function useCardDownload(orderId: string, history: ReturnType<typeof useDownloadHistory>) {
  const { loaded, load, backToTrack, timer } = history;
  const [busy, setBusy] = useState(false);
  const download = async () => {
    const token = loadToken(orderId);
    if (!token || !loaded?.path.file1) return backToTrack();
    const name = `${loaded.mainResult.first_name} ${loaded.mainResult.last_name}`.trim();
    setBusy(true);
    const res = await recordDownload(orderId, name, loaded.path.file1, token);
    setBusy(false);
    if (res.status === 1 && res.data) {
      const { url } = res.data;
      timer.current = setTimeout(() => {
        startDownload(url);
        // The server records the download when the file is fetched: show the new row once it is.
        timer.current = setTimeout(() => void load(), HISTORY_REFRESH_MS);
      }, DOWNLOAD_DELAY_MS);
    } else if (res.status === 401) {
      backToTrack(res.message);
    } else {
      // A failed customer download is only logged, never shown (docs/product.md).
      console.error('download failed', res.message);
    }
  };
  return { busy, download };
}

/** The top card: the card to download, or the stage's heading and text while there is none. */
function TopCard({
  orderId,
  mainResult,
  busy,
  onDownload,
}: {
  orderId: string;
  mainResult: Loaded['mainResult'];
  busy: boolean;
  onDownload: () => void;
}) {
  const { t } = useI18n();
  const pending = pendingCopy(mainResult.stage);
  const values = {
    firstName: mainResult.first_name,
    lastName: mainResult.last_name,
    orderId: String(mainResult.order_id),
  };
  return (
    <section className="c-card c-done" aria-labelledby="done-title">
      {mainResult.downloadable ? (
        <>
          <h1 id="done-title">{t.t('details.doneTitle')}</h1>
          <p>{rich(t, 'details.doneText', values)}</p>
          <button type="button" className="c-button" onClick={onDownload} disabled={busy}>
            {t.t('details.download')}
          </button>
          <NoticePreview orderId={orderId} />
        </>
      ) : (
        <>
          <h1 id="done-title">{t.t(pending.title)}</h1>
          {pending.text ? <p>{rich(t, pending.text, values)}</p> : null}
        </>
      )}
    </section>
  );
}

function OrderDetails() {
  const params = useParams();
  // Just tracked: the "order found" words stand at the top of the page (not a toast over the history).
  const found = (useLocation().state as Partial<FoundState> | null)?.found;
  const { t } = useI18n();
  const orderId = orderIdFromParam(params.orderId);
  const history = useDownloadHistory(orderId);
  const { loaded, load } = history;
  const { busy, download } = useCardDownload(orderId, history);
  // The answer just sent on this page: the stage says so at once (decision 392).
  const [answeredHere, setAnsweredHere] = useState(false);

  if (!loaded) {
    return (
      <section className="c-card" aria-busy="true">
        <p>{t.t('details.loading')}</p>
      </section>
    );
  }
  const { mainResult, data } = loaded;
  return (
    <>
      {found ? (
        <p className="c-found" role="status" data-testid="order-found">
          {found}
        </p>
      ) : null}
      <TopCard orderId={orderId} mainResult={mainResult} busy={busy} onDownload={download} />
      <ProgressLine
        stage={mainResult.stage}
        // An approved order whose card is not there yet (forced by an Admin) keeps only the top card's words;
        // an answer just sent waits for the server's words about it (the request's words no longer apply).
        message={
          (mainResult.stage === 'approved' && !mainResult.downloadable) ||
          (answeredHere && !mainResult.stageAnswered)
            ? null
            : mainResult.stageMessage
        }
        request={mainResult.stageRequest}
        answered={(mainResult.stageAnswered ?? false) || answeredHere}
      />
      {mainResult.stageSubmitted ? <p className="c-submitted">{mainResult.stageSubmitted}</p> : null}
      {/* Also once the answer moved the order back to Received: the thank-you stays, more can follow.
          It stays for the customer who just answered even when staff have read the answer meanwhile. */}
      {(stageShowsRequest(mainResult.stage) || mainResult.stageAnswered || answeredHere) &&
      loadToken(orderId) ? (
        <ReplyForm
          orderId={orderId}
          token={loadToken(orderId)!}
          answered={mainResult.stageAnswered ?? false}
          onSent={() => {
            setAnsweredHere(true);
            void load();
          }}
        />
      ) : null}
      {loadToken(orderId) ? (
        <SelfServicePanel orderId={orderId} token={loadToken(orderId)!} onChanged={() => void load()} />
      ) : null}
      <section className="c-card">
        <HistoryTable rows={data} />
      </section>
    </>
  );
}

/** /get-new-order-details/:orderId: download the approved card and see the download history. */
export function Component() {
  return (
    <CustomerLayout>
      <OrderDetails />
    </CustomerLayout>
  );
}

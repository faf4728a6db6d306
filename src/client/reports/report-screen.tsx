import { skipToken } from '@reduxjs/toolkit/query';
import dayjs from 'dayjs';
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef } from 'react';
import { Controller } from 'react-hook-form';
import Button from 'react-bootstrap/Button';
import Spinner from 'react-bootstrap/Spinner';
import { type Id, toast } from 'react-toastify';
import { type ReportRange, reportRangeBody } from '../../shared/contracts/reports';
import { toCsv } from '../../shared/csv';
import { serviceToday } from '../../shared/dates';
import { MSG } from '../../shared/messages';
import type { Envelope } from '../transport/api';
import { errorMessage } from '../transport/api';
import { downloadText } from '../components/download';
import { PaginationBar } from '../components/pagination-bar';
import { DateField } from '../components/form-kit/date-field';
import { useZodForm } from '../components/form-kit/use-zod-form';
import type { ColumnDef } from '@tanstack/react-table';
import { DataTable } from '../components/list-kit/data-table';
import { ListToolbar } from '../components/list-kit/list-toolbar';
import { textParam, useListState } from '../components/list-kit/use-list-state';
import type { ChartSpec } from './report-chart';
import './reports.css';

// chart.js lives in its own chunk, fetched only when a report has rows to draw.
const ReportChart = lazy(() => import('./report-chart'));

export interface ReportColumn<R> {
  label: string;
  value: (row: R) => string | number;
  numeric?: boolean;
}

interface QueryResult {
  currentData?: Envelope<unknown[]> | undefined;
  error?: unknown;
  isFetching: boolean;
  fulfilledTimeStamp?: number | undefined;
  refetch: () => unknown;
}

interface Props<R> {
  title: string;
  /** The RTK Query hook of the report call. */
  useReport: (
    args: ReportRange | typeof skipToken,
    options: { refetchOnMountOrArgChange: boolean },
  ) => QueryResult;
  columns: ReportColumn<R>[];
  /** The text the search box matches (nationality, processed_by). */
  searchText: (row: R) => string;
  searchLabel: string;
  csvName: string;
  chart: (rows: R[]) => ChartSpec;
}

const RANGE_PARAMS = { from: textParam, to: textParam };

/** Range, search, page and size live in the URL, so a report link is shareable and Back works. */
function useReportParams() {
  const list = useListState(RANGE_PARAMS);
  const { from, to } = list.filters;
  const parsed = reportRangeBody.safeParse({ fromDate: from, toDate: to });
  const range = parsed.success ? parsed.data : null;
  return { ...list, from, to, range };
}

/** Report calls toast their outcome and these toasts stay until closed (docs/product.md). */
function useReportToasts(result: QueryResult) {
  const envelope = result.currentData;
  const toastId = useRef<Id | null>(null);
  const show = useCallback((kind: 'success' | 'error', message: string) => {
    if (toastId.current !== null) toast.dismiss(toastId.current);
    toastId.current = toast[kind](message, { autoClose: false });
  }, []);
  useEffect(() => {
    if (!result.fulfilledTimeStamp || !envelope) return;
    if (envelope.status === 1) show('success', envelope.message);
    else show('error', envelope.message);
  }, [result.fulfilledTimeStamp, envelope, show]);
  useEffect(() => {
    const status = (result.error as { status?: unknown } | undefined)?.status;
    // A 401 is handled (toast, sign-out) by the API layer.
    if (result.error && status !== 401) show('error', errorMessage(result.error));
  }, [result.error, show]);
}

/**
 * The range form: starts at the URL's range (else this month so far); Submit puts a new range in the
 * URL, or asks again for the same one.
 */
function ReportRangeForm({
  from,
  to,
  range,
  fetching,
  onSubmitRange,
  onRefetch,
}: {
  from: string;
  to: string;
  range: ReportRange | null;
  fetching: boolean;
  onSubmitRange: (values: ReportRange) => void;
  onRefetch: () => void;
}) {
  const today = serviceToday();
  const {
    control,
    handleSubmit,
    reset,
    formState: { errors },
  } = useZodForm(reportRangeBody, {
    defaultValues: {
      fromDate: from || dayjs(today).startOf('month').format('YYYY-MM-DD'),
      toDate: to || today,
    },
  });
  // A range arriving through the URL (Back, a shared link) shows in the form too.
  useEffect(() => {
    const fromUrl = reportRangeBody.safeParse({ fromDate: from, toDate: to });
    if (fromUrl.success) reset(fromUrl.data);
  }, [from, to, reset]);

  const onSubmit = handleSubmit((values) => {
    if (range && values.fromDate === range.fromDate && values.toDate === range.toDate) onRefetch();
    else onSubmitRange(values);
  });

  return (
    <form noValidate onSubmit={onSubmit} className="d-flex flex-wrap align-items-start gap-2 mb-3">
      <Controller
        control={control}
        name="fromDate"
        render={({ field }) => (
          <DateField
            id="report-from"
            label="From"
            labelClassName="small mb-1"
            size="sm"
            error={errors.fromDate?.message}
            value={field.value}
            onChange={field.onChange}
          />
        )}
      />
      <Controller
        control={control}
        name="toDate"
        render={({ field }) => (
          <DateField
            id="report-to"
            label="To"
            labelClassName="small mb-1"
            size="sm"
            error={errors.toDate?.message}
            value={field.value}
            onChange={field.onChange}
          />
        )}
      />
      <div className="align-self-end">
        <Button type="submit" size="sm" disabled={fetching}>
          {fetching ? <Spinner size="sm" animation="border" className="me-1" /> : null}
          Submit
        </Button>
      </div>
    </form>
  );
}

/** One report screen (Country Order List, Order Processed): form, search, table, chart, CSV. */
export function ReportScreen<R>({
  title,
  useReport,
  columns,
  searchText,
  searchLabel,
  csvName,
  chart,
}: Props<R>) {
  const { from, to, range, page, size, search, typed, setTyped, setFilters, setPage, setSize } =
    useReportParams();
  const result = useReport(range ?? skipToken, { refetchOnMountOrArgChange: true });
  const envelope = result.currentData;
  useReportToasts(result);

  const allRows = (envelope?.data ?? []) as R[];
  const rows = useMemo(() => {
    const needle = search.toLowerCase();
    return needle ? allRows.filter((r) => searchText(r).toLowerCase().includes(needle)) : allRows;
  }, [allRows, search, searchText]);
  const pageSize = size === 'All' ? Math.max(rows.length, 1) : size;
  const lastPage = Math.max(1, Math.ceil(rows.length / pageSize));
  const current = Math.min(page, lastPage);
  const offset = (current - 1) * pageSize;
  const shown = rows.slice(offset, offset + pageSize);

  const exportCsv = () => {
    const csv = toCsv(
      ['S. No', ...columns.map((c) => c.label)],
      rows.map((r, i) => [i + 1, ...columns.map((c) => c.value(r))]),
    );
    const suffix = [range?.fromDate, range?.toDate, search ? 'search' : null].filter(Boolean).join('_');
    downloadText(`${csvName}_${suffix}.csv`, csv);
  };

  // S. No counts across pages; the columns are the report's own.
  const tableColumns = useMemo<ColumnDef<R, unknown>[]>(
    () => [
      { id: 'sno', header: 'S. No', cell: ({ row }) => offset + row.index + 1 },
      ...columns.map(
        (c): ColumnDef<R, unknown> => ({
          id: c.label,
          header: c.label,
          cell: ({ row }) => c.value(row.original),
          meta: c.numeric ? { className: 'text-end' } : {},
        }),
      ),
    ],
    [columns, offset],
  );
  const rowId = useCallback((r: R, i: number) => `${searchText(r)}:${offset + i}`, [searchText, offset]);

  const chartSpec = useMemo(() => (rows.length ? chart(rows) : null), [rows, chart]);

  return (
    <section className="p-3" aria-labelledby="report-title">
      <h1 id="report-title" className="h4 mb-3">
        {title}
      </h1>
      <ReportRangeForm
        from={from}
        to={to}
        range={range}
        fetching={result.isFetching}
        onSubmitRange={(values) => setFilters({ from: values.fromDate, to: values.toDate })}
        onRefetch={() => result.refetch()}
      />
      <ListToolbar
        search={{ value: typed, onChange: setTyped, placeholder: `Search by ${searchLabel}` }}
        onExport={exportCsv}
        exportDisabled={!rows.length}
      />
      <div className="row g-3">
        <div className="col-12 col-xl-7">
          <DataTable
            rows={shown}
            columns={tableColumns}
            rowId={rowId}
            wrapClassName="report-table-wrap border rounded"
            className="table table-sm table-striped table-hover mb-0"
            busy={result.isFetching}
            empty={range ? MSG.noRecords : 'Choose a range and press Submit.'}
          />
          <PaginationBar
            page={current}
            pageSize={size}
            total={rows.length}
            onPage={setPage}
            onPageSize={setSize}
          />
        </div>
        <div className="col-12 col-xl-5">
          {chartSpec ? (
            <Suspense
              fallback={
                <div className="report-chart d-flex align-items-center justify-content-center">
                  <Spinner animation="border" size="sm" />
                </div>
              }
            >
              <ReportChart spec={chartSpec} />
            </Suspense>
          ) : null}
        </div>
      </div>
    </section>
  );
}

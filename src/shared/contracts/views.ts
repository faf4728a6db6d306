import { z } from 'zod';
import { MAX_PAGE_SIZE, MONTHS } from '../constants.js';
import { text } from './common.js';
import { folderName, listFilterFields } from './orders.js';

/** Columns of the order list a view may show (the column chooser). */
export const LIST_COLUMNS = [
  'order_id',
  'name',
  'email',
  'phone',
  'nationality',
  'processing_mode',
  'arrival_date',
  'due_at',
  'status',
  'created_at',
  'processing_date',
  'assign_to',
] as const;
export type ListColumn = (typeof LIST_COLUMNS)[number];

/** Most views one staff member may keep. */
export const MAX_VIEWS_PER_USER = 50;

/** What a view remembers: the list's URL query (sort, filters, page size, columns). */
export const viewQuery = z
  .object({
    ...listFilterFields,
    month: z.enum(MONTHS, { error: 'must be Jan to Dec' }).optional(),
    limit: z
      .number({ error: 'must be a number' })
      .int('must be a whole number')
      .min(1, 'must be 1 or more')
      .max(MAX_PAGE_SIZE, `can be at most ${MAX_PAGE_SIZE}`)
      .optional(),
    columns: z
      .array(z.enum(LIST_COLUMNS, { error: `must be one of ${LIST_COLUMNS.join(', ')}` }))
      .max(LIST_COLUMNS.length, 'too many columns')
      .optional(),
  })
  .strict();
export type ViewQuery = z.infer<typeof viewQuery>;

export const savedViewBody = z
  .object({
    name: text(80).pipe(z.string().min(1, 'is required')),
    folder: folderName,
    query: viewQuery.default({}),
    /** Shown to every staff member (Admin and Manager only). */
    shared: z.boolean({ error: 'must be true or false' }).default(false),
  })
  .strict();
export type SavedViewBody = z.infer<typeof savedViewBody>;

export const viewIdParams = z.object({
  id: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .positive('must be positive')
    .max(2_147_483_647, 'is too large'),
});

export const savedView = z.object({
  id: z.number().int(),
  name: z.string(),
  folder: folderName,
  query: viewQuery,
  shared: z.boolean(),
  ownerName: z.string(),
  /** The signed-in member's own view (they may change or delete it). */
  mine: z.boolean(),
  /** Orders the view shows right now. */
  count: z.number().int(),
});
export type SavedView = z.infer<typeof savedView>;

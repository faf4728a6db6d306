import { zodResolver } from '@hookform/resolvers/zod';
import { type FieldValues, type UseFormProps, useForm } from 'react-hook-form';
import type * as z from 'zod/v4/core';

/**
 * A react-hook-form form checked by the shared zod contract of its request (zod or zod/mini): the same
 * schema the server validates with, so the fields show the server's own messages before anything is sent.
 */
export function useZodForm<S extends z.$ZodType<FieldValues, FieldValues>>(
  schema: S,
  options: Omit<UseFormProps<z.input<S>, unknown, z.output<S>>, 'resolver'> = {},
) {
  return useForm<z.input<S>, unknown, z.output<S>>({ ...options, resolver: zodResolver(schema) });
}

/**
 * The named components of the OpenAPI document and what the endpoints' schemas share: each schema registered with
 * `component` is one entry of `components.schemas`, referred to wherever it is used. An answer that describes a
 * TypeScript type is tied to it with `describes`: its output must be that type and name every key of it (a field
 * added to the type without its schema does not compile).
 */
import { z } from 'zod';
import { nullableText, text } from '../ledger/views';

/** Every schema registered here is a named component of the OpenAPI document. */
export const apiRegistry = z.registry<{ id: string; description?: string }>();

export function component<S extends z.ZodType>(id: string, schema: S, description?: string): S {
  apiRegistry.add(schema, { id, ...(description ? { description } : {}) });
  return schema;
}

/** The component name of a registered schema. */
export function componentId(schema: z.ZodType): string {
  const id = apiRegistry.get(schema)?.id;
  if (id === undefined) throw new Error('A schema the document refers to is not a registered component');
  return id;
}

/** Keys of T the schema's output lacks. */
type MissingKeys<T, S extends z.ZodType> = Exclude<keyof T, keyof z.output<S>>;

/** Ties a schema to the type it describes: its output is a T, and it has every key of T. */
export function describes<T>() {
  return <S extends z.ZodType<T>>(
    schema: S & ([MissingKeys<T, S>] extends [never] ? unknown : { missingKeys: MissingKeys<T, S> }),
  ): S => schema;
}

export const errorSchema = component(
  'Error',
  z.strictObject({
    error: z.strictObject({
      code: text.meta({
        description: 'Stable machine-readable code, e.g. invalid_input, not_found, conflict',
      }),
      message: text,
      issues: z.array(text).optional().meta({ description: 'One line per problem of the input' }),
    }),
  }),
  'Every error answer: a 4xx is the request, a 5xx our side or Temporal (503 comes with Retry-After)',
);

/** A paged list's answer: `{ data, pagination: { nextPageToken } }`; `order` says how its data is sorted. */
export const pageOf = <S extends z.ZodType>(item: S, order?: string) =>
  z.strictObject({
    data: order === undefined ? z.array(item) : z.array(item).meta({ description: order }),
    pagination: z.strictObject({
      nextPageToken: nullableText.meta({
        description: 'Pass as pageToken for the next page; null on the last',
      }),
    }),
  });

/** The page a list answers, as its paged answer. */
export const pageAnswer = <T>(page: { data: T[]; nextPageToken: string | null }) => ({
  data: page.data,
  pagination: { nextPageToken: page.nextPageToken },
});

/** A list's `limit` and `pageToken` (query values are strings; limit is converted). */
export const paging = {
  limit: z
    .string()
    .regex(/^(?:[1-9][0-9]?|100)$/, 'must be an integer from 1 to 100')
    .transform(Number)
    .optional(),
  pageToken: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,8192}$/, 'must be a nextPageToken this API answered')
    .optional(),
};

/**
 * Free text a client writes that the ledger keeps: any character but NUL (U+0000), which a PostgreSQL text column
 * cannot hold, so it is refused as bad input instead of failing the write.
 */
// eslint-disable-next-line no-control-regex -- NUL is the one character refused
export const storedText = z.string().regex(/^[^\u0000]*$/, 'must not contain the NUL character (U+0000)');

/** The characters a trim removes, spelled out so that the document's pattern means the same to every reader. */
const TRIMMED = '\\t\\n\\v\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff';

/** Stored text that says something: not blank (the document's pattern says so too), and kept trimmed. */
export const statedText = z
  .string()
  .regex(
    new RegExp(`^[^\\u0000]*[^\\u0000${TRIMMED}][^\\u0000]*$`),
    'must not be blank nor contain the NUL character (U+0000)',
  )
  .trim();

/** An instant in a query or body, with what it bounds. */
export const instant = (description: string) => z.iso.datetime({ offset: true }).meta({ description });

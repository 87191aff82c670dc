/**
 * Every answer of the API's tests is checked against the OpenAPI document (src/api/openapi.ts): `recordAnswers`
 * wraps an app and records each JSON answer; after each test, `expectAnswersMatchDocument` validates them (ajv,
 * JSON Schema 2020-12) against the response schema of their operation and status. A status the operation does
 * not document fails too.
 */
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import express, { type Express } from 'express';
import { openApiDocument } from '../../src/api/openapi';

interface Answer {
  method: string;
  path: string;
  status: number;
  body: unknown;
}

const DOCUMENT_ID = 'https://ramp-orchestrator.invalid/openapi.json';
const recorded: Answer[] = [];
let ajv: Ajv2020 | undefined;
const validators = new Map<string, ValidateFunction>();

function validatorAt(pointer: string): ValidateFunction {
  let validate = validators.get(pointer);
  if (!validate) {
    if (!ajv) {
      ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
      addFormats(ajv);
      ajv.addSchema({ ...openApiDocument(), $id: DOCUMENT_ID });
    }
    validate = ajv.compile({ $ref: `${DOCUMENT_ID}#${pointer}` });
    validators.set(pointer, validate);
  }
  return validate;
}

const escapePointer = (segment: string) => segment.replaceAll('~', '~0').replaceAll('/', '~1');

/** The document's path template of a request path, if any. */
function templateOf(path: string): string | undefined {
  // Concrete paths before templates, as OpenAPI matches them (`/v1/events/test` is no `{webhookId}`).
  const paths = Object.keys(openApiDocument().paths as Record<string, unknown>).sort(
    (a, b) => Number(a.includes('{')) - Number(b.includes('{')),
  );
  return paths.find((template) =>
    new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+').replaceAll('.', '\\.')}$`).test(path),
  );
}

/** The JSON pointer of the schema an answer must match, or an error naming what is undocumented. */
function schemaPointer(answer: Answer): string | undefined {
  const template = templateOf(answer.path);
  if (!template) {
    // A route the API does not have: its answer is still the one error envelope.
    return answer.path.startsWith('/v1/') || answer.status >= 400 ? '/components/schemas/Error' : undefined;
  }
  const paths = openApiDocument().paths as Record<
    string,
    Record<string, { responses: Record<string, unknown> }>
  >;
  const operation = paths[template]![answer.method];
  if (!operation) return answer.status >= 400 ? '/components/schemas/Error' : undefined;
  if (!operation.responses[String(answer.status)])
    throw new Error(
      `${answer.method.toUpperCase()} ${template} answered ${answer.status}, which the document does not list`,
    );
  return `/paths/${escapePointer(template)}/${answer.method}/responses/${answer.status}/content/application~1json/schema`;
}

/** An app answering as `app` does, whose JSON answers are recorded for `expectAnswersMatchDocument`. */
export function recordAnswers(app: Express): Express {
  const outer = express();
  outer.use((req, res, next) => {
    const json = res.json.bind(res);
    res.json = (body: unknown) => {
      recorded.push({ method: req.method.toLowerCase(), path: req.path, status: res.statusCode, body });
      return json(body);
    };
    next();
  });
  outer.use(app);
  return outer;
}

/** Records an answer the app streamed (not sent with res.json), to be checked like the others. */
export function recordAnswer(answer: Answer): void {
  recorded.push(answer);
}

/** Validates (and forgets) every answer recorded so far; answers how many were checked. */
export function expectAnswersMatchDocument(): number {
  const answers = recorded.splice(0, recorded.length);
  const problems: string[] = [];
  let checked = 0;
  for (const answer of answers) {
    try {
      const pointer = schemaPointer(answer);
      if (!pointer) continue;
      const validate = validatorAt(pointer);
      checked += 1;
      if (!validate(answer.body))
        problems.push(
          `${answer.method.toUpperCase()} ${answer.path} ${answer.status}: ${JSON.stringify(validate.errors?.slice(0, 5))}`,
        );
    } catch (error) {
      problems.push((error as Error).message);
    }
  }
  if (problems.length > 0)
    throw new Error(`Answers that do not match docs/openapi.json:\n${problems.join('\n')}`);
  return checked;
}

/** Registers the check after each test of the calling file. */
export function checkAnswersAfterEach(): void {
  afterEach(() => {
    expectAnswersMatchDocument();
  });
}

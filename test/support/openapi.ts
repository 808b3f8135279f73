import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsPlugin from 'ajv-formats';
import type { OpenApiDocument } from '../../src/http/openapi.js';

// Checks real responses against the hub's OpenAPI document: the status must be documented for
// the operation, the content type among its media types, and a JSON body valid by its schema.

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
type MediaTypes = Record<string, { schema?: object }>;
type DocumentedResponse = { content?: MediaTypes };
type Operation = { responses?: Record<string, DocumentedResponse> };

// ajv-formats is CommonJS: under Node's interop its plugin is the default export's `default`.
const addFormats = addFormatsPlugin.default;

export type Exchange = { method: string; path: string; status: number; contentType: string; text: string };

function newAjv(): Ajv2020 {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addFormat('binary', true);
  return ajv;
}

/** The examples of request and response bodies that their own schemas refuse. */
export function invalidExamples(document: OpenApiDocument): string[] {
  const ajv = newAjv();
  const problems: string[] = [];
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const [method, operation] of Object.entries(item ?? {}) as [string, Operation & { requestBody?: DocumentedResponse }][]) {
      const bodies = [operation.requestBody, ...Object.values(operation.responses ?? {})];
      for (const media of bodies.flatMap((body) => Object.values(body?.content ?? {})) as { schema?: object; example?: unknown }[]) {
        if (media.example === undefined) continue;
        const validate = ajv.compile({ ...media.schema, components: document.components });
        if (!validate(media.example)) problems.push(`${method} ${path}: ${ajv.errorsText(validate.errors)}`);
      }
    }
  }
  return problems;
}

export function responseChecker(document: OpenApiDocument) {
  const ajv = newAjv();
  const validators = new Map<string, ValidateFunction>();

  /** The schema alone does not resolve `#/components/...`: each is compiled with the document's components beside it. */
  function validatorFor(key: string, schema: object): ValidateFunction {
    let validate = validators.get(key);
    if (!validate) {
      validate = ajv.compile({ ...schema, components: document.components });
      validators.set(key, validate);
    }
    return validate;
  }

  /** The problems of one exchange; none when it is answered as documented. */
  return function problems({ method, path, status, contentType, text }: Exchange): string[] {
    const operation = (document.paths?.[path] as Record<Method, Operation> | undefined)?.[method.toLowerCase() as Method];
    if (!operation) return [`${method} ${path} is not documented`];
    const documented = operation.responses?.[String(status)];
    if (!documented) return [`${method} ${path} answered ${status}, which is not documented`];
    if (!documented.content) return text === '' ? [] : [`${method} ${path} ${status} has a body, documented without one`];
    const mediaType = Object.keys(documented.content).find((type) => matches(type, contentType));
    if (!mediaType) return [`${method} ${path} ${status} answered ${contentType}, not one of ${Object.keys(documented.content).join(', ')}`];
    if (mediaType !== 'application/json') return [];
    const schema = documented.content[mediaType]?.schema ?? {};
    const validate = validatorFor(`${method} ${path} ${status}`, schema);
    if (validate(JSON.parse(text))) return [];
    return [`${method} ${path} ${status}: ${ajv.errorsText(validate.errors)} in ${text.slice(0, 500)}`];
  };
}

/** `image/*` matches `image/png`; parameters such as charset are ignored. */
function matches(documented: string, actual: string): boolean {
  const type = actual.split(';')[0]?.trim() ?? '';
  return documented.endsWith('/*') ? type.startsWith(documented.slice(0, -1)) : type === documented;
}

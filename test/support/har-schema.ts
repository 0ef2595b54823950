/**
 * HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/) as a JSON Schema: the objects, the fields
 * the spec marks required, and their types. Browsers' HAR import reads exactly these.
 */
const nameValue = { type: 'object', required: ['name', 'value'], properties: { name: { type: 'string' }, value: { type: 'string' } } };
const list = { type: 'array', items: nameValue };

export const HAR_1_2_SCHEMA = {
  type: 'object',
  required: ['log'],
  properties: {
    log: {
      type: 'object',
      required: ['version', 'creator', 'entries'],
      properties: {
        version: { const: '1.2' },
        creator: { type: 'object', required: ['name', 'version'], properties: { name: { type: 'string' }, version: { type: 'string' } } },
        entries: {
          type: 'array',
          items: {
            type: 'object',
            required: ['startedDateTime', 'time', 'request', 'response', 'cache', 'timings'],
            properties: {
              startedDateTime: { type: 'string', format: 'date-time' },
              time: { type: 'number', minimum: 0 },
              request: {
                type: 'object',
                required: ['method', 'url', 'httpVersion', 'cookies', 'headers', 'queryString', 'headersSize', 'bodySize'],
                properties: {
                  method: { type: 'string' },
                  url: { type: 'string', format: 'uri' },
                  httpVersion: { type: 'string' },
                  cookies: { type: 'array' },
                  headers: list,
                  queryString: list,
                  postData: { type: 'object', required: ['mimeType'], properties: { mimeType: { type: 'string' }, text: { type: 'string' } } },
                  headersSize: { type: 'integer' },
                  bodySize: { type: 'integer' },
                },
              },
              response: {
                type: 'object',
                required: ['status', 'statusText', 'httpVersion', 'cookies', 'headers', 'content', 'redirectURL', 'headersSize', 'bodySize'],
                properties: {
                  status: { type: 'integer' },
                  statusText: { type: 'string' },
                  httpVersion: { type: 'string' },
                  cookies: { type: 'array' },
                  headers: list,
                  content: {
                    type: 'object',
                    required: ['size', 'mimeType'],
                    properties: { size: { type: 'integer' }, mimeType: { type: 'string' }, text: { type: 'string' } },
                  },
                  redirectURL: { type: 'string' },
                  headersSize: { type: 'integer' },
                  bodySize: { type: 'integer' },
                },
              },
              cache: { type: 'object' },
              timings: {
                type: 'object',
                required: ['send', 'wait', 'receive'],
                properties: { send: { type: 'number' }, wait: { type: 'number' }, receive: { type: 'number' } },
              },
            },
          },
        },
      },
    },
  },
} as const;

/**
 * The events API: outcome events newest first (paged) and one by its webhook-id, with how their delivery stands; a
 * signed test.ping to every endpoint; one event sent again, or every event a filter matches as one job, and how
 * that job stands.
 */
import { z } from 'zod';
import type { RedeliveryProgress } from '../../client/outcome-events';
import {
  MAX_OUTCOME_WEBHOOK_ID_LENGTH,
  OUTCOME_DELIVERY_STATUSES,
  OUTCOME_WEBHOOK_ID_PATTERN,
  WEBHOOK_EVENT_TYPES,
} from '../../domain/outcome-events';
import * as views from '../../ledger/views';
import { endUserIdSchema } from '../../validation/identifiers';
import { component, describes, instant, pageAnswer, pageOf, paging } from '../components';
import { endpoint, input } from '../endpoint';

component('OutcomeEventData', views.outcomeEventDataSchema);
component(
  'OutcomeEvent',
  views.outcomeEventSchema,
  'The JSON body of an outcome webhook, identical on every delivery of it',
);
export const testPingEvent = component(
  'TestPingEvent',
  views.testPingEventSchema,
  'The body of the test event POST /v1/events/test sends to every endpoint, signed like any other',
);
const eventRecord = component(
  'EventRecord',
  views.eventViewSchema,
  'One outcome event as the events API lists it: its body, how its delivery stands, its place in its queue',
);
const eventPage = component('EventPage', pageOf(eventRecord));

const eventType = z.enum(WEBHOOK_EVENT_TYPES);
const deliveryStatus = z.enum(OUTCOME_DELIVERY_STATUSES);

const eventFilter = z.strictObject({
  type: eventType.optional(),
  status: deliveryStatus.optional(),
  endUserId: endUserIdSchema.optional(),
  since: instant('Events that happened at or after this').optional(),
  until: instant('Events that happened before this').optional(),
  ...paging,
});

const redeliveryRequest = component(
  'RedeliveryRequest',
  z.strictObject({
    type: eventType.optional(),
    status: deliveryStatus.optional().meta({
      description:
        'Only events in this state; leave it out after an outage: since alone reaches every unconfirmed event',
    }),
    endUserId: endUserIdSchema.optional(),
    since: instant('Events that happened at or after this (required: a redelivery is always bounded)'),
    until: instant('Events that happened before this').optional(),
  }),
);

const redeliveryJob = component(
  'RedeliveryJob',
  describes<RedeliveryProgress>()(
    z.strictObject({
      jobId: views.text,
      status: z.enum(['running', 'completed']),
      filter: z
        .record(z.string(), views.text)
        .meta({ description: 'What the job matched, as it was asked for' }),
      matched: z.number().meta({ description: 'Events put back in their queues' }),
      delivered: z.number(),
      failed: z.number(),
      noEndpoint: z.number(),
      startedAt: views.isoDateTime,
      completedAt: views.isoDateTime.nullable(),
    }),
  ),
  'A bulk redelivery: each matching event is sent once more with its own webhook-id',
);

/** The webhook-id of an outcome event, as every delivery of it carries it. */
const webhookId = input(
  'webhook ID',
  z.strictObject({
    webhookId: z
      .string()
      .max(MAX_OUTCOME_WEBHOOK_ID_LENGTH, {
        error: `must be at most ${MAX_OUTCOME_WEBHOOK_ID_LENGTH} characters`,
        abort: true,
      })
      .regex(
        OUTCOME_WEBHOOK_ID_PATTERN,
        'must be the webhook-id of an outcome event (evt_<process>~<number>)',
      )
      .meta({ description: 'The webhook-id of an outcome event: evt_<workflow ID with / as ~>~<number>' }),
  }),
);

const jobId = input(
  'job ID',
  z.strictObject({
    jobId: z
      .string()
      .regex(
        /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
        'must be a jobId this API answered',
      ),
  }),
);

export const eventEndpoints = [
  endpoint({
    method: 'get',
    path: '/v1/events',
    operationId: 'listEvents',
    summary:
      'Outcome events from the moment their process raised them, with how their delivery stands and their place in their queue, newest first, one page at a time; following nextPageToken lists each event once',
    tag: 'Outcome events',
    query: input('event filter', eventFilter),
    answers: {
      200: {
        schema: eventPage,
        description: 'One page; pagination.nextPageToken is null on the last',
        bare: true,
      },
    },
    errors: [400, 404],
    handle: async ({ query }, ramp) => pageAnswer(await ramp.listEvents(query)),
  }),
  endpoint({
    method: 'get',
    path: '/v1/events/{webhookId}',
    operationId: 'getEvent',
    summary: 'One outcome event with how its delivery stands',
    tag: 'Outcome events',
    params: webhookId,
    answers: { 200: { schema: eventRecord, description: 'The event' } },
    errors: [400, 404],
    handle: ({ params }, ramp) => ramp.getEvent(params.webhookId),
  }),
  endpoint({
    method: 'post',
    path: '/v1/events/test',
    operationId: 'sendTestEvent',
    summary: 'Sends a signed test.ping to every endpoint; read its delivery with GET /v1/events/{webhookId}',
    tag: 'Outcome events',
    answers: { 202: { schema: eventRecord, description: 'The test event, on its way' } },
    errors: [],
    links: {
      event: {
        operationId: 'getEvent',
        parameters: { webhookId: '$response.body#/data/webhookId' },
        description: "How the test event's delivery stands",
      },
    },
    handle: (_request, ramp) => ramp.sendTestEvent(),
  }),
  endpoint({
    method: 'post',
    path: '/v1/events/redeliver',
    operationId: 'redeliverEvents',
    summary:
      "Redelivers every outcome event a filter matches (for instance every failed one since T) as one job; each event goes back in its process's queue with its own webhook-id",
    tag: 'Outcome events',
    body: input('redelivery filter', redeliveryRequest, {}),
    answers: {
      202: {
        schema: redeliveryJob,
        description: 'The job, started; read its progress with GET /v1/events/redeliveries/{jobId}',
      },
    },
    errors: [],
    links: {
      job: {
        operationId: 'getRedeliveryJob',
        parameters: { jobId: '$response.body#/data/jobId' },
        description: "The job's progress",
      },
    },
    handle: ({ body }, ramp) => ramp.startRedeliveryJob(body),
  }),
  endpoint({
    method: 'get',
    path: '/v1/events/redeliveries/{jobId}',
    operationId: 'getRedeliveryJob',
    summary: 'How a bulk redelivery stands',
    tag: 'Outcome events',
    params: jobId,
    answers: { 200: { schema: redeliveryJob, description: 'The job' } },
    errors: [400, 404],
    handle: ({ params }, ramp) => ramp.getRedeliveryJob(params.jobId),
  }),
  endpoint({
    method: 'post',
    path: '/v1/events/{webhookId}/redeliver',
    operationId: 'redeliverEvent',
    summary: "Sends one outcome event again, with the same webhook-id: back in its process's queue, due now",
    tag: 'Outcome events',
    params: webhookId,
    answers: { 202: { schema: eventRecord, description: 'The event, on its way again' } },
    errors: [400, 404],
    handle: ({ params }, ramp) => ramp.redeliverEvent(params.webhookId),
  }),
];

/** The floor workflows' messages, shared by the workflows and the worker module that drives them. */
import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { FloorWallet } from './activities';

export const floorWalletUpdate = defineUpdate<FloorWallet>('floorWallet');
export const floorEventSignal = defineSignal<[number]>('floorEvent');
export const floorSeenQuery = defineQuery<number>('floorSeen');

export { failureNote, nextPollDelayMs, nextStepWait, type StepWait } from './ramps/shared/step-timing';

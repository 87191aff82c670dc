export { createReceiverApp, type ReceiverDeps, type RunningReceiver, startReceiver } from './receiver';

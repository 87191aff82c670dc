export * from '../entry/args';

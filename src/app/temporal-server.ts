export * from '../temporal/temporal-server';

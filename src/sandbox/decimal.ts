/** Moved to src/domain/decimal.ts (one decimal module for the sandbox, configuration and the activities). */
export {
  AMOUNT_DECIMALS,
  DecimalFormatError,
  formatAmount,
  parseAmount,
  truncate,
  UNIT,
} from '../domain/decimal';

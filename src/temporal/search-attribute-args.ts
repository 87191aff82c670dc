/** The dev server's `--search-attribute` arguments: every search attribute the product uses, registered at start. */
import { SearchAttributeType } from '@temporalio/common';
import { ALL_SEARCH_ATTRIBUTES } from '../domain/search-attributes';

/** The CLI's `--search-attribute` type names. */
const CLI_TYPE_NAMES: Record<string, string> = {
  [SearchAttributeType.KEYWORD]: 'Keyword',
  [SearchAttributeType.KEYWORD_LIST]: 'KeywordList',
  [SearchAttributeType.TEXT]: 'Text',
  [SearchAttributeType.INT]: 'Int',
  [SearchAttributeType.DOUBLE]: 'Double',
  [SearchAttributeType.BOOL]: 'Bool',
  [SearchAttributeType.DATETIME]: 'Datetime',
};

export function devServerSearchAttributeArgs(): string[] {
  return ALL_SEARCH_ATTRIBUTES.flatMap((key) => [
    '--search-attribute',
    `${key.name}=${CLI_TYPE_NAMES[key.type]}`,
  ]);
}

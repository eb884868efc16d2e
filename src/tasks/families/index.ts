// Registry of every curriculum family, in a fixed order (the order problems are generated in).
import type { Family } from '../family';
import * as listsA from './lists-a';
import * as listsB from './lists-b';

export const FAMILIES: Family[] = [...Object.values(listsA), ...Object.values(listsB)];

// Registry of every curriculum family, in a fixed order (the order problems are generated in).
import type { Family } from '../family';
import * as listsA from './lists-a';
import * as listsB from './lists-b';
import * as stringsA from './strings-a';
import * as stringsB from './strings-b';
import * as numbers from './numbers';

export const FAMILIES: Family[] = [listsA, listsB, stringsA, stringsB, numbers].flatMap((m) => Object.values(m));

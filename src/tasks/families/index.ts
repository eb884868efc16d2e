// Registry of every curriculum family, in a fixed order (the order problems are generated in).
import type { Family } from '../family';
import * as listsA from './lists-a';
import * as listsB from './lists-b';
import * as listsC from './lists-c';
import * as stringsA from './strings-a';
import * as stringsB from './strings-b';
import * as numbersA from './numbers-a';
import * as numbersB from './numbers-b';
import * as dictsA from './dicts';
import * as dictsB from './dicts-b';
import * as sortingA from './sorting-a';
import * as sortingB from './sorting-b';

const MODULES = [listsA, listsB, listsC, stringsA, stringsB, numbersA, numbersB, dictsA, dictsB, sortingA, sortingB];
export const FAMILIES: Family[] = MODULES.flatMap((m) => Object.values(m));

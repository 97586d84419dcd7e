import { fnvhash64String } from './fnv';

/** YCSB CoreWorkload.buildKeyName with insertorder=hashed and zeropadding=1. */
export function ycsbKey(keynum: number): string {
  return 'user' + fnvhash64String(keynum);
}

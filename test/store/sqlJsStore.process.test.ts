import { sqlJsStores } from './contractStores';
import { storeContract } from './storeContract';

/** The store contract (storeContract.ts) on the sql.js store: a database file and its journal. */
storeContract('sql.js', sqlJsStores());

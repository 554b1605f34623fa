/** Sizes and counts for listDatabases, dbStats and collStats. */
import type { Catalog } from "./catalog";
import type { Collection } from "./collection";
import { namespaceNotFound } from "./errors";
import type { CollStats, DbStats } from "./types";

/** estimated bytes per index key (B+tree entry), for index sizes: the store keeps no on-disk index files */
export const INDEX_ENTRY_BYTES = 32;

export function listDatabases(catalog: Catalog): { name: string; sizeOnDisk: number; empty: boolean }[] {
  const out: { name: string; sizeOnDisk: number; empty: boolean }[] = [];
  for (const [name, colls] of catalog.dbs) {
    if (colls.size === 0) continue;
    let size = 0;
    for (const c of colls.values()) size += c.dataSize;
    out.push({ name, sizeOnDisk: size, empty: false });
  }
  return out;
}

export function dbStats(catalog: Catalog, db: string): DbStats {
  const colls = [...(catalog.dbs.get(db)?.values() ?? [])];
  const objects = colls.reduce((n, c) => n + c.docs.size, 0);
  const dataSize = colls.reduce((n, c) => n + c.dataSize, 0);
  const indexes = colls.reduce((n, c) => n + c.indexes.size, 0);
  const indexSize = colls.reduce((n, c) => n + indexBytes(c), 0);
  return {
    db,
    collections: colls.length,
    views: 0,
    objects,
    avgObjSize: objects ? dataSize / objects : 0,
    dataSize,
    storageSize: dataSize,
    indexes,
    indexSize,
  };
}

function indexBytes(c: Collection): number {
  let n = 0;
  for (const idx of c.indexes.values()) n += idx.tree.size * INDEX_ENTRY_BYTES;
  return n;
}

export function collStats(catalog: Catalog, db: string, collName: string): CollStats {
  const c = catalog.coll(db, collName);
  if (!c) throw namespaceNotFound(`Collection [${db}.${collName}] not found.`);
  const indexSizes: Record<string, number> = {};
  for (const [name, idx] of c.indexes) indexSizes[name] = idx.tree.size * INDEX_ENTRY_BYTES;
  return {
    ns: c.ns,
    count: c.docs.size,
    size: c.dataSize,
    avgObjSize: c.docs.size ? c.dataSize / c.docs.size : 0,
    storageSize: c.dataSize,
    nindexes: c.indexes.size,
    totalIndexSize: indexBytes(c),
    indexSizes,
  };
}

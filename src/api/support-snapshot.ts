/** Support snapshots (not named by the spec): POST /api/support/snapshots keeps one for the signed-in member. */
import * as z from 'zod/mini';
import { post } from './client';
import { storedSnapshotSchema, type SupportSnapshotBody } from '../schemas/support-snapshot.schema';

export const supportApi = {
  sendSnapshot: (snapshot: SupportSnapshotBody) => post(z.object({ snapshot: storedSnapshotSchema }), '/api/support/snapshots', snapshot),
};

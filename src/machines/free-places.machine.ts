/**
 * The free places of the member's own tree a recruit may be signed up into (binary: empty left and right
 * slots; matrix: free places in spill-over order), page by page: the member signup's list to pick from.
 * `placement` narrows it to the places under one member (the genealogy's "sign up here").
 */
import { networkApi } from '../api/network';
import type { FreePlace } from '../schemas/network.schema';
import { createPagedListMachine } from './paged-list.machine';

export interface FreePlacesFilters {
  placement?: string;
}

export const freePlacesListMachine = createPagedListMachine<FreePlace, FreePlacesFilters>('freePlaces', ({ filters, next }) =>
  networkApi
    .freePlaces({ placement: filters.placement, after: next?.after })
    .then((p) => ({ items: p.places, next: p.next_after ? { after: p.next_after } : null })),
);

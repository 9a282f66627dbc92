import { notFound, shown } from '../../infra/errors.js';
import type { Infra } from '../../infra/infra.js';
import type { Submitter } from '../calendar/index.js';
import type { RequestPipeline } from '../../platform/requests/index.js';
import type { PropertiesService } from '../properties/index.js';
import { BaseService } from '../service.js';
import type { ListingStatusOutcome, ListingStatusRepository } from './listing-status.repository.js';
import type { ListingStatusItem, SetListingStatusAnswer, SetListingStatusBody } from './listing-status.schema.js';

/**
 * set-listing-status: a second kind of request through the request pipeline (shared/platform/requests:
 * one table, one submission sequence, one queue, get-request-status), applied by its own job.
 */
export class ListingStatusService extends BaseService {
  constructor(
    infra: Infra,
    private readonly requests: RequestPipeline,
    private readonly properties: PropertiesService,
    private readonly repo: ListingStatusRepository,
  ) {
    super(infra);
  }

  /** Resolves the listings (404 when there is none to name), stores one request and queues it. */
  async submit(companyUid: string, body: SetListingStatusBody, by: Submitter): Promise<SetListingStatusAnswer> {
    const listingUid = body.listing_uid ?? undefined;
    const propertyUid = body.property_uid ?? undefined;
    const targets = await this.repo.findListingTargets(this.db, companyUid, listingUid !== undefined ? { listingUid } : { propertyUid });
    let property = targets[0]?.propertyUid;
    if (listingUid !== undefined && (property === undefined || (propertyUid !== undefined && property !== propertyUid))) {
      throw notFound('listing_uid', `Unknown listing_uid ${shown(listingUid)}`);
    }
    if (property === undefined) {
      // A property without listings: still a request (it changes nothing), if the property is the company's.
      property = (await this.properties.require(companyUid, propertyUid ?? '')).uid;
    }
    const items: ListingStatusItem[] = targets.map((t) => ({ listing_uid: t.uid, status: body.status }));
    const { answer } = await this.requests.submit(
      async (tx) => {
        const uids = await this.requests.insert(tx, companyUid, property, [items], [{}], { kind: 'listing_status', appUid: by.appUid });
        return { answer: { data: { request_uid: uids[0] as string } }, uids, queue: uids };
      },
      { kind: 'listing_status' },
    );
    return answer;
  }

  /** Worker: marks the request processing, then applies it (a request already final is left alone). */
  async apply(requestUid: string): Promise<ListingStatusOutcome> {
    const begun = await this.requests.begin(requestUid);
    if (begun.status !== 'processing') return { status: begun.status, listingsChanged: 0 };
    return this.repo.applyListingStatusRequest(this.db, requestUid);
  }
}
